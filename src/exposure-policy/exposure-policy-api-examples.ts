import type { RouteErrors } from '../common/api-error-responses';
import { BAD_TENANT_EXAMPLE } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';
import type { ExposurePolicy } from './exposure-policy';

/** Swagger examples of `/exposure-policy`: at most 2 nudges a calendar day in India; a rolling 24 hours; off. */
export const CALENDAR_DAY_POLICY: ExposurePolicy = { maxActions: 2, window: { calendarDay: 'Asia/Kolkata' } };
export const ROLLING_POLICY: ExposurePolicy = { maxActions: 3, window: { value: 24, unit: 'hours' } };
export const NO_POLICY: ExposurePolicy = { maxActions: null, window: null };

export const EXPOSURE_POLICY_BODY_EXAMPLES = {
  calendarDay: { summary: 'at most 2 actions a calendar day in Asia/Kolkata', value: CALENDAR_DAY_POLICY },
  rolling: { summary: 'at most 3 actions in any 24 hours', value: ROLLING_POLICY },
  off: { summary: 'no cap (the default)', value: NO_POLICY },
};

export const EXPOSURE_POLICY_ERRORS = {
  read: { 400: { description: 'INVALID_REQUEST: a malformed x-tenant-id', examples: [BAD_TENANT_EXAMPLE] } },
  replace: {
    400: {
      description:
        'INVALID_REQUEST: a body naming each bad field (maxActions, window, window.unit, window.value, window.calendarDay), or a malformed x-tenant-id',
      examples: [
        [ErrorCode.INVALID_REQUEST, 'window.calendarDay must be an IANA time zone such as "Asia/Kolkata", not "Mars/Olympus"'],
        [
          ErrorCode.INVALID_REQUEST,
          'maxActions must be an integer from 1 to 1000, or null (no cap), not 0; window.unit must be one of minutes, hours, days, not "weeks"',
        ],
        BAD_TENANT_EXAMPLE,
      ],
    },
  },
} satisfies Record<string, RouteErrors>;
