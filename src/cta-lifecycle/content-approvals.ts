import type { CtaStatus } from './cta-statuses';

// What an approval is of (docs/decisions/0015-approvals.md): one content revision of a CTA. The ctas feature
// shows it on its records; the approvals feature writes it; neither reads the other's tables for it.

/** An approval as the admin API shows it: the key that approved the CTA's current content, and when. */
export interface CtaApproval {
  by: string;
  at: number;
}

/** An approval as stored: of one content revision. */
export interface StoredApproval extends CtaApproval {
  contentRevision: number;
}

/** What an approval looks at of a CTA: its status, whether it is a test CTA, its content revision and who made it. */
export interface CtaContentState {
  id: number;
  status: CtaStatus;
  isTest: boolean;
  contentRevision: number;
  contentChangedBy: string | null;
}

/** The approval of the CTA's current content: a stored one of an earlier revision was voided by the change since. */
export const approvalOfContent = (stored: StoredApproval | undefined, contentRevision: number): CtaApproval | null =>
  stored !== undefined && stored.contentRevision === contentRevision ? { by: stored.by, at: stored.at } : null;
