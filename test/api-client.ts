import type { ErrorEnvelope } from '../src/common/envelope';
import type { TestApp, TestResponse } from './harness';

/**
 * A route's answer: its envelope (`E`) when it succeeded, the error envelope when it did not. Both are
 * typed as present: the test checks which one it got (`status`, `toEqual(errorBody(…))`) and reads that one.
 */
export type Answer<E> = Promise<TestResponse<E & ErrorEnvelope>>;

/** Header values by name; an `undefined` value leaves out a header the client would send by default. */
export type Headers<Name extends string> = Partial<Record<Name, string | undefined>>;

/** Query parameters: typed ones (a query DTO), or the query text as it is (`?a=1&a=2`, for refusals). */
export type Query<Dto extends object> = Dto | string;

/** `{ a: '1', b: undefined }` → `?a=1`; query text is sent as it is. */
export function queryText(query: Query<object>): string {
  if (typeof query === 'string') {
    return query;
  }
  const defined = Object.entries(query).filter(([, value]) => value !== undefined) as [string, unknown][];
  return defined.length === 0 ? '' : `?${new URLSearchParams(defined.map(([name, value]): [string, string] => [name, String(value)]))}`;
}

/** A path segment as a client encodes it: names may hold `/`, spaces or emoji. */
export const segment = (value: string | number): string => encodeURIComponent(String(value));

/**
 * What the admin and SDK clients share: requests under one prefix with default headers, which each
 * request may extend or override. `raw` is the escape hatch for malformed requests (any method,
 * path, body text or header), still under the prefix and with the defaults unless overridden.
 */
export abstract class ApiClient<Name extends string> {
  protected constructor(
    readonly api: TestApp,
    /** e.g. `/engine` (the admin prefix) or `/cta` (the SDK prefix). */
    readonly prefix: string,
  ) {}

  /** The headers every request of this client carries unless told otherwise. */
  abstract headers(): Record<string, string>;

  /** Any request under the prefix: the body is JSON, or a string sent as it is. */
  raw<T = any>(method: string, path: string, options: { body?: unknown; headers?: Headers<string> } = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...this.headers() };
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value === undefined) {
        delete headers[name];
      } else {
        headers[name] = value;
      }
    }
    return this.api.request<T>(method, `${this.prefix}${path}`, { body: options.body, headers });
  }

  protected send<E>(method: string, path: string, body?: unknown, headers?: Headers<Name>): Answer<E> {
    return this.raw(method, path, { body, headers });
  }
}
