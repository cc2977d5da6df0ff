import { copyJson } from './json-values';

describe('copyJson', () => {
  it('copies every array and object anew, in the same key order', () => {
    const value = JSON.parse('{"b":[1,{"c":"x"}],"2":null,"a":{"d":[true,[]]},"1":-0.5}');
    const copy = copyJson(value);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    expect(copy).not.toBe(value);
    expect(copy.b).not.toBe(value.b);
    expect(copy.b[1]).not.toBe(value.b[1]);
    expect(copy.a.d[1]).not.toBe(value.a.d[1]);
  });

  it('leaves out the keys asked for, at every depth', () => {
    expect(copyJson({ a: 1, x: { x: 2, b: [{ x: 3, c: 4 }] } }, new Set(['x']))).toEqual({ a: 1 });
    expect(copyJson({ a: 1, y: { x: 2, b: [{ x: 3, c: 4 }] } }, new Set(['x']))).toEqual({ a: 1, y: { b: [{ c: 4 }] } });
  });

  it('keeps an own "__proto__" key as a key, not as the prototype', () => {
    const copy = copyJson(JSON.parse('{"__proto__":{"polluted":true}}'));
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
