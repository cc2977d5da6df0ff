import type { ArgumentMetadata } from '@nestjs/common';
import { ErrorCode } from '../common/error-code';
import { validationPipe } from '../common/validation';
import {
  isValidPropertyList,
  MAX_EVENTS_PER_REQUEST,
  MAX_PROPERTIES_PER_EVENT,
  UpdateEventPropertiesDto,
  UpsertEventsDto,
} from './dto/event-definition.dto';
import { EventsBodyPipe } from './events-body.pipe';

const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype });

/** What a pipe makes of a value: the DTO as JSON, or the message it refuses it with. */
const outcome = (
  pipe: { transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> },
  value: unknown,
  metatype: ArgumentMetadata['metatype'],
) =>
  pipe.transform(structuredClone(value), body(metatype)).then(
    (dto) => ({ dto: JSON.stringify(dto) }),
    (error: Error) => ({ refused: error.message }),
  );

const property = { propertyName: 'storeId', type: 'String', isMandatory: true };
const TEXTS: unknown[] = [
  '',
  'x',
  'x'.repeat(255),
  'x'.repeat(256),
  '😀'.repeat(255),
  '😀'.repeat(128),
  '\uFE0F',
  'a\uFE0F'.repeat(200),
  5,
  null,
  undefined,
  true,
  {},
  [],
];
/** Property objects with one field set to each awkward value, and values that are no property at all. */
const PROPERTIES: unknown[] = [
  property,
  ...['propertyName', 'type', 'expectedValue', 'description'].flatMap((field) => TEXTS.map((text) => ({ ...property, [field]: text }))),
  ...[false, 'true', 1, null, undefined].map((isMandatory) => ({ ...property, isMandatory })),
  { ...property, extra: 1, toString: 'x', constructor: 'y' },
  null,
  'storeId',
  [property],
];

describe('isValidPropertyList', () => {
  const plain = validationPipe(ErrorCode.INVALID_REQUEST);

  it.each(PROPERTIES.map((value) => [JSON.stringify(value) ?? 'undefined', value]))(
    "takes a list with %s exactly when the DTO's decorators do",
    async (_shown, value) => {
      const valid = 'dto' in (await outcome(plain, { properties: [value] }, UpdateEventPropertiesDto));
      expect(isValidPropertyList([value])).toBe(valid);
    },
  );

  it(`takes at most ${MAX_PROPERTIES_PER_EVENT} properties, and only arrays`, () => {
    const list = (count: number) => Array.from({ length: count }, (_, index) => ({ ...property, propertyName: `p${index}` }));
    expect(isValidPropertyList(list(MAX_PROPERTIES_PER_EVENT))).toBe(true);
    expect(isValidPropertyList(list(MAX_PROPERTIES_PER_EVENT + 1))).toBe(false);
    expect(isValidPropertyList({ 0: property })).toBe(false);
    expect(isValidPropertyList(undefined)).toBe(false);
  });
});

describe('EventsBodyPipe', () => {
  const pipe = new EventsBodyPipe();
  const plain = validationPipe(ErrorCode.INVALID_REQUEST);
  const events = (count: number) => Array.from({ length: count }, (_, index) => ({ eventName: `e${index}` }));
  const UPSERTS: unknown[] = [
    ...TEXTS.map((eventName) => ({ events: [{ eventName, properties: [property] }] })),
    { events: events(MAX_EVENTS_PER_REQUEST) },
    { events: events(MAX_EVENTS_PER_REQUEST + 1) },
    { events: [{ eventName: 'a', properties: [property] }, 'b'] },
    { events: [[{ eventName: 'a' }]] },
    { events: [{ eventName: 'a', properties: [property] }, { eventName: 'b' }, { eventName: 'c', properties: [] }] },
    { events: [{ eventName: '', properties: [property] }, { eventName: 5 }] },
    {
      events: [
        { eventName: 'a', properties: [{ ...property, type: 5 }] },
        { eventName: 7, properties: [property] },
      ],
    },
    { events: [{ eventName: 'a', properties: null }] },
    { events: [null, { eventName: 'a', properties: [property] }] },
    { events: [] },
    { events: 'a' },
    {},
    [],
  ];
  const REPLACEMENTS: unknown[] = [
    { properties: [property, { ...property, propertyName: 'p2', description: null }] },
    { properties: [] },
    { properties: [{}] },
    {},
    { properties: 'x' },
  ];

  it.each(UPSERTS.map((value) => [JSON.stringify(value), value]))(
    'makes of the upsert body %s what the validation pipe makes of it',
    async (_shown, value) => {
      expect(await outcome(pipe, value, UpsertEventsDto)).toEqual(await outcome(plain, value, UpsertEventsDto));
    },
  );

  it.each(REPLACEMENTS.map((value) => [JSON.stringify(value), value]))(
    'makes of the replacement body %s what the validation pipe makes of it',
    async (_shown, value) => {
      expect(await outcome(pipe, value, UpdateEventPropertiesDto)).toEqual(await outcome(plain, value, UpdateEventPropertiesDto));
    },
  );

  it('makes a DTO of a valid body as it is', async () => {
    const events = [{ eventName: 'a', properties: [property] }];
    const dto = (await pipe.transform({ events }, body(UpsertEventsDto))) as UpsertEventsDto;
    expect(dto).toBeInstanceOf(UpsertEventsDto);
    expect(dto.events).toBe(events);
    const properties = [property];
    const replacement = (await pipe.transform({ properties }, body(UpdateEventPropertiesDto))) as UpdateEventPropertiesDto;
    expect(replacement).toBeInstanceOf(UpdateEventPropertiesDto);
    expect(replacement.properties).toBe(properties);
  });
});
