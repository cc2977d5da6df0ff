import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { invalidRequest } from './domain-error';
import { canonicalUserId, isDecimalInteger } from './user-id';

/**
 * The header rules of docs/decisions/0001-wire-rules-and-errors.md. Controllers read headers only through the
 * param decorators below; the parsing functions are exported for the SDK hot
 * path and for unit tests.
 */

export const DEFAULT_TENANT_ID = 'default';
const TENANT_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const MAX_OPERATOR_USER_LENGTH = 255;

export interface SdkClientInfo {
  /** `null` when absent or unparsable; the SDK endpoints answer the empty result below 1. */
  apiVersion: number | null;
  appVersion: string | null;
  packageName: string | null;
  hotpatchVersion: string | null;
}

type Headers = FastifyRequest['headers'];

/** A header's single value; a repeated header counts as malformed and reads as its first value. */
function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function parseTenantId(headers: Headers): string {
  const value = headerValue(headers, 'x-tenant-id');
  if (value === undefined || value === '') {
    return DEFAULT_TENANT_ID;
  }
  if (!TENANT_ID_PATTERN.test(value)) {
    throw invalidRequest("header 'x-tenant-id' must be 1-64 characters of A-Z, a-z, 0-9, '.', '_' or '-'");
  }
  return value;
}

/**
 * The operator of a write: the `user` header, trimmed; when the header is absent, `fallback` (the
 * admin key's name, else the configured default user) — newer builds of the real admin panel send
 * none. A blank header is refused even then: it names no one.
 */
export function parseOperatorUser(headers: Headers, fallback: string | null = null): string {
  const sent = headerValue(headers, 'user');
  const value = sent === undefined ? fallback : sent.trim();
  if (value === null) {
    throw invalidRequest("header 'user' is required");
  }
  if (value === '') {
    throw invalidRequest("header 'user' must not be blank");
  }
  if (value.length > MAX_OPERATOR_USER_LENGTH) {
    throw invalidRequest(`header 'user' must be at most ${MAX_OPERATOR_USER_LENGTH} characters`);
  }
  return value;
}

/** The `user` header where it is optional (status routes): absent or blank is null, otherwise as where it is required. */
export function parseOptionalOperatorUser(headers: Headers): string | null {
  return headerValue(headers, 'user')?.trim() ? parseOperatorUser(headers) : null;
}

/** `auth-userid`: a signed 64-bit decimal integer, kept as its canonical decimal string. */
export function parseSdkUserId(headers: Headers): string {
  const value = headerValue(headers, 'auth-userid')?.trim();
  if (!value) {
    throw invalidRequest("header 'auth-userid' is required");
  }
  if (!isDecimalInteger(value)) {
    throw invalidRequest("header 'auth-userid' must be a decimal integer");
  }
  const userId = canonicalUserId(value);
  if (userId === null) {
    throw invalidRequest("header 'auth-userid' does not fit a signed 64-bit integer");
  }
  return userId;
}

/**
 * The (tenant, app user) an SDK request names, or null when either header is malformed or the
 * user absent (the route then answers 400): for what is keyed by user before the route runs
 * (rate limits, the per-user gate). `042` and `42` are one user.
 */
export function sdkUserOf(headers: Headers): { tenantId: string; userId: string } | null {
  try {
    return { tenantId: parseTenantId(headers), userId: parseSdkUserId(headers) };
  } catch {
    return null;
  }
}

/** `x-source` of event writes (docs/behaviour.md#event-definitions): the system that sent them, stored with the event. */
export const DEFAULT_EVENT_SOURCE = 'admin-api';
const MAX_EVENT_SOURCE_LENGTH = 255;

export function parseEventSource(headers: Headers): string {
  const value = headerValue(headers, 'x-source')?.trim();
  if (!value) {
    return DEFAULT_EVENT_SOURCE;
  }
  if (value.length > MAX_EVENT_SOURCE_LENGTH) {
    throw invalidRequest(`header 'x-source' must be at most ${MAX_EVENT_SOURCE_LENGTH} characters`);
  }
  return value;
}

/**
 * Clients send these with underscores (docs/decisions/0012-compatibility-with-existing-clients.md); hyphenated spellings
 * are accepted too.
 */
function clientHeader(headers: Headers, ...names: string[]): string | null {
  for (const name of names) {
    const value = headerValue(headers, name) ?? headerValue(headers, name.replace(/_/g, '-'));
    if (value !== undefined && value !== '') {
      return value;
    }
  }
  return null;
}

export function parseSdkClientInfo(headers: Headers): SdkClientInfo {
  const rawApiVersion = clientHeader(headers, 'api_version')?.trim();
  const apiVersion = rawApiVersion && /^-?\d{1,15}$/.test(rawApiVersion) ? Number(rawApiVersion) : null;
  return {
    apiVersion,
    appVersion: clientHeader(headers, 'app_version'),
    packageName: clientHeader(headers, 'package_name'),
    hotpatchVersion: clientHeader(headers, 'hotpatch_version', 'codepush_version'),
  };
}

const headersOf = (context: ExecutionContext): Headers => context.switchToHttp().getRequest<FastifyRequest>().headers;

/** Tenant from `x-tenant-id` (default `default`). */
export const TenantId = createParamDecorator((_: unknown, context: ExecutionContext) => parseTenantId(headersOf(context)));

/** The app user named by the required `auth-userid` header, as a decimal string. */
export const SdkUserId = createParamDecorator((_: unknown, context: ExecutionContext) => parseSdkUserId(headersOf(context)));

/** `api_version`, `app_version`, `package_name`, `hotpatch_version` / `codepush_version`. */
export const SdkClientInfo = createParamDecorator((_: unknown, context: ExecutionContext) => parseSdkClientInfo(headersOf(context)));

/** The `x-source` of an event write (default `admin-api`). */
export const EventSource = createParamDecorator((_: unknown, context: ExecutionContext) => parseEventSource(headersOf(context)));
