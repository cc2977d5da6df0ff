import { createHttpApp } from './http-app';
import { AppConfig, InvalidConfigError, loadAppConfig } from './config/app-config';

function configOrExit(): AppConfig {
  try {
    return loadAppConfig(process.env);
  } catch (error) {
    if (error instanceof InvalidConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function bootstrap(): Promise<void> {
  const config = configOrExit();
  const app = await createHttpApp(config);
  // Nest's shutdown hooks drain in-flight requests and close the pool on SIGTERM/SIGINT;
  // this bounds how long a stuck request can hold the process.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => setTimeout(() => process.exit(1), config.shutdownTimeoutMs).unref());
  }
  await app.listen({ port: config.port, host: config.host });
}

void bootstrap();
