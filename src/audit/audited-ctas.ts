/**
 * What the audit asks of CTAs: whether one exists, for a history with no entries (a port: the ctas feature
 * answers it, bound in src/orchestration-ports.ts; docs/decisions/0027-one-way-features-and-ports.md).
 */
export abstract class AuditedCtas {
  /** Whether the tenant has a CTA of that id, a test CTA included. */
  abstract known(tenantId: string, id: number): Promise<boolean>;
}
