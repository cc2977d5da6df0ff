import type { ApiHeaderOptions } from '@nestjs/swagger';

/** Swagger descriptions of the headers read by the decorators in request-headers.ts (docs/decisions/0001-wire-rules-and-errors.md). */
export const TENANT_HEADER: ApiHeaderOptions = {
  name: 'x-tenant-id',
  required: false,
  description: 'tenant: 1-64 characters of A-Z a-z 0-9 . _ -; default `default`',
};
export const USER_HEADER: ApiHeaderOptions = {
  name: 'user',
  required: true,
  description:
    'the operator (e.g. an email), 1-255 characters. When absent: the name of the admin key used, else ADMIN_DEFAULT_USER, ' +
    'else 400; blank → 400',
};
export const OPTIONAL_USER_HEADER: ApiHeaderOptions = {
  name: 'user',
  required: false,
  description: 'the operator (e.g. an email), 1-255 characters, recorded in the audit history',
};
export const SOURCE_HEADER: ApiHeaderOptions = {
  name: 'x-source',
  required: false,
  description: 'the system sending the events, stored with them; default `admin-api`',
};
