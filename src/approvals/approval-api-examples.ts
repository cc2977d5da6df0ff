import type { RouteErrors } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';

/**
 * What the approve example needs: a setting, not only an earlier example (with the defaults it is refused as
 * unneeded), and CTA 1 changed last by another key than the approver's.
 */
export const APPROVE_EXAMPLE_NEEDS = 'APPROVALS_REQUIRED=true, and CTA 1 changed last with another admin key';

/** The error answers of `POST /ctas/{id}/approve` (ApprovalsController). */
export const APPROVAL_ERRORS = {
  400: {
    description:
      'CTA_ID_INVALID: no such CTA; APPROVAL_INVALID: the calling key made the latest change of the CTA, the CTA is concluded, ' +
      'terminated or a test CTA, or approvals are not required (the message names who may approve, or why nobody may)',
    examples: [
      [ErrorCode.CTA_ID_INVALID, 'CTA 99 does not exist'],
      [
        ErrorCode.APPROVAL_INVALID,
        "'alice' made the latest change of CTA 1: a key of role publisher or admin other than 'alice' may approve it",
      ],
      [ErrorCode.APPROVAL_INVALID, 'CTA 1 is concluded; concluded and terminated CTAs cannot be approved'],
      [ErrorCode.APPROVAL_INVALID, 'CTA 1 is a test CTA: it reaches only its listed test users and needs no approval'],
      [
        ErrorCode.APPROVAL_INVALID,
        'approvals are not required here, so CTA 1 needs none (APPROVALS_REQUIRED=true, or the module option approvalsRequired, requires them)',
      ],
    ],
  },
} satisfies RouteErrors;
