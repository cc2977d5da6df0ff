import { randomBytes } from 'node:crypto';
import { Test } from '@nestjs/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createConnection } from 'mysql2/promise';
import { AppModule } from '../src/app.module';
import { Clock } from '../src/common/clock';
import { loadAppConfig } from '../src/config/app-config';
import { createFastifyAdapter, NEST_APPLICATION_OPTIONS } from '../src/http/fastify-adapter';
import { configureHttpApp } from '../src/http-app';
import { TestClock } from './test-clock';

export type TestDatabase = 'sqlite' | 'mysql';

/** SQLite always; MySQL/MariaDB when global-setup found it reachable. */
export const TEST_DATABASES: TestDatabase[] = process.env.TEST_MYSQL_URL_REACHABLE ? ['sqlite', 'mysql'] : ['sqlite'];

/** `describe` once per test database: `eachDatabase('CTAs', (database) => { … })`. */
export const eachDatabase = (title: string, suite: (database: TestDatabase) => void): void =>
  describe.each(TEST_DATABASES)(`${title} [%s]`, suite);

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** A value to send as JSON, or a string sent as it is (malformed bodies). */
  body?: unknown;
}

/**
 * A fresh database for one suite: in-memory SQLite, or a new MySQL schema dropped at the end
 * (on `server`, a `mysql://` URL, default the reachable TEST_MYSQL_URL).
 */
export async function createDatabase(
  database: TestDatabase,
  server = process.env.TEST_MYSQL_URL_REACHABLE as string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (database === 'sqlite') {
    return { url: 'sqlite::memory:', drop: async () => undefined };
  }
  const serverUrl = new URL(server);
  const name = `cta_test_${randomBytes(6).toString('hex')}`;
  const admin = await createConnection({ uri: serverUrl.toString() });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  serverUrl.pathname = `/${name}`;
  return {
    url: serverUrl.toString(),
    drop: async () => {
      const connection = await createConnection({ uri: server });
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    },
  };
}

/**
 * The real standalone app on a real, fresh database, driven over HTTP through
 * Fastify's injector. Only the clock is replaced, by one tests can move.
 * (`new TestApp(…)` drives another app the same way, e.g. the example gateway.)
 */
export class TestApp {
  constructor(
    readonly app: NestFastifyApplication,
    readonly clock: TestClock,
    readonly database: TestDatabase,
    private readonly dropDatabase: () => Promise<void>,
    /** The URL of the database the app works on (before `route`). */
    readonly databaseUrl = '',
  ) {}

  /** `route` gives the URL the app connects through, e.g. a `TcpProxy` in front of the test database. */
  static async start(
    database: TestDatabase,
    env: Record<string, string> = {},
    route: (databaseUrl: string) => string = (databaseUrl) => databaseUrl,
  ): Promise<TestApp> {
    const { url, drop } = await createDatabase(database);
    return TestApp.open(database, url, drop, env, route);
  }

  /**
   * Another instance of the service on an existing database (`databaseUrl` of a
   * running TestApp, or the same database through another server of a cluster), as
   * a second instance behind a load balancer would be. Closing it leaves the database.
   */
  static join(database: TestDatabase, databaseUrl: string, env: Record<string, string> = {}): Promise<TestApp> {
    return TestApp.open(database, databaseUrl, async () => undefined, env);
  }

  private static async open(
    database: TestDatabase,
    url: string,
    drop: () => Promise<void>,
    env: Record<string, string>,
    route: (databaseUrl: string) => string = (databaseUrl) => databaseUrl,
  ): Promise<TestApp> {
    const config = loadAppConfig({ LOG_LEVEL: 'silent', SCHEDULER_INTERVAL_MS: '0', ...env, DB_URL: route(url) });
    const clock = new TestClock();
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] })
      .overrideProvider(Clock)
      .useValue(clock)
      .compile();
    const app = moduleRef.createNestApplication<NestFastifyApplication>(createFastifyAdapter(config), NEST_APPLICATION_OPTIONS);
    await configureHttpApp(app, config);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    return new TestApp(app, clock, database, drop, url);
  }

  async request<T = any>(method: string, url: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    const { body } = options;
    const headers: Record<string, string> = { ...options.headers };
    if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const response = await this.app.inject({
      method: method as 'GET',
      url,
      headers,
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    let parsed: unknown = response.body;
    try {
      parsed = response.body === '' ? undefined : JSON.parse(response.body);
    } catch {
      // Not JSON (e.g. the Swagger UI page): tests see the text.
    }
    return { status: response.statusCode, body: parsed as T, headers: response.headers };
  }

  get<T = any>(url: string, headers?: Record<string, string>): Promise<TestResponse<T>> {
    return this.request<T>('GET', url, { headers });
  }

  post<T = any>(url: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse<T>> {
    return this.request<T>('POST', url, { body, headers });
  }

  put<T = any>(url: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse<T>> {
    return this.request<T>('PUT', url, { body, headers });
  }

  delete<T = any>(url: string, headers?: Record<string, string>): Promise<TestResponse<T>> {
    return this.request<T>('DELETE', url, { headers });
  }

  /** A provider of the running app, e.g. to run the periodic jobs now. */
  service<T>(token: abstract new (...args: any[]) => T): T {
    return this.app.get(token, { strict: false });
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.dropDatabase();
  }
}

/** The error envelope a test expects: `expect(res.body).toEqual(errorBody('CTA_ID_INVALID'))`. */
export const errorBody = (code: string, message: unknown = expect.any(String)) => ({ error: { code, message } });
