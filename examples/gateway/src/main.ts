import { createGatewayApp } from './gateway-app';
import { gatewayConfigFromEnv } from './gateway-config';

async function bootstrap(): Promise<void> {
  const app = await createGatewayApp(gatewayConfigFromEnv(process.env));
  await app.listen({ port: Number(process.env.PORT ?? 3000), host: '0.0.0.0' });
}

void bootstrap();
