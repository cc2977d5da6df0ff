import { expectDomainError } from '../../test/expect-thrown';
import { machine as stateMachine } from '../../test/fixtures';
import { DomainError } from '../common/domain-error';
import {
  MAX_CTA_SNAPSHOTS,
  MAX_SNAPSHOT_LIST_ENTRIES,
  MAX_STATE_MACHINES_PER_SNAPSHOT,
  MAX_TAG_SNAPSHOTS,
  parseSnapshotRequest,
} from './snapshot-request';

const machine = stateMachine('2');
const snapshot = (fields: Record<string, unknown> = {}) => ({ ctaId: '12', activeStateMachines: { k: machine }, ...fields });

const rejection = (body: unknown): DomainError => expectDomainError(() => parseSnapshotRequest(body));

describe('parseSnapshotRequest', () => {
  it('reads the example delta: ids as strings, reset split from the stored machine', () => {
    const request = parseSnapshotRequest({
      ctas: [
        {
          ctaId: 12,
          activeStateMachines: { a: { ...machine, context: { storeId: 's' } }, b: { ...machine, reset: true } },
          resetAt: [1],
          actionDoneAt: [2],
        },
      ],
      behaviourTags: [
        {
          behaviourTagName: 'tag',
          exposureRule: { ctasResetAt: [{ ctaId: 12, resetAt: 5 }], session: { limit: 9 } },
          ctaRelation: { activeCtas: [12, '013'] },
        },
      ],
    });
    expect(request.ctas[0].ctaId).toBe('12');
    expect(request.ctas[0].activeStateMachines.get('a')).toEqual({ machine: { ...machine, context: { storeId: 's' } }, reset: false });
    expect(request.ctas[0].activeStateMachines.get('b')).toEqual({ machine, reset: true });
    expect(request.ctas[0]).toMatchObject({ resetAt: [1], actionDoneAt: [2] });
    expect(request.behaviourTags).toEqual([
      { behaviourTagName: 'tag', ctasResetAt: [{ ctaId: '12', resetAt: 5 }], activeCtas: ['12', '13'] },
    ]);
  });

  it('reads absent and null optional fields as absent', () => {
    expect(parseSnapshotRequest(undefined)).toEqual({ ctas: [], behaviourTags: [] });
    expect(parseSnapshotRequest({})).toEqual({ ctas: [], behaviourTags: [] });
    expect(parseSnapshotRequest({ ctas: null, behaviourTags: null })).toEqual({ ctas: [], behaviourTags: [] });
    const request = parseSnapshotRequest({
      ctas: [snapshot({ resetAt: null, actionDoneAt: null, activeStateMachines: { k: { ...machine, context: null, reset: null } } })],
      behaviourTags: [{ behaviourTagName: 't', exposureRule: null, ctaRelation: { activeCtas: null } }],
    });
    expect(request.ctas[0].resetAt).toBeUndefined();
    expect(request.ctas[0].actionDoneAt).toBeUndefined();
    expect(request.ctas[0].activeStateMachines.get('k')).toEqual({ machine, reset: false });
    expect(request.behaviourTags[0]).toEqual({ behaviourTagName: 't', ctasResetAt: undefined, activeCtas: undefined });
  });

  it.each([
    ['a body that is not an object', [], 'the body must be a JSON object'],
    ['ctas not an array', { ctas: {} }, 'ctas must be an array'],
    [
      'a snapshot without ctaId',
      { ctas: [{ activeStateMachines: {} }] },
      'ctas[0].ctaId must be a CTA id (an integer, or its decimal string)',
    ],
    ['a non-numeric ctaId', { ctas: [snapshot({ ctaId: 'abc' })] }, 'ctas[0].ctaId must be a CTA id (an integer, or its decimal string)'],
    ['a fractional ctaId', { ctas: [snapshot({ ctaId: 1.5 })] }, 'ctas[0].ctaId must be a CTA id (an integer, or its decimal string)'],
    ['a snapshot without activeStateMachines', { ctas: [{ ctaId: '12' }] }, 'ctas[0].activeStateMachines must be an object'],
    ['activeStateMachines as an array', { ctas: [snapshot({ activeStateMachines: [] })] }, 'ctas[0].activeStateMachines must be an object'],
    [
      'a machine without currentState',
      { ctas: [snapshot({ activeStateMachines: { k: { ...machine, currentState: undefined } } })] },
      'ctas[0].activeStateMachines.k.currentState must be a string',
    ],
    [
      'a numeric currentState',
      { ctas: [snapshot({ activeStateMachines: { k: { ...machine, currentState: 2 } } })] },
      'ctas[0].activeStateMachines.k.currentState must be a string',
    ],
    [
      'a machine without lastTransitionAt',
      { ctas: [snapshot({ activeStateMachines: { k: { currentState: '1', createdAt: 1 } } })] },
      'ctas[0].activeStateMachines.k.lastTransitionAt must be an integer (epoch milliseconds)',
    ],
    [
      'a machine without createdAt',
      { ctas: [snapshot({ activeStateMachines: { k: { currentState: '1', lastTransitionAt: 1 } } })] },
      'ctas[0].activeStateMachines.k.createdAt must be an integer (epoch milliseconds)',
    ],
    [
      'lastTransitionAt as a string',
      { ctas: [snapshot({ activeStateMachines: { k: { ...machine, lastTransitionAt: '1795372967296' } } })] },
      'ctas[0].activeStateMachines.k.lastTransitionAt must be an integer (epoch milliseconds)',
    ],
    [
      'createdAt as a fraction',
      { ctas: [snapshot({ activeStateMachines: { k: { ...machine, createdAt: 1.5 } } })] },
      'ctas[0].activeStateMachines.k.createdAt must be an integer (epoch milliseconds)',
    ],
    [
      'reset as a string',
      { ctas: [snapshot({ activeStateMachines: { k: { ...machine, reset: 'true' } } })] },
      'ctas[0].activeStateMachines.k.reset must be a boolean',
    ],
    [
      'context as an array',
      { ctas: [snapshot({ activeStateMachines: { k: { ...machine, context: [] } } })] },
      'ctas[0].activeStateMachines.k.context must be an object',
    ],
    ['resetAt with a string', { ctas: [snapshot({ resetAt: ['1'] })] }, 'ctas[0].resetAt[0] must be an integer (epoch milliseconds)'],
    ['actionDoneAt not an array', { ctas: [snapshot({ actionDoneAt: 5 })] }, 'ctas[0].actionDoneAt must be an array'],
    [
      'a tag without behaviourTagName',
      { behaviourTags: [{ ctaRelation: { activeCtas: [] } }] },
      'behaviourTags[0].behaviourTagName must be a string',
    ],
    ['a numeric behaviourTagName', { behaviourTags: [{ behaviourTagName: 5 }] }, 'behaviourTags[0].behaviourTagName must be a string'],
    [
      'ctasResetAt without resetAt',
      { behaviourTags: [{ behaviourTagName: 't', exposureRule: { ctasResetAt: [{ ctaId: '1' }] } }] },
      'behaviourTags[0].exposureRule.ctasResetAt[0].resetAt must be an integer (epoch milliseconds)',
    ],
    [
      'activeCtas with a bad id',
      { behaviourTags: [{ behaviourTagName: 't', ctaRelation: { activeCtas: [true] } }] },
      'behaviourTags[0].ctaRelation.activeCtas[0] must be a CTA id (an integer, or its decimal string)',
    ],
  ])('rejects %s with INVALID_REQUEST "invalid request" naming the path', (_case, body, problem) => {
    const error = rejection(body);
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.message).toBe(`invalid request: ${problem}`);
  });

  it('names every problem of a body in one message, the seed\'s "invalid request" first', () => {
    const error = rejection({
      ctas: [
        { ctaId: '1', activeStateMachines: { m1: { ...machine, currentState: 2 } } },
        { ctaId: 'x', activeStateMachines: { m2: { currentState: '1', lastTransitionAt: '5', createdAt: 1 } }, resetAt: [1, 'a'] },
      ],
      behaviourTags: [{ behaviourTagName: 7, ctaRelation: { activeCtas: ['1', -1] } }],
    });
    expect(error.message).toBe(
      'invalid request: ctas[0].activeStateMachines.m1.currentState must be a string; ' +
        'ctas[1].ctaId must be a CTA id (an integer, or its decimal string); ' +
        'ctas[1].activeStateMachines.m2.lastTransitionAt must be an integer (epoch milliseconds); ' +
        'ctas[1].resetAt[1] must be an integer (epoch milliseconds); ' +
        'behaviourTags[0].behaviourTagName must be a string; ' +
        'behaviourTags[0].ctaRelation.activeCtas[1] must be a CTA id (an integer, or its decimal string)',
    );
  });

  it('stops reading at the 21st problem: 20 named, then "and more"', () => {
    const error = rejection({ ctas: [snapshot({ resetAt: Array(5000).fill('x') })] });
    const problems = error.message.replace(/^invalid request: /, '').split('; ');
    expect(problems).toHaveLength(21);
    expect(problems[19]).toBe('ctas[0].resetAt[19] must be an integer (epoch milliseconds)');
    expect(problems[20]).toBe('and more');
  });

  const machines = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`m${i}`, machine]));
  const tag = (fields: Record<string, unknown> = {}) => ({ behaviourTagName: 't', ...fields });

  it('accepts every list at its cap', () => {
    const request = parseSnapshotRequest({
      ctas: [
        ...Array.from({ length: MAX_CTA_SNAPSHOTS - 1 }, () => snapshot()),
        snapshot({ activeStateMachines: machines(MAX_STATE_MACHINES_PER_SNAPSHOT), resetAt: Array(MAX_SNAPSHOT_LIST_ENTRIES).fill(1) }),
      ],
      behaviourTags: Array.from({ length: MAX_TAG_SNAPSHOTS }, () =>
        tag({ ctaRelation: { activeCtas: Array(MAX_SNAPSHOT_LIST_ENTRIES).fill('1') } }),
      ),
    });
    expect(request.ctas).toHaveLength(MAX_CTA_SNAPSHOTS);
    expect(request.ctas[MAX_CTA_SNAPSHOTS - 1].activeStateMachines.size).toBe(MAX_STATE_MACHINES_PER_SNAPSHOT);
    expect(request.behaviourTags).toHaveLength(MAX_TAG_SNAPSHOTS);
  });

  it.each([
    ['too many CTA snapshots', { ctas: Array.from({ length: 1001 }, () => snapshot()) }, 'ctas holds 1001 entries, at most 1000'],
    [
      'too many state machines in one snapshot',
      { ctas: [snapshot(), snapshot({ activeStateMachines: machines(1001) })] },
      'ctas[1].activeStateMachines holds 1001 state machines, at most 1000',
    ],
    ['too many resetAt entries', { ctas: [snapshot({ resetAt: Array(10_001).fill(1) })] }, 'ctas[0].resetAt holds 10001 entries'],
    ['too many actionDoneAt entries', { ctas: [snapshot({ actionDoneAt: Array(10_001).fill(1) })] }, 'ctas[0].actionDoneAt holds 10001'],
    [
      'too many tag snapshots',
      { behaviourTags: Array.from({ length: 1001 }, () => tag()) },
      'behaviourTags holds 1001 entries, at most 1000',
    ],
    [
      'too many ctasResetAt entries',
      { behaviourTags: [tag({ exposureRule: { ctasResetAt: Array(10_001).fill({ ctaId: '1', resetAt: 1 }) } })] },
      'behaviourTags[0].exposureRule.ctasResetAt holds 10001 entries, at most 10000',
    ],
    [
      'too many activeCtas',
      { behaviourTags: [tag(), tag({ ctaRelation: { activeCtas: Array(10_001).fill('1') } })] },
      'behaviourTags[1].ctaRelation.activeCtas holds 10001 entries',
    ],
  ])('rejects %s with INVALID_REQUEST naming the list and the cap', (_case, body, message) => {
    const error = rejection(body);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.message).toContain(`invalid request: ${message}`);
  });
});
