import { asStoredJson, copyJson, withoutKeys } from './json-values';

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

describe('withoutKeys', () => {
  it('deletes the keys asked for at every depth, in place, keeping the order of the others', () => {
    const value = JSON.parse('{"x":1,"a":[{"x":2,"b":3},[{"x":4}]],"c":{"d":{"x":5,"e":null}},"f":"x"}');
    const inner = value.c.d;
    expect(withoutKeys(value, new Set(['x']))).toBe(value);
    expect(JSON.stringify(value)).toBe('{"a":[{"b":3},[{}]],"c":{"d":{"e":null}},"f":"x"}');
    expect(value.c.d).toBe(inner);
  });
});

describe('asStoredJson', () => {
  it('is the value itself when JSON text writes it as it is', () => {
    const value = JSON.parse('{"a":[1,-0.5,{"b":1e300}],"c":null,"d":"1e400"}');
    expect(asStoredJson(value)).toBe(value);
  });

  it('is the value as JSON text gives it back when it holds numbers JSON cannot write', () => {
    const value = JSON.parse('{"a":[1,{"b":1e400}],"c":-1e400,"d":"x"}');
    expect(asStoredJson(value)).toEqual({ a: [1, { b: null }], c: null, d: 'x' });
  });
});
