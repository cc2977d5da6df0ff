import type { CtaRecord } from '../types';

/** The approval state of a CTA while approvals are required (absent otherwise). */
export function approvalText(cta: CtaRecord): string {
  if (cta.approval === undefined) return 'not required';
  return cta.approval === null ? 'needs approval' : 'approved';
}
