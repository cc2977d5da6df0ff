const NO_KEYS: ReadonlySet<string> = new Set();

/**
 * A deep copy of a JSON value (what `JSON.parse` makes: plain objects, dense arrays, primitives),
 * leaving out the object keys in `without`. Several times faster than `structuredClone`, which
 * serialises the value and reads it back. Recursive: bodies nest at most MAX_JSON_DEPTH levels.
 */
export function copyJson<T>(value: T, without: ReadonlySet<string> = NO_KEYS): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => copyJson(item, without)) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (without.has(key)) continue;
    const item = copyJson((value as Record<string, unknown>)[key], without);
    // An own "__proto__" key (JSON.parse makes one) stays a key: assigned, it would set the copy's prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy as T;
}
