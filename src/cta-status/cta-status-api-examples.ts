import type { RouteErrors } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';
import { STATUS_ACTIONS } from '../cta-lifecycle/cta-transitions';

/** The path parameter naming the status change. */
export const STATUS_ACTION_PARAM = {
  name: 'action',
  schema: { type: 'string' as const, enum: [...STATUS_ACTIONS], example: 'live' },
  description: 'live takes the CTA to devices; the others as above',
};

/** The error answers of the status change (CtaStatusController). */
export const CTA_STATUS_ERRORS = {
  400: {
    description:
      'CTA_STATUS_INVALID: the action is not live, pause, schedule, conclude or terminate; CTA_ID_INVALID: no such CTA (or a test CTA); ' +
      'CTA_STATUS_UPDATE_INVALID: the change is not allowed from the current status ("cannot move CTA 1 from concluded to live"; ' +
      '"CTA 1 is already live; nothing to change" for the status it has), schedule without a startTime that is not in the past, or, with approvals ' +
      "required, live or schedule without another key's approval of the current content",
    examples: [
      [ErrorCode.CTA_STATUS_INVALID, "unknown status action 'start'; use one of live, pause, schedule, conclude, terminate"],
      [ErrorCode.CTA_ID_INVALID, 'CTA 99 does not exist'],
      [ErrorCode.CTA_STATUS_UPDATE_INVALID, 'cannot move CTA 1 from concluded to live'],
      [ErrorCode.CTA_STATUS_UPDATE_INVALID, 'CTA 1 is already live; nothing to change'],
      [ErrorCode.CTA_STATUS_UPDATE_INVALID, "CTA 1 needs an approval by a key other than 'alice', who last changed it"],
      [
        ErrorCode.CTA_STATUS_UPDATE_INVALID,
        'cannot schedule CTA 1: its startTime 2026-11-25T10:00:00.000Z (1795600800000) is in the past (now 2026-11-25T11:00:00.000Z (1795604400000))',
      ],
    ],
  },
} satisfies RouteErrors;
