import { CanActivate, Controller, Type, UseFilters, UseGuards } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ApiExcludeController, ApiHeader, ApiSecurity } from '@nestjs/swagger';
import { ApiCommonErrorResponses } from '../common/api-error-responses';
import { TENANT_HEADER } from '../common/api-headers';
import { UNAUTHORIZED_ANSWERS } from '../security/api-key.guard';
import { KEY_SCHEMES, KeyedApi } from '../security/key-schemes';
import { ErrorEnvelopeFilter } from './exception.filter';

const ERROR_ENVELOPE_FILTER = new ErrorEnvelopeFilter();

export interface Mount {
  prefix: string;
  /** Which API the mount serves: its routes show that API's key slots in the docs. */
  api: KeyedApi;
  documented: boolean;
  guards: (CanActivate | Type<CanActivate>)[];
}

/**
 * Serves feature controllers under a prefix chosen at runtime (admin prefix, its aliases, SDK prefix:
 * docs/decisions/0019-importable-module.md). Each controller is declared with its path
 * relative to the prefix; this derives a subclass routed at `<prefix>/<path>`.
 * Aliases are left out of the API docs, which describe the main prefix only.
 * `guards` (the standalone app's API keys, or a host's own) protect every route of the mount.
 * The error filter is bound here too, so the routes answer the error envelope in a host
 * gateway that has no such global filter (the host's guards' exceptions included).
 */
export function mountControllers(controllers: Type[], { prefix, api, documented, guards }: Mount): Type[] {
  return controllers.map((controller) => {
    const path = (Reflect.getMetadata(PATH_METADATA, controller) as string | undefined) ?? '';
    const mounted = class extends controller {};
    Object.defineProperty(mounted, 'name', { value: controller.name });
    Controller([prefix, path].filter((part) => part && part !== '/').join('/'))(mounted);
    UseFilters(ERROR_ENVELOPE_FILTER)(mounted);
    if (guards.length > 0) {
      UseGuards(...guards)(mounted);
    }
    if (documented) {
      // Each scheme is a requirement of its own: either one is accepted when keys are configured
      // (docs/decisions/0010-roles-keys-and-tokens.md).
      KEY_SCHEMES[api].forEach((scheme) => ApiSecurity(scheme)(mounted));
      // Every route of a mount reads the tenant header.
      ApiHeader(TENANT_HEADER)(mounted);
      ApiCommonErrorResponses(UNAUTHORIZED_ANSWERS[api])(mounted);
    } else {
      ApiExcludeController()(mounted);
    }
    return mounted;
  });
}

const segments = (path: string): string[] => path.split('/').filter(Boolean);

/**
 * The first path segment of every route of `controllers`, as declared (before any prefix): the paths a mount at
 * the root occupies.
 */
export function routeRoots(controllers: Type[]): string[] {
  const roots = new Set<string>();
  for (const controller of controllers) {
    const base = (Reflect.getMetadata(PATH_METADATA, controller) as string | undefined) ?? '';
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = Object.getOwnPropertyDescriptor(controller.prototype, name)?.value as object | undefined;
      if (typeof handler !== 'function' || !Reflect.hasMetadata(METHOD_METADATA, handler)) continue;
      const paths = [Reflect.getMetadata(PATH_METADATA, handler) as string | string[]].flat();
      for (const path of paths) roots.add(segments(`${base}/${path}`)[0] ?? '');
    }
  }
  return [...roots];
}
