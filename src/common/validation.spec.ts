import { plainToInstance } from 'class-transformer';
import { IsObject, IsString } from 'class-validator';
import { ErrorCode } from './error-code';
import { BodyProblems, CheckedBodyPipe, JsonDocument, toDto } from './validation';

class CopiedDto {
  @IsString()
  name: string;

  @IsObject()
  rule: object;
}

class DocumentDto {
  @IsString()
  name: string;

  @IsObject()
  @JsonDocument()
  rule: object;
}

class ExtendedDocumentDto extends DocumentDto {
  @IsString()
  team: string;
}

/** A rule with every key class-transformer or Nest's ValidationPipe treats apart, at several depths. */
const awkwardRule = (): Record<string, unknown> =>
  JSON.parse(
    JSON.stringify({
      toString: 'x',
      valueOf: 1,
      hasOwnProperty: { a: 1 },
      prototype: { kept: true },
      constructor: null,
      __defineGetter__: [],
      plain: {
        isPrototypeOf: 2,
        propertyIsEnumerable: 3,
        toLocaleString: 4,
        nested: [{ constructor: 'x', prototype: 1, keep: [1, [2, { a: null }]] }],
      },
      list: [{ __lookupGetter__: 1, ok: 'yes' }, 'text', 5, true, null],
      stateTransition: { '10': {}, '2': { '0': [] }, event: {} },
    }),
  );

describe('JSON documents in bodies (@JsonDocument)', () => {
  const pipe = new CheckedBodyPipe(ErrorCode.INVALID_REQUEST);
  const transform = (metatype: new () => object, body: unknown) => pipe.transform(body, { type: 'body', metatype });

  it('come out of the body pipe as class-transformer copies them (same keys left out, same order), in a DTO instance, not copied', async () => {
    const copied = (await transform(CopiedDto, { name: 'n', rule: awkwardRule() })) as CopiedDto;
    const body = { name: 'n', rule: awkwardRule() };
    const kept = (await transform(DocumentDto, body)) as DocumentDto;
    expect(kept).toBeInstanceOf(DocumentDto);
    expect(JSON.stringify(kept)).toBe(JSON.stringify(copied));
    expect(kept.rule).toEqual(copied.rule);
    expect(kept.rule).toBe(body.rule);
    expect(Object.keys(kept.rule)).toEqual(['plain', 'list', 'stateTransition']);
  });

  it('are found on the classes a DTO extends', async () => {
    const body = { name: 'n', team: 't', rule: awkwardRule() };
    const dto = (await transform(ExtendedDocumentDto, body)) as ExtendedDocumentDto;
    expect(dto).toBeInstanceOf(ExtendedDocumentDto);
    expect(JSON.stringify(dto.rule)).toBe(
      JSON.stringify(((await transform(CopiedDto, { name: 'n', rule: awkwardRule() })) as CopiedDto).rule),
    );
  });

  it('leave the problems of a refused body as they were, and its checks see the body as the whole pipe left it', async () => {
    const seen: unknown[] = [];
    const checked = new CheckedBodyPipe(ErrorCode.INVALID_REQUEST, (body) => (seen.push(body), ['rule: checked too']));
    const refusal = async (metatype: new () => object, rule: unknown) => {
      const error = await checked.transform({ name: 5, rule }, { type: 'body', metatype }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(BodyProblems);
      return (error as BodyProblems).message;
    };
    for (const rule of [awkwardRule(), ['a'], 'text', null]) {
      expect(await refusal(DocumentDto, rule)).toBe(await refusal(CopiedDto, rule));
    }
    expect(JSON.stringify(seen[0])).toBe(JSON.stringify(seen[1]));
    expect(await refusal(DocumentDto, 'text')).toBe('name must be a string; rule must be an object; rule: checked too');
  });

  it('come out of toDto as out of plainToInstance', () => {
    // A `constructor` key of another value than null makes class-transformer throw (it takes it for the class to build).
    const rule = { ...awkwardRule(), plain: { toString: 1, prototype: { a: [{ valueOf: 2 }] } } };
    const dto = toDto(DocumentDto, { name: 'n', rule });
    expect(dto).toBeInstanceOf(DocumentDto);
    expect(JSON.stringify(dto)).toBe(JSON.stringify(plainToInstance(CopiedDto, { name: 'n', rule })));
    expect(toDto(DocumentDto, { name: 'n', rule: ['a', { b: 1 }] }).rule).toEqual(['a', { b: 1 }]);
  });
});
