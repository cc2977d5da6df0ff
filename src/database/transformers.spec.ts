import { booleanTransformer } from './transformers';

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
