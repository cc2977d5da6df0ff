/** CTA statuses (docs/decisions/0002-status-lifecycle-and-live-edits.md); a new CTA starts in `draft`. */
export const CTA_STATUSES = ['draft', 'paused', 'live', 'scheduled', 'concluded', 'terminated'] as const;
export type CtaStatus = (typeof CTA_STATUSES)[number];
