import { AdminRole, ADMIN_ROLES, isAdminRole } from './admin-roles';

/** An operator's admin key: its name (the audit actor), its role, the secret. */
export interface AdminApiKey {
  name: string;
  role: AdminRole;
  key: string;
}

/** Names are the audit history's actors, stored in a column of this size. */
const MAX_NAME_LENGTH = 255;

/**
 * Entries of `ADMIN_API_KEYS` (docs/decisions/0010-roles-keys-and-tokens.md): `name:role:key`, or a bare `key` (role `admin`,
 * named `key-1`, `key-2`, … in the order the bare keys are given). The key itself may hold
 * colons. Problems name the entry by position, never by its secret.
 */
export function parseAdminApiKeys(entries: readonly string[]): AdminApiKey[] | { problem: string } {
  const keys: AdminApiKey[] = [];
  let bare = 0;
  for (const [index, entry] of entries.entries()) {
    const position = `entry ${index + 1}`;
    const parts = entry.split(':');
    if (parts.length === 1) {
      keys.push({ name: `key-${++bare}`, role: 'admin', key: entry });
      continue;
    }
    if (parts.length === 2) {
      return { problem: `${position} must be 'key' or 'name:role:key'` };
    }
    const [name, role, ...secret] = parts.map((part) => part.trim());
    const key = secret.join(':');
    if (name === '' || key === '') {
      return { problem: `${position} has an empty ${name === '' ? 'name' : 'key'}; use 'name:role:key'` };
    }
    if (name.length > MAX_NAME_LENGTH) {
      return { problem: `${position} has a name longer than ${MAX_NAME_LENGTH} characters` };
    }
    if (!isAdminRole(role)) {
      return { problem: `${position} ('${name}') has the unknown role '${role}'; roles are ${ADMIN_ROLES.join(', ')}` };
    }
    keys.push({ name, role, key });
  }
  const names = keys.map((key) => key.name);
  const repeatedName = names.find((name, index) => names.indexOf(name) !== index);
  if (repeatedName !== undefined) {
    return { problem: `names the key '${repeatedName}' twice (bare keys are named key-1, key-2, …)` };
  }
  const secrets = keys.map((key) => key.key);
  const repeatedKey = keys.find((key, index) => secrets.indexOf(key.key) !== index);
  if (repeatedKey !== undefined) {
    return { problem: `gives the key of '${repeatedKey.name}' twice` };
  }
  return keys;
}
