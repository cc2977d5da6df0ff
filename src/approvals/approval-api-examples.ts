import type { OpenAPIObject } from '@nestjs/swagger';
import type { RouteErrors } from '../common/api-error-responses';
import { exampleNeedsText } from '../api-docs/endpoint';
import { EXAMPLE_NEEDS } from '../api-docs/flow-examples';
import { ErrorCode } from '../common/error-code';

/**
 * What the approve example needs: a setting, not only an earlier example (with the defaults it is refused as
 * unneeded), and CTA 1 changed last by another key than the approver's.
 */
export const APPROVE_EXAMPLE_NEEDS = 'APPROVALS_REQUIRED=true, and CTA 1 changed last with another admin key';

/**
 * The console's document when approvals are required: the status change says that live and schedule need an
 * approval first, and what its example needs then (the approve route already stands before it).
 */
export function withApprovalsFirst(document: OpenAPIObject, adminPrefix: string): OpenAPIObject {
  const statusChange = document.paths[`/${adminPrefix}/ctas/{ctaId}/{action}`]?.put;
  if (statusChange !== undefined) {
    statusChange.summary = statusChange.summary?.replace(
      exampleNeedsText(EXAMPLE_NEEDS.editableCta),
      exampleNeedsText(`${EXAMPLE_NEEDS.editableCta}, then Approve it with another admin key`),
    );
    statusChange.description =
      `Approvals are required here: live and schedule need an approval of the CTA's current content by a key other than ` +
      `the one that last changed it — POST /${adminPrefix}/ctas/{ctaId}/approve (above) first. ${statusChange.description ?? ''}`;
  }
  return document;
}

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
