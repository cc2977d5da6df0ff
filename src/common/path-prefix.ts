/** The admin prefix alias that serves the admin API at the root (`ADMIN_PREFIX_ALIASES=/`: the newest real admin panel builds). */
export const ROOT_PREFIX = '/';

/** A test of whether a request path is `/<prefix>` itself or below it, with or without a query string. */
export function underPrefix(prefix: string): (path: string) => boolean {
  const root = `/${prefix}`;
  const below = `${root}/`;
  const queried = `${root}?`;
  return (path) => path === root || path.startsWith(below) || path.startsWith(queried);
}

/**
 * The paths a prefix occupies, without slashes: the prefix itself, or at the root the first segment of each route
 * mounted there (`rootSegments`).
 */
export const occupiedPaths = (prefix: string, rootSegments: readonly string[]): readonly string[] =>
  prefix === ROOT_PREFIX ? rootSegments : [prefix];

/** Whether two paths (without slashes) are one, or one lies below the other: requests to one could be meant for the other. */
export const pathsOverlap = (a: string, b: string): boolean => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
