/** A test of whether a request path is `/<prefix>` itself or below it (the query string counts as part of the path). */
export function underPrefix(prefix: string): (path: string) => boolean {
  const root = `/${prefix}`;
  const below = `${root}/`;
  return (path) => path === root || path.startsWith(below);
}
