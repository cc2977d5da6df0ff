import { booleanTransformer, jsonColumnText, jsonTransformer } from './transformers';

describe('booleanTransformer', () => {
  it('hands the drivers real booleans (TypeORM stores anything but true as 0 on SQLite)', () => {
    expect(booleanTransformer.to(true)).toBe(true);
    expect(booleanTransformer.to(false)).toBe(false);
    expect(booleanTransformer.to(null)).toBeNull();
  });

  it('reads 0/1 and booleans back as booleans', () => {
    expect(booleanTransformer.from(1)).toBe(true);
    expect(booleanTransformer.from(0)).toBe(false);
    expect(booleanTransformer.from(true)).toBe(true);
    expect(booleanTransformer.from(null)).toBeNull();
  });
});

describe('jsonTransformer', () => {
  it('writes documents as JSON text, and a document given as its text as it is', () => {
    expect(jsonTransformer.to({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(jsonTransformer.to(jsonColumnText('{"a":[1,"x"]}'))).toBe('{"a":[1,"x"]}');
    expect(jsonTransformer.to(null)).toBeNull();
    expect(jsonTransformer.from('{"a":[1,"x"]}')).toEqual({ a: [1, 'x'] });
  });
});
