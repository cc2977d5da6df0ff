import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { isApiDocsRoute, serveApiDocs } from './api-docs/api-document';
import { withApprovalsFirst } from './approvals/approval-api-examples';
import { registerMemberUploads } from './cohorts/member-uploads';
import { ErrorEnvelopeFilter } from './http/exception.filter';
import type { AppConfig } from './config/app-config';
import { createFastifyAdapter, NEST_APPLICATION_OPTIONS } from './http/fastify-adapter';
import { registerJsonBodyParser } from './http/json-body-parser';
import { registerLargeBodyLane } from './http/large-body-lane';
import { registerRequestHooks } from './http/request-hooks';
import { registerCompression } from './http/response-compression';
import { registerResponseValidators } from './http/response-validators';
import { registerSdkRequestLimits } from './http/sdk-request-limits';
import { underPrefix } from './common/path-prefix';
import { MetricsService } from './metrics/metrics.service';

export const OPEN_ADMIN_API_WARNING = 'ADMIN_API_KEYS is not set: the admin API is open to anyone who can reach it';

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
  await registerRequestHooks(app, config);
  const fastify = app.getHttpAdapter().getInstance();
  // JSON is the only body type besides member uploads (anything else → 415).
  fastify.removeAllContentTypeParsers();
  registerJsonBodyParser(fastify);
  registerMemberUploads(fastify, config.cohortUploadLimitBytes);
  const metrics = app.get(MetricsService);
  registerSdkRequestLimits(fastify, config.sdkBodyLimitBytes, metrics);
  registerLargeBodyLane(fastify, config.largeBodyLane, metrics);
  // Validators first: their tag is of the uncompressed answer, and a 304 has nothing to compress.
  registerResponseValidators(fastify, isApiDocsRoute);
  await registerCompression(app, { uncompressed: underPrefix(config.sdkPrefix), inOnePiece: isApiDocsRoute });
  app.useGlobalFilters(new ErrorEnvelopeFilter());
  app.enableShutdownHooks();
  serveApiDocs(app, config, (document) => (config.approvalsRequired ? withApprovalsFirst(document, config.adminPrefix) : document));
}
