import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  ORCHESTRATION_FASTIFY_OPTIONS,
  registerJsonBodyParser,
  registerLargeBodyLane,
  registerMemberUploads,
  registerSdkRequestLimits,
} from 'cta-orchestration-service';
import { GatewayConfig } from './gateway-config';
import { GatewayModule } from './gateway.module';

/** Everything around the modules, shared by main.ts and the gateway's e2e test. */
export const GATEWAY_GLOBAL_PREFIX = 'api';

export const createGatewayAdapter = (): FastifyAdapter => new FastifyAdapter({ ...ORCHESTRATION_FASTIFY_OPTIONS, logger: false });

/** The module's JSON parser stands in for Nest's (registerJsonBodyParser in configureGateway). */
export const GATEWAY_APPLICATION_OPTIONS = { bodyParser: false } as const;

export function configureGateway(app: NestFastifyApplication): void {
  app.setGlobalPrefix(GATEWAY_GLOBAL_PREFIX);
  const fastify = app.getHttpAdapter().getInstance();
  // The module's JSON bodies (its nesting limit), cohort member uploads as CSV streams, the SDK routes' body limit and
  // per-user turns, and the large-body lane, before the routes are registered at init.
  registerJsonBodyParser(fastify);
  registerMemberUploads(fastify);
  registerSdkRequestLimits(fastify);
  registerLargeBodyLane(fastify);
  app.enableShutdownHooks();
}

export async function createGatewayApp(config: GatewayConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.forRoot(config),
    createGatewayAdapter(),
    GATEWAY_APPLICATION_OPTIONS,
  );
  configureGateway(app);
  return app;
}
