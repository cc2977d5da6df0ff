import { SERVICE_UNAVAILABLE_EXAMPLE, type RouteErrors } from '../common/api-error-responses';

export const LIVE_EXAMPLE = { status: 'ok' };
export const READY_EXAMPLE = { status: 'ok', info: { database: { status: 'up' } }, error: {}, details: { database: { status: 'up' } } };

/** The readiness probe's own 503 (not Terminus's shape: the error envelope). */
export const READY_ERRORS = {
  503: { description: 'SERVICE_UNAVAILABLE: the database does not answer', examples: [SERVICE_UNAVAILABLE_EXAMPLE] },
} satisfies RouteErrors;
