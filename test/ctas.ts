/** Shared by the CTA suites (ctas-*.e2e-spec.ts): the time units of their windows. */
export const MINUTE = 60 * 1000;
export const DAY = 24 * 60 * MINUTE;
