import { APPROVABLE_STATUSES } from '../cta-lifecycle/cta-status-policy';
import type { CtaContentState, StoredApproval } from '../cta-lifecycle/content-approvals';

/**
 * Who may approve a CTA's content, and what going live asks (docs/decisions/0015-approvals.md).
 * Every refusal names who may approve, or why nobody may.
 */

/** The role of the approve route: a key that may take CTAs live may approve them. */
export const APPROVER_ROLE = 'publisher';

const anotherApprover = (author: string): string => `a key of role ${APPROVER_ROLE} or admin other than '${author}'`;

/** Approvals are off: said to a caller of the approve route. */
export const approvalsOff = (id: number): string =>
  `approvals are not required here, so CTA ${id} needs none (APPROVALS_REQUIRED=true, or the module option approvalsRequired, requires them)`;

/** The request's key has no name (a host's guard named none): it cannot be told apart from the author. */
export const UNNAMED_APPROVER =
  'approvals need a named key: the admin guard named none for this request (a host names it with setAuditActor)';

/** Why `approver` may not approve the CTA's current content; null when they may. */
export function approvalRefusal(cta: CtaContentState, approver: string): string | null {
  const { id, status, contentChangedBy: author } = cta;
  if (cta.isTest) {
    return `CTA ${id} is a test CTA: it reaches only its listed test users and needs no approval`;
  }
  if (!APPROVABLE_STATUSES.includes(status)) {
    return `CTA ${id} is ${status}; concluded and terminated CTAs cannot be approved`;
  }
  if (author === null) {
    return (
      `no key is named as the author of CTA ${id}'s latest change (made while the admin API named no keys): ` +
      'update it with a named key, then another key may approve it'
    );
  }
  if (author === approver) {
    return `'${approver}' made the latest change of CTA ${id}: ${anotherApprover(approver)} may approve it`;
  }
  return null;
}

/**
 * Why the CTA may not go live (or be scheduled): no approval of its current content. `stored` is
 * its approval of an earlier revision, if any, voided by a change since.
 */
export function unapprovedRefusal(cta: Pick<CtaContentState, 'id' | 'contentChangedBy'>, stored: StoredApproval | undefined): string {
  const { id, contentChangedBy: author } = cta;
  const needed =
    author === null
      ? `CTA ${id} needs an approval, and its latest change names no key: update it with a named key, then have another key approve it`
      : `CTA ${id} needs an approval by a key other than '${author}', who last changed it`;
  return stored === undefined ? needed : `${needed}; the approval by '${stored.by}' was of an earlier version`;
}
