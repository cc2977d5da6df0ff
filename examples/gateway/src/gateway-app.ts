import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { ORCHESTRATION_FASTIFY_OPTIONS, registerMemberUploads } from 'cta-orchestration-service';
import { GatewayConfig } from './gateway-config';
import { GatewayModule } from './gateway.module';

/** Everything around the modules, shared by main.ts and the gateway's e2e test. */
export const GATEWAY_GLOBAL_PREFIX = 'api';

export const createGatewayAdapter = (): FastifyAdapter => new FastifyAdapter({ ...ORCHESTRATION_FASTIFY_OPTIONS, logger: false });

export function configureGateway(app: NestFastifyApplication): void {
  app.setGlobalPrefix(GATEWAY_GLOBAL_PREFIX);
  // Cohort member uploads as CSV streams (before the routes are registered at init).
  registerMemberUploads(app.getHttpAdapter().getInstance());
  app.enableShutdownHooks();
}

export async function createGatewayApp(config: GatewayConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config), createGatewayAdapter());
  configureGateway(app);
  return app;
}
