import { AdminClient } from './admin-client';
import type { TestApp } from './harness';

/** Shared by the cohort suites (cohorts-*.e2e-spec.ts). */

let tenantSequence = 0;

/** The admin API of a fresh tenant. */
export const freshTenant = (api: TestApp): AdminClient => new AdminClient(api, `cohorts-${++tenantSequence}`);

export async function isMember(admin: AdminClient, name: string, userId: string): Promise<boolean> {
  const response = await admin.cohorts.member(name, userId);
  expect(response.status).toBe(200);
  return response.body.data.member;
}

export const BELOW_5_2 = { all: [{ attribute: 'appVersion', op: 'semverLt', value: '5.2' }] };
