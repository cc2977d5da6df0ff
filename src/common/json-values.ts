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

/** `value` (a JSON value) with the object keys in `keys` deleted, at every depth, in place. */
export function withoutKeys<T>(value: T, keys: ReadonlySet<string>): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (const item of value) withoutKeys(item, keys);
    return value;
  }
  const object = value as Record<string, unknown>;
  // for…in (a parsed object's keys are all its own), and no call per string or number: a rule holds tens of thousands.
  for (const key in object) {
    if (keys.has(key)) {
      delete object[key];
    } else {
      const item = object[key];
      if (typeof item === 'object' && item !== null) withoutKeys(item, keys);
    }
  }
  return value;
}

/** Whether a JSON value holds a number JSON text cannot write (`1e400` parses to Infinity, written as null). */
function holdsNonFiniteNumber(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return false;
  return (Array.isArray(value) ? value : Object.values(value)).some(holdsNonFiniteNumber);
}

/**
 * A JSON value as a JSON column gives it back once written: itself, unless it holds a number JSON
 * text cannot write. What a record built from values just written needs to equal the record read back.
 */
export const asStoredJson = <T>(value: T): T => (holdsNonFiniteNumber(value) ? (JSON.parse(JSON.stringify(value)) as T) : value);
