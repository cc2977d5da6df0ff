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
    ['a body that is not an object', []],
    ['ctas not an array', { ctas: {} }],
    ['a snapshot without ctaId', { ctas: [{ activeStateMachines: {} }] }],
    ['a non-numeric ctaId', { ctas: [snapshot({ ctaId: 'abc' })] }],
    ['a fractional ctaId', { ctas: [snapshot({ ctaId: 1.5 })] }],
    ['a snapshot without activeStateMachines', { ctas: [{ ctaId: '12' }] }],
    ['activeStateMachines as an array', { ctas: [snapshot({ activeStateMachines: [] })] }],
    ['a machine without currentState', { ctas: [snapshot({ activeStateMachines: { k: { ...machine, currentState: undefined } } })] }],
    ['a numeric currentState', { ctas: [snapshot({ activeStateMachines: { k: { ...machine, currentState: 2 } } })] }],
    ['a machine without lastTransitionAt', { ctas: [snapshot({ activeStateMachines: { k: { currentState: '1', createdAt: 1 } } })] }],
    ['a machine without createdAt', { ctas: [snapshot({ activeStateMachines: { k: { currentState: '1', lastTransitionAt: 1 } } })] }],
    [
      'lastTransitionAt as a string',
      { ctas: [snapshot({ activeStateMachines: { k: { ...machine, lastTransitionAt: '1795372967296' } } })] },
    ],
    ['createdAt as a fraction', { ctas: [snapshot({ activeStateMachines: { k: { ...machine, createdAt: 1.5 } } })] }],
    ['reset as a string', { ctas: [snapshot({ activeStateMachines: { k: { ...machine, reset: 'true' } } })] }],
    ['context as an array', { ctas: [snapshot({ activeStateMachines: { k: { ...machine, context: [] } } })] }],
    ['resetAt with a string', { ctas: [snapshot({ resetAt: ['1'] })] }],
    ['actionDoneAt not an array', { ctas: [snapshot({ actionDoneAt: 5 })] }],
    ['a tag without behaviourTagName', { behaviourTags: [{ ctaRelation: { activeCtas: [] } }] }],
    ['a numeric behaviourTagName', { behaviourTags: [{ behaviourTagName: 5 }] }],
    ['ctasResetAt without resetAt', { behaviourTags: [{ behaviourTagName: 't', exposureRule: { ctasResetAt: [{ ctaId: '1' }] } }] }],
    ['activeCtas with a bad id', { behaviourTags: [{ behaviourTagName: 't', ctaRelation: { activeCtas: [true] } }] }],
  ])('rejects %s with INVALID_REQUEST "invalid request"', (_case, body) => {
    const error = rejection(body);
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.message).toBe('invalid request');
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
