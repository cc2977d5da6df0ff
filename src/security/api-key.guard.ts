import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { setAuditActor } from './operator';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import type { ErrorAnswer } from '../common/api-error-responses';
import type { AdminApiKey } from './admin-api-keys';
import { requiredRoleOf, roleAllows } from './admin-roles';
import { ADMIN_KEY_BEARER_SCHEME, ADMIN_KEY_SCHEME, KeyedApi, SDK_KEY_SCHEME } from './key-schemes';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** A header a key may come in, as messages name it. */
type KeyHeader = 'x-api-key' | 'Authorization: Bearer';

/** A key as one header of the request carries it, and its position among the configured keys (-1: none of them). */
interface SentKey {
  header: KeyHeader;
  index: number;
}

/** What a 401 tells about each API's keys: what they are, where they are configured, the console slot of each header. */
const KEYS_OF: Readonly<Record<KeyedApi, { what: string; setting: string; slots: Readonly<Record<KeyHeader, string | null>> }>> = {
  admin: {
    what: 'an admin key',
    setting: 'ADMIN_API_KEYS',
    slots: { 'x-api-key': ADMIN_KEY_SCHEME, 'Authorization: Bearer': ADMIN_KEY_BEARER_SCHEME },
  },
  // The console has no slot for an SDK key as a bearer: on launch and delta the bearer is the app user's token.
  sdk: { what: 'an SDK key', setting: 'SDK_API_KEYS', slots: { 'x-api-key': SDK_KEY_SCHEME, 'Authorization: Bearer': null } },
};

const inSlot = (api: KeyedApi, header: KeyHeader): string => {
  const slot = KEYS_OF[api].slots[header];
  return slot === null ? header : `${header} (Authorize: ${slot})`;
};

/** "an admin key is required in x-api-key (Authorize: admin-key) or Authorization: Bearer (Authorize: admin-key-bearer)" */
export const keyRequiredMessage = (api: KeyedApi): string =>
  `${KEYS_OF[api].what} is required in ${inSlot(api, 'x-api-key')} or ${inSlot(api, 'Authorization: Bearer')}`;

/** The key (or keys) sent are none of the configured ones: which header held what, and which slot takes the right one. */
export function keyNotValidMessage(api: KeyedApi, headers: readonly KeyHeader[]): string {
  const { what, setting } = KEYS_OF[api];
  const held = headers.length === 1 ? `the key in ${headers[0]} is not` : `neither ${headers.join(' nor ')} holds`;
  return `${held} ${what} (one of ${setting}); send one in ${inSlot(api, 'x-api-key')} or ${inSlot(api, 'Authorization: Bearer')}`;
}

/** Two headers naming two different admin keys: the roles could differ, so neither is chosen. */
export const conflictingAdminKeysMessage = (names: readonly [string, string]): string =>
  `x-api-key and Authorization: Bearer hold two different admin keys ('${names[0]}' and '${names[1]}'); send one ` +
  `(in the console, fill ${ADMIN_KEY_SCHEME} or ${ADMIN_KEY_BEARER_SCHEME}, not both)`;

/** The 401 of each API's routes, as the document shows it. */
export const UNAUTHORIZED_ANSWERS: Readonly<Record<KeyedApi, ErrorAnswer>> = {
  admin: {
    description:
      'UNAUTHORIZED: ADMIN_API_KEYS is set and neither x-api-key nor the bearer of Authorization holds an admin key, ' +
      'or the two hold different admin keys (the message names the header and the console slot)',
    examples: [
      [ErrorCode.UNAUTHORIZED, keyRequiredMessage('admin')],
      [ErrorCode.UNAUTHORIZED, keyNotValidMessage('admin', ['x-api-key'])],
      [ErrorCode.UNAUTHORIZED, conflictingAdminKeysMessage(['ops', 'ci'])],
    ],
  },
  sdk: {
    description:
      'UNAUTHORIZED: SDK_API_KEYS is set and neither x-api-key nor the bearer of Authorization holds an SDK key ' +
      '(the message names the header and the console slot)',
    examples: [
      [ErrorCode.UNAUTHORIZED, keyRequiredMessage('sdk')],
      [ErrorCode.UNAUTHORIZED, keyNotValidMessage('sdk', ['x-api-key'])],
    ],
  },
};

/**
 * Requires one of the configured API keys (docs/decisions/0010-roles-keys-and-tokens.md) in `Authorization: Bearer`
 * or `x-api-key`. Either header holding a valid key is enough, so an app's own bearer token beside a valid
 * `x-api-key` does not fail the request. A refusal names the header it read and the console's slot for it.
 * Keys are compared as SHA-256 digests with `timingSafeEqual`: constant time, whatever the lengths.
 */
export class ApiKeyGuard implements CanActivate {
  private readonly keyDigests: Buffer[];

  constructor(
    keys: readonly string[],
    protected readonly api: KeyedApi = 'sdk',
  ) {
    this.keyDigests = keys.map(digest);
  }

  canActivate(context: ExecutionContext): boolean {
    this.validKeys(context.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }

  /** The request's keys that are configured ones (at least one: none → UNAUTHORIZED naming what was sent where). */
  protected validKeys({ headers }: FastifyRequest): SentKey[] {
    const authorization = headers.authorization;
    const bearer = typeof authorization === 'string' ? /^Bearer\s+(.+)$/i.exec(authorization)?.[1] : undefined;
    const apiKey = headers['x-api-key'];
    const sent: SentKey[] = [];
    if (typeof apiKey === 'string') sent.push({ header: 'x-api-key', index: this.indexOf(apiKey) });
    if (bearer !== undefined) sent.push({ header: 'Authorization: Bearer', index: this.indexOf(bearer) });
    const valid = sent.filter((key) => key.index >= 0);
    if (valid.length > 0) return valid;
    throw new DomainError(
      ErrorCode.UNAUTHORIZED,
      sent.length === 0
        ? keyRequiredMessage(this.api)
        : keyNotValidMessage(
            this.api,
            sent.map((key) => key.header),
          ),
    );
  }

  private indexOf(candidate: string): number {
    const candidateDigest = digest(candidate);
    // Check every key, so the time taken does not tell which one matched.
    return this.keyDigests.reduce(
      (found, keyDigest, index) => (timingSafeEqual(keyDigest, candidateDigest) && found < 0 ? index : found),
      -1,
    );
  }
}

/**
 * The admin API's keys with their roles (docs/decisions/0010-roles-keys-and-tokens.md): the key first, then whether its role
 * allows the route (declared on the route with `@RequiresRole`), before anything else of the
 * request is looked at. Two different admin keys in one request are refused rather than one
 * chosen silently. The key's name becomes the actor of the request's audit entries.
 */
export class AdminKeyGuard extends ApiKeyGuard {
  constructor(private readonly keys: readonly AdminApiKey[]) {
    super(
      keys.map((key) => key.key),
      'admin',
    );
  }

  override canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const [first, second] = this.validKeys(request);
    if (second !== undefined && second.index !== first.index) {
      throw new DomainError(
        ErrorCode.UNAUTHORIZED,
        conflictingAdminKeysMessage([this.keys[first.index].name, this.keys[second.index].name]),
      );
    }
    const key = this.keys[first.index];
    const needed = requiredRoleOf(context.getHandler());
    if (!roleAllows(key.role, needed)) {
      throw new DomainError(ErrorCode.FORBIDDEN, `the key '${key.name}' has the role ${key.role}; this route needs ${needed}`);
    }
    setAuditActor(request, key.name, key.role);
    return true;
  }
}
