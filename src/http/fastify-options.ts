/**
 * Fastify options the module's routes rely on, for the standalone app and any host:
 * the contract's paths end in `/` (`/engine/ctas/`) and clients call them with and
 * without it; path parameters are names and ids of up to 255 characters,
 * percent-encoded up to 12 characters each, past Fastify's default limit of 100.
 */
export const MAX_PATH_PARAMETER_LENGTH = 4096;

export const ORCHESTRATION_FASTIFY_OPTIONS = {
  routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAMETER_LENGTH },
} as const;
