import { nestsDeeperThan } from './json-text';

describe('nestsDeeperThan', () => {
  const nested = (depth: number): unknown => JSON.parse(`${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`);

  it('counts arrays and objects, the value itself as level 1, whatever the depth', () => {
    expect(nestsDeeperThan(nested(32), 64)).toBe(false);
    expect(nestsDeeperThan(JSON.parse(`{"b":2,"c":${JSON.stringify(nested(32))}}`), 64)).toBe(true);
    expect(nestsDeeperThan(nested(100_000), 64)).toBe(true);
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan({ a: [1, 'x', null, { b: {} }] }, 4)).toBe(false);
    expect(nestsDeeperThan({ a: [1, 'x', null, { b: {} }] }, 3)).toBe(true);
  });
});
