import type { DataSourceOptions } from 'typeorm';
import { ORCHESTRATION_MYSQL_OPTIONS } from 'cta-orchestration-service';

/** The gateway's TypeORM connection; the orchestration module lives on it too. */
export const GATEWAY_CONNECTION = 'gateway';

export interface GatewayConfig {
  /** `sqlite:<file>`, `sqlite::memory:` or `mysql://user:pass@host:3306/db`. */
  databaseUrl: string;
  /** What the gateway's admin guard expects in `x-gateway-admin-key`. */
  adminKey: string;
}

export function gatewayConfigFromEnv(env: NodeJS.ProcessEnv): GatewayConfig {
  const adminKey = env.GATEWAY_ADMIN_KEY;
  if (!adminKey) {
    throw new Error('GATEWAY_ADMIN_KEY is required');
  }
  return { databaseUrl: env.GATEWAY_DB_URL ?? 'sqlite:./gateway.sqlite', adminKey };
}

/** The database part of the gateway's connection (its name, entities and migrations are added by GatewayModule). */
export function gatewayDatabase(databaseUrl: string): DataSourceOptions {
  if (databaseUrl.startsWith('sqlite:')) {
    return { type: 'better-sqlite3', database: databaseUrl.slice('sqlite:'.length) };
  }
  return { type: 'mysql', url: databaseUrl, ...ORCHESTRATION_MYSQL_OPTIONS };
}
