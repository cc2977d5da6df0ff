import { RouteConfig } from '@nestjs/platform-fastify';

/**
 * Marks, in a route's Fastify config, the SDK routes whose body is an app user's snapshots
 * (launch and delta): they get the SDK body limit and the per-user gate of
 * `registerSdkRequestLimits`, which read the user from the headers before the body.
 */
export const SDK_USER_REQUEST = 'sdkUserRequest';

export const SdkUserRequest = (): MethodDecorator => RouteConfig({ [SDK_USER_REQUEST]: true });
