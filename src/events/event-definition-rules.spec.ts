import { expectDomainError } from '../../test/expect-thrown';
import { ErrorCode } from '../common/error-code';
import type { EventPropertyDto } from './dto/event-definition.dto';
import { definitionsToWrite, eventChange, inKeyOrder, storedProperties } from './event-definition-rules';
import type { EventDefinition } from './event-definition.types';

const property = (propertyName: string, fields: Partial<EventPropertyDto> = {}): EventPropertyDto => ({
  propertyName,
  type: 'String',
  isMandatory: true,
  ...fields,
});

describe('storedProperties', () => {
  it('keeps the order sent and stores absent or null optional fields as null', () => {
    expect(
      storedProperties('store_opened', [
        property('storeId', { description: 'the store' }),
        property('source', { isMandatory: false, expectedValue: 'home', description: null }),
        property('cartValue', { type: 'Double', expectedValue: undefined }),
      ]),
    ).toEqual([
      { propertyName: 'storeId', type: 'String', isMandatory: true, expectedValue: null, description: 'the store' },
      { propertyName: 'source', type: 'String', isMandatory: false, expectedValue: 'home', description: null },
      { propertyName: 'cartValue', type: 'Double', isMandatory: true, expectedValue: null, description: null },
    ]);
  });

  it('keeps only the known fields of a property', () => {
    const sent = { ...property('p'), extra: 'dropped' } as EventPropertyDto;
    expect(Object.keys(storedProperties('e', [sent])[0])).toEqual(['propertyName', 'type', 'isMandatory', 'expectedValue', 'description']);
  });

  it('refuses a property name twice in one event, naming both, and compares names exactly', () => {
    const error = expectDomainError(
      () => storedProperties('login', [property('a'), property('b'), property('a')]),
      ErrorCode.INVALID_REQUEST,
    );
    expect(error.message).toBe("event 'login' has the property 'a' more than once");
    expect(storedProperties('login', [property('a'), property('A'), property('a ')]).map((stored) => stored.propertyName)).toEqual([
      'a',
      'A',
      'a ',
    ]);
  });
});

describe('definitionsToWrite', () => {
  it('answers each event in the order sent, absent properties as none', () => {
    expect(definitionsToWrite([{ eventName: 'zeta', properties: [property('z')] }, { eventName: 'alpha' }])).toEqual([
      { eventName: 'zeta', properties: [{ propertyName: 'z', type: 'String', isMandatory: true, expectedValue: null, description: null }] },
      { eventName: 'alpha', properties: [] },
    ]);
  });

  it('refuses an event name twice in one body; names compare exactly', () => {
    const error = expectDomainError(
      () => definitionsToWrite([{ eventName: 'x' }, { eventName: 'y' }, { eventName: 'x', properties: [] }]),
      ErrorCode.INVALID_REQUEST,
    );
    expect(error.message).toBe("event 'x' appears more than once in events");
    expect(definitionsToWrite([{ eventName: 'x' }, { eventName: 'X' }, { eventName: 'x ' }])).toHaveLength(3);
  });

  it('checks the properties of every event, so an invalid one anywhere refuses the whole body', () => {
    const error = expectDomainError(() =>
      definitionsToWrite([
        { eventName: 'good', properties: [property('p')] },
        { eventName: 'bad', properties: [property('p'), property('p')] },
      ]),
    );
    expect(error.message).toBe("event 'bad' has the property 'p' more than once");
  });
});

describe('inKeyOrder', () => {
  it('sorts by the bytes of the names (the order of the key), not by locale or code units, and leaves its input as it was', () => {
    const definitions: EventDefinition[] = ['b', 'B', 'é', 'a', '😀', 'ｚ', '_'].map((eventName) => ({ eventName, properties: [] }));
    expect(inKeyOrder(definitions).map((definition) => definition.eventName)).toEqual(['B', '_', 'a', 'b', 'é', 'ｚ', '😀']);
    expect(definitions.map((definition) => definition.eventName)).toEqual(['b', 'B', 'é', 'a', '😀', 'ｚ', '_']);
  });
});

describe('eventChange', () => {
  const v1: EventDefinition = { eventName: 'e', properties: [] };
  const v2: EventDefinition = {
    eventName: 'e',
    properties: [{ propertyName: 'p', type: 'String', isMandatory: true, expectedValue: null, description: null }],
  };

  it('names the action by what was there before and after', () => {
    expect(eventChange('t', 'e', null, v1)).toEqual({
      tenantId: 't',
      entityType: 'event',
      entityId: 'e',
      action: 'create',
      before: null,
      after: v1,
    });
    expect(eventChange('t', 'e', v1, v2)).toMatchObject({ action: 'update', before: v1, after: v2 });
    expect(eventChange('t', 'e', v2, null)).toMatchObject({ action: 'delete', before: v2, after: null });
  });

  it('records an upsert of an unchanged event as an update', () => {
    expect(eventChange('t', 'e', v1, { ...v1 }).action).toBe('update');
  });
});
