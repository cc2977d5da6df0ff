import { DomainError } from '../common/domain-error';
import { parseSnapshotRequest } from './snapshot-request';

const machine = { currentState: '2', lastTransitionAt: 1795372967296, createdAt: 1795372967296 };
const snapshot = (fields: Record<string, unknown> = {}) => ({ ctaId: '12', activeStateMachines: { k: machine }, ...fields });

function rejection(body: unknown): DomainError {
  try {
    parseSnapshotRequest(body);
  } catch (error) {
    return error as DomainError;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
}

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
        { behaviourTagName: 'tag', exposureRule: { ctasResetAt: [{ ctaId: 12, resetAt: 5 }], session: { limit: 9 } }, ctaRelation: { activeCtas: [12, '013'] } },
      ],
    });
    expect(request.ctas[0].ctaId).toBe('12');
    expect(request.ctas[0].activeStateMachines.get('a')).toEqual({ machine: { ...machine, context: { storeId: 's' } }, reset: false });
    expect(request.ctas[0].activeStateMachines.get('b')).toEqual({ machine, reset: true });
    expect(request.ctas[0]).toMatchObject({ resetAt: [1], actionDoneAt: [2] });
    expect(request.behaviourTags).toEqual([{ behaviourTagName: 'tag', ctasResetAt: [{ ctaId: '12', resetAt: 5 }], activeCtas: ['12', '13'] }]);
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
    ['lastTransitionAt as a string', { ctas: [snapshot({ activeStateMachines: { k: { ...machine, lastTransitionAt: '1795372967296' } } })] }],
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
});
