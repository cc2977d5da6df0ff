import { applyPatch, deepClone } from 'fast-json-patch';
import type { AuditEntry } from '../src/audit/audit.types';
import type { CohortRecord } from '../src/cohorts/cohort-record';
import { type AdminHeaders, AdminClient, type MemberUpload } from './admin-client';
import { examples } from './fixtures';
import type { TestApp } from './harness';

/** Shared by the audit suites (audit-*.e2e-spec.ts). */

export const property = (propertyName: string) => ({ propertyName, type: 'string', isMandatory: true });

/** A CTA rule whose audience is the cohort `name`. */
export const ruleFor = (name: string) => ({ ...examples.rule(), cohortEligibility: { includes: [name], excludes: [] } });

/** Applying an entry's patch to its `before` gives its `after`: the patch is the whole story. */
export const expectPatchLeadsToAfter = (entry: AuditEntry): void => {
  expect(applyPatch(deepClone(entry.before), deepClone(entry.changes)).newDocument).toEqual(entry.after);
};

/** The helpers of an audit suite, on its app (`api()`: set once the suite has started it). */
export function auditSuite(api: () => TestApp) {
  /** The tenant's admin API without the (optional) user header: its changes name no user. */
  const adminOf = (tenantId: string): AdminClient => new AdminClient(api(), tenantId, null);
  const audit = (tenantId: string, query = '') => adminOf(tenantId).audit.search(query);
  const history = (tenantId: string, ctaId: number | string, query = '') => adminOf(tenantId).ctas.history(ctaId, query);
  /** The tenant's entries, newest first (every page); `any`, as tests read the records in them. */
  const entriesOf = async (tenantId: string, query = ''): Promise<any[]> => {
    const res = await audit(tenantId, `?pageSize=100${query}`);
    expect(res.status).toBe(200);
    return res.body.data.entries;
  };
  const latest = async (tenantId: string): Promise<any> => (await entriesOf(tenantId))[0];
  const cohortOf = async (tenantId: string, name: string): Promise<CohortRecord> => {
    const res = await adminOf(tenantId).cohorts.get(name);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  /** A member upload by ops@example.com: JSON ids, or CSV text. */
  const members = (tenantId: string, method: 'POST' | 'PUT' | 'DELETE', name: string, body: MemberUpload, extra: AdminHeaders = {}) =>
    new AdminClient(api(), tenantId).cohorts.members(method, name, body, extra);
  return { adminOf, audit, history, entriesOf, latest, cohortOf, members };
}
