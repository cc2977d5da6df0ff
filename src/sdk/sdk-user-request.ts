import { RouteConfig } from '@nestjs/platform-fastify';

/**
 * Marks, in a route's Fastify config, the SDK routes whose body is an app user's snapshots
 * (launch and delta): they get the SDK body limit and the per-user gate of
 * `registerSdkRequestLimits`, which read the user from the headers before the body.
 */
export const SDK_USER_REQUEST = 'sdkUserRequest';

/**
 * What a body over the SDK limit gets: `refuse`, 413 PAYLOAD_TOO_LARGE (a delta: the device keeps it
 * and its next launch sends it again); `ignore`, the route answered as without a body (the launch: a
 * device sends its failed delta as the body of every launch, so refusing it would lock the device
 * out for good; docs/decisions/0006-user-state-merge.md).
 */
export type OversizedBody = 'refuse' | 'ignore';

export interface SdkUserRequestConfig {
  oversizedBody: OversizedBody;
}

export const SdkUserRequest = (oversizedBody: OversizedBody = 'refuse'): MethodDecorator =>
  RouteConfig({ [SDK_USER_REQUEST]: { oversizedBody } satisfies SdkUserRequestConfig });
