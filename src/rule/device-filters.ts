/**
 * A condition's `filters` as the mobile SDK evaluates them against one app event (the grammar is
 * docs/rule-reference.md; the behaviour was measured with the SDK's code, both engines): a leaf whose
 * `propertyName` the event does not carry fails, whatever the comparison and with or without
 * `functions`; otherwise the event's value is coerced as JavaScript coerces it — a `string` leaf
 * compares `String(value)` (5 equals "5", null equals "null"), a `number` leaf `Number(value)`
 * (true is 1, null is 0, anything non-numeric NaN, which fails every comparison; `!=` never holds),
 * a `boolean` leaf `Boolean(value)` (the string "false" reads as true, null as false); `functions`
 * compute the compared value from operands, `$.currentTime` being the event's time.
 */

type Json = Record<string, unknown>;

/** An app event as the device holds it: its properties (the device's own added) and its time. */
export interface DeviceEvent {
  properties: Json;
  at: number;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An own property of the event (never one of Object.prototype's). */
const propertyOf = (event: DeviceEvent, name: unknown): unknown =>
  typeof name === 'string' && Object.hasOwn(event.properties, name) ? event.properties[name] : undefined;

/**
 * `String(value)` and `Number(value)` as the device's JavaScript computes them. An object whose own
 * `toString` and `valueOf` are no functions makes JavaScript throw; here it reads as nothing, which
 * fails the comparison, rather than failing the request.
 */
function coerced<T>(convert: (value: unknown) => T, value: unknown): T | undefined {
  try {
    return convert(value);
  } catch {
    return undefined;
  }
}

const toNumber = (value: unknown): number => coerced(Number, value) ?? Number.NaN;

/** The device's `String(value)`; undefined where JavaScript would throw. */
export const deviceString = (value: unknown): string | undefined => coerced(String, value);

const CURRENT_TIME = '$.currentTime';
const PROPERTY_PREFIX = '$.';

function operand(value: unknown, event: DeviceEvent): number {
  if (typeof value === 'string') {
    if (value === CURRENT_TIME) return event.at;
    if (value.startsWith(PROPERTY_PREFIX)) return toNumber(propertyOf(event, value.slice(PROPERTY_PREFIX.length)));
  }
  return isObject(value) ? computed(value, event) : toNumber(value);
}

/** `{operator: "+" | "-", operand1, operand2}`; an operand may be another such object (the rule bounds the depth). */
function computed(functions: Json, event: DeviceEvent): number {
  const first = operand(functions.operand1, event);
  const second = operand(functions.operand2, event);
  if (functions.operator === '+') return first + second;
  if (functions.operator === '-') return first - second;
  return Number.NaN;
}

function compareNumbers(value: number, comparisonType: unknown, target: number): boolean {
  switch (comparisonType) {
    case '=':
      return value === target;
    case '>':
      return value > target;
    case '<':
      return value < target;
    case '>=':
      return value >= target;
    case '<=':
      return value <= target;
    default:
      return false;
  }
}

function leafHolds(leaf: Json, event: DeviceEvent): boolean {
  const { propertyName, comparisonType, comparisonValue } = leaf;
  if (typeof propertyName !== 'string' || !Object.hasOwn(event.properties, propertyName)) return false;
  const value = isObject(leaf.functions) ? computed(leaf.functions, event) : event.properties[propertyName];
  switch (leaf.propertyType) {
    case 'string': {
      const text = deviceString(value);
      if (text === undefined) return false;
      return comparisonType === '=' ? text === comparisonValue : comparisonType === '!=' && text !== comparisonValue;
    }
    case 'number':
      return compareNumbers(toNumber(value), comparisonType, toNumber(comparisonValue));
    case 'boolean':
      return comparisonType === '=' && Boolean(value) === Boolean(comparisonValue);
    default:
      return false;
  }
}

/** An item with an `operator` key is a nested group, any other a comparison. */
function groupHolds(group: Json, event: DeviceEvent): boolean {
  const items = Array.isArray(group.filter) ? group.filter : [];
  const holds = (item: unknown): boolean => isObject(item) && ('operator' in item ? groupHolds(item, event) : leafHolds(item, event));
  if (group.operator === 'AND') return items.every(holds);
  if (group.operator === 'OR') return items.some(holds);
  return false;
}

/** Whether a condition's `filters` pass for `event`: absent, null and `{}` always do. */
export function filtersPass(filters: unknown, event: DeviceEvent): boolean {
  if (!isObject(filters) || Object.keys(filters).length === 0) return true;
  return groupHolds(filters, event);
}
