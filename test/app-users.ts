import { createHash } from 'node:crypto';
import { UserStateStore } from '../src/sdk/user-state.store';
import { AdminClient } from './admin-client';
import { databaseContents } from './database-contents';
import { EXAMPLE_TIME, machine } from './fixtures';
import type { TestApp } from './harness';
import { SdkClient } from './sdk-client';

/** Shared by the app users' data suites (app-users-*.e2e-spec.ts). */

/** What an erase leaves of a user's state row: an empty document, with its empty launch index. */
export const EMPTY_STATE_DOCUMENT = '{"launch":"","ctas":[],"tags":[]}';

/** The export of a user with nothing stored. */
export const nothingStored = (userId: string) => ({
  userId,
  state: { ctas: [], behaviourTags: [], recentActions: [] },
  cohorts: [],
  testCtas: [],
  auditEntries: [],
});

/** The audit entity id of a user's erase, computed here independently of the service. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A device's snapshot of one machine `key` of `ctaId`, with a context that names a personal value. */
export const snapshot = (ctaId: string, key: string, at = EXAMPLE_TIME, fields: Record<string, unknown> = {}) => ({
  ctas: [{ ctaId, activeStateMachines: { [key]: machine('1', at, { context: { email: `${key}@example.com` }, ...fields }) } }],
});

/** The admin API and one user's device in one tenant of `api`. */
export function userOf(api: TestApp, tenantId: string, userId: string): { admin: AdminClient; device: SdkClient } {
  return { admin: new AdminClient(api, tenantId), device: new SdkClient(api, tenantId, userId) };
}

/** The machine keys stored for the user, as `<ctaId>/<key>`, from the export (through `admin`'s instance). */
export async function storedMachines(admin: AdminClient, userId: string): Promise<string[]> {
  const response = await admin.appUsers.export(userId);
  expect(response.status).toBe(200);
  return response.body.data.state.ctas.flatMap((cta) => Object.keys(cta.activeStateMachines).map((key) => `${cta.ctaId}/${key}`)).sort();
}

/**
 * Every row of every table whose JSON holds `text` (a user id), by table: what a privacy officer
 * searching the database for the user would find.
 */
export async function rowsNaming(api: TestApp, text: string): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const [table, rows] of Object.entries(await databaseContents(api))) {
    const naming = rows.filter((row) => row.includes(text));
    if (naming.length > 0) found[table] = naming;
  }
  return found;
}

/** A state write held between its read and its write. */
export interface HeldWrite {
  /** Resolves once the request has read the state and come to write it. */
  reached: Promise<void>;
  /** Lets the write go on. */
  release(): void;
}

/**
 * Holds the next write of `userId`'s state on `api` (a merge's or a launch's) until released: the
 * deterministic way to have a request that read the state before an erase write after it.
 */
export function holdNextStateWrite(api: TestApp, tenantId: string, userId: string): HeldWrite {
  const store = api.service(UserStateStore);
  const write = store.write;
  let reached!: () => void;
  let release!: () => void;
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  store.write = async function (this: UserStateStore, ...args: Parameters<UserStateStore['write']>) {
    if (args[0] !== tenantId || args[1] !== userId) {
      return write.apply(this, args);
    }
    store.write = write;
    reached();
    await released;
    return write.apply(this, args);
  };
  return { reached: reachedPromise, release };
}
