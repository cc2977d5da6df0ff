import 'reflect-metadata';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsString, Length, ValidateNested, validateSync } from 'class-validator';
import { plainToInstance, Type } from 'class-transformer';
import { fieldProblemsText, joinProblems, pathTo, validationProblems } from './problems';

class Item {
  @IsInt()
  limit: number;
}

class Body {
  @IsString()
  team: string;

  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => Item)
  items: Item[];
}

class Sized {
  @IsString()
  @Length(1, 5)
  name: string;

  @IsArray()
  @ArrayMaxSize(2)
  @IsString({ each: true })
  tags: string[];
}

describe('problems', () => {
  it('joins problems as "path: problem", naming the first 20 and counting the rest', () => {
    expect(
      joinProblems([
        { path: 'a', message: 'x' },
        { path: 'b[0]', message: 'y' },
      ]),
    ).toBe('a: x; b[0]: y');
    const many = Array.from({ length: 23 }, (_, index) => ({ path: `p${index}`, message: 'm' }));
    const message = joinProblems(many);
    expect(message.split('; ')).toHaveLength(21);
    expect(message.endsWith('p19: m; and 3 more')).toBe(true);
  });

  it('builds paths with dots for keys and brackets for indices', () => {
    expect(pathTo('', 'rule')).toBe('rule');
    expect(pathTo('rule', 'actions')).toBe('rule.actions');
    expect(pathTo('rule.actions', 1)).toBe('rule.actions[1]');
  });

  it("lists every class-validator failure at its full path, without repeating the property's name", () => {
    const errors = validateSync(plainToInstance(Body, { team: 5, items: [{ limit: 1 }, { limit: 'x' }] }));
    expect(validationProblems(errors)).toEqual([
      { path: 'team', message: 'must be a string' },
      { path: 'items[1].limit', message: 'must be an integer number' },
    ]);
  });

  it('names a missing field as required and a wrong type as a type error, without the size rules it also breaks', () => {
    expect(validationProblems(validateSync(plainToInstance(Sized, {})))).toEqual([
      { path: 'name', message: 'is required' },
      { path: 'tags', message: 'is required' },
    ]);
    const problems = validationProblems(validateSync(plainToInstance(Sized, { name: 123, tags: 'onboarding' })));
    expect(problems).toEqual([
      { path: 'name', message: 'must be a string' },
      { path: 'tags', message: 'must be an array' },
    ]);
    expect(fieldProblemsText(problems)).toBe('name must be a string; tags must be an array');
    expect(fieldProblemsText(validationProblems(validateSync(plainToInstance(Sized, { name: 'toolong', tags: ['a', 1, 'c'] }))))).toBe(
      'name must be shorter than or equal to 5 characters; each value in tags must be a string; tags must contain no more than 2 elements',
    );
  });
});
