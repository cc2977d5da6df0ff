import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import fastifyCors from '@fastify/cors';
import { Logger } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import { APP_LOGGER, logAccess } from './common/app-logger';
import { AppModule } from './app.module';
import { withCsvMemberBodies } from './cohorts/cohorts.controller';
import { registerMemberUploads } from './cohorts/member-uploads';
import { errorEnvelope } from './common/envelope';
import { ErrorCode, HTTP_STATUS_OF } from './common/error-code';
import { withBodyErrorResponses } from './common/api-error-responses';
import { invalidRequest } from './common/domain-error';
import { ErrorEnvelopeFilter } from './common/exception.filter';
import { MAX_PATH_PARAMETER_LENGTH, ORCHESTRATION_FASTIFY_OPTIONS } from './common/fastify-options';
import { underPrefix } from './common/mount-controllers';
import { API_TAGS, apiDescription, keySchemes } from './common/api-docs';
import { MetricsService } from './metrics/metrics.service';
import { registerRateLimits } from './security/rate-limits';
import { withAppUserTokenSecurity } from './security/app-user-token.guard';
import type { AppConfig } from './config/app-config';

/** Options for creating the Nest application: our JSON parser replaces Nest's (below). */
export const NEST_APPLICATION_OPTIONS = { bodyParser: false, bufferLogs: true } as const;

/**
 * Helmet's defaults, widened just enough for the Swagger UI page at /docs (inline scripts and
 * styles), without `upgrade-insecure-requests`: over plain HTTP from any address but loopback
 * it would send the page's scripts and styles to https, where nothing answers (DESIGN §22).
 */
const SWAGGER_UI_CSP = {
  directives: {
    upgradeInsecureRequests: null,
    defaultSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    scriptSrc: ["'self'", "'unsafe-inline'"],
  },
};

/**
 * Helmet's headers are the same on every response, so they are computed once at
 * start. (@fastify/helmet runs helmet's whole setup again on every request,
 * which cost the SDK launch about half of its throughput.)
 */
function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  // No Cross-Origin-Opener-Policy: browsers ignore it on plain HTTP from any address but loopback and
  // log an error on every page of the console there; the service's other answers are JSON, not pages.
  helmet({ contentSecurityPolicy: SWAGGER_UI_CSP, crossOriginOpenerPolicy: false })(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    () => undefined,
  );
  return headers;
}

const SECURITY_HEADERS = securityHeaders();

/** The headers every response carries: helmet's and the request id. */
function withResponseHeaders(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.headers(SECURITY_HEADERS).header('x-request-id', request.id);
}

/** What the admin panel calls cross-origin (the plugin's default is GET, HEAD and POST only). */
const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export const OPEN_ADMIN_API_WARNING = 'ADMIN_API_KEYS is not set: the admin API is open to anyone who can reach it';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** A caller's `x-request-id` is kept when sane, so logs join across services; else a new UUID. */
function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
}

const FRAMEWORK_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  FST_ERR_BAD_URL: 'the URL has a malformed percent-encoding',
  FST_ERR_MAX_PARAM_LENGTH: `a path parameter is longer than ${MAX_PATH_PARAMETER_LENGTH} characters`,
};

/** URLs the router refuses before any route, hook or Nest filter runs still answer with the error envelope (DESIGN §4). */
function onFrameworkError(error: { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
  const message = FRAMEWORK_ERROR_MESSAGES[error.code ?? ''] ?? 'malformed request URL';
  void withResponseHeaders(request, reply)
    .code(HTTP_STATUS_OF[ErrorCode.INVALID_REQUEST])
    .send(errorEnvelope(ErrorCode.INVALID_REQUEST, message));
}

export function createFastifyAdapter(config: AppConfig): FastifyAdapter {
  return new FastifyAdapter({
    ...ORCHESTRATION_FASTIFY_OPTIONS,
    bodyLimit: config.bodyLimitBytes,
    genReqId: requestIdOf,
    frameworkErrors: onFrameworkError,
    // While draining, a request that arrives on a connection still open is served (the pool
    // closes only after the server), not answered with Fastify's own 503 body, which is not
    // the error envelope. SHUTDOWN_TIMEOUT_MS bounds the drain (main.ts).
    return503OnClosing: false,
    // No Nest middleware is used; middie's request hook would still run on every request.
    skipMiddie: true,
  });
}

/** Builds and initialises the standalone HTTP application (what `main.ts` serves). */
export async function createHttpApp(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config),
    createFastifyAdapter(config),
    NEST_APPLICATION_OPTIONS,
  );
  await configureHttpApp(app, config);
  await app.init();
  return app;
}

/**
 * Everything the standalone app sets up around the modules; the e2e tests
 * apply it too, so what is tested is what runs.
 */
export async function configureHttpApp(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  app.useLogger(app.get(Logger));
  if (config.adminApiKeys.length === 0) {
    app.get(Logger).warn(OPEN_ADMIN_API_WARNING);
  }
  const fastify = app.getHttpAdapter().getInstance();
  // The first request hook of ours, so that the answers of the ones after it (CORS preflights,
  // 429s) carry the headers too; a request hook rather than onSend, whose hook runner would
  // cost every SDK call more than the headers themselves.
  fastify.addHook('onRequest', (request, reply, done) => {
    withResponseHeaders(request, reply);
    done();
  });
  await registerRateLimits(app, config);
  // Registered on Fastify directly: Nest's enableCors() copies the CORS headers onto the raw
  // response on every request, for the sake of Nest middleware, which this app has none of.
  await app.register(fastifyCors, {
    origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
    methods: CORS_METHODS,
  });
  useJsonBodiesOnly(app);
  registerMemberUploads(fastify, config.cohortUploadLimitBytes);
  const metrics = app.get(MetricsService);
  const logger = app.get<PinoLogger>(APP_LOGGER);
  const isSdkRoute = underPrefix(config.sdkPrefix);
  fastify.addHook('onResponse', (request, reply, done) => {
    // Label by route pattern (not the raw URL) so the series stay few.
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    // App launches and deltas are most of the traffic: no access line (their failures are logged by the filter).
    if (!isSdkRoute(route)) {
      logAccess(logger, request, reply);
    }
    done();
  });
  app.useGlobalFilters(new ErrorEnvelopeFilter());
  app.enableShutdownHooks();
  setUpApiDocs(app, config);
}

/**
 * JSON is the only body type (anything else → 415). An empty body reads as
 * no body, so `PUT …/live` with `Content-Type: application/json` and nothing
 * else is accepted like one without a body.
 */
function useJsonBodiesOnly(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeAllContentTypeParsers();
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).length === 0) {
      done(null, undefined);
    } else if (nestingExceeds(body as string, MAX_JSON_DEPTH)) {
      done(invalidRequest(`the JSON body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`), undefined);
    } else {
      void parseJson(request, body as string, done);
    }
  });
}

/**
 * How deep a body's arrays and objects may nest. Real bodies nest about ten
 * levels; thousands would overflow the stack of the recursive code that reads
 * or writes them (validation, JSON.stringify), a 500 for a client's mistake.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether JSON text nests deeper than `max`, in one pass (brackets inside strings do not count). */
function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === QUOTE) {
      i = endOfString(text, i);
    } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote closing the string opened at `start` (skipped with indexOf: strings are most of a body). */
function endOfString(text: string, start: number): number {
  for (let i = start; ;) {
    i = text.indexOf('"', i + 1);
    if (i === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(i - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return i;
  }
}

/** The OpenAPI document of the running app: served at /docs-json, written to openapi.json by `npm run openapi`. */
export function buildApiDocument(app: NestFastifyApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('CTA orchestration service: admin console')
    .setDescription(apiDescription(config))
    .setVersion('1.0')
    // Relative to wherever the service is reached.
    .addServer('/')
    // Operations without their own requirement (health, readiness, metrics) need no key.
    .addSecurityRequirements({});
  for (const [name, scheme] of keySchemes(config)) {
    builder.addSecurity(name, scheme);
  }
  for (const tag of API_TAGS) {
    builder.addTag(tag.name, tag.description);
  }
  const document = withCsvMemberBodies(
    withAppUserTokenSecurity(withBodyErrorResponses(SwaggerModule.createDocument(app, builder.build()))),
  );
  // Only the tags with routes (a host may mount fewer features), still in working order.
  const used = new Set(Object.values(document.paths).flatMap((operations) => Object.values(operations).flatMap(tagsOf)));
  document.tags = document.tags?.filter((tag) => used.has(tag.name));
  return document;
}

const tagsOf = (operation: unknown): string[] =>
  operation && typeof operation === 'object' && 'tags' in operation && Array.isArray(operation.tags) ? operation.tags : [];

function setUpApiDocs(app: NestFastifyApplication, config: AppConfig): void {
  SwaggerModule.setup('docs', app, buildApiDocument(app, config), {
    jsonDocumentUrl: 'docs-json',
    customSiteTitle: 'CTA orchestration service: admin console',
    // Keys entered in Authorize survive a reload of the page (kept in the browser's local storage).
    swaggerOptions: { persistAuthorization: true, displayRequestDuration: true },
  });
}
