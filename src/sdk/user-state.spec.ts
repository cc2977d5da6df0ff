import { machine as stateMachine } from '../../test/fixtures';
import type { SnapshotRequest, StateMachine } from './snapshot-request';
import { parseSnapshotRequest } from './snapshot-request';
import { boundUserState, withinLimits } from './user-state-bounds';
import {
  documentBytes,
  dropsOnCatalogueWord,
  emptyUserState,
  MAX_STORED_LIST_ENTRIES,
  mergeSnapshots,
  parseUserState,
  pruneDropsAnything,
  pruneUserState,
  readStoredUserState,
  serializeUserState,
  StateCatalogue,
  UserState,
  userStateJson,
} from './user-state';

const NOW = 1_800_000_000_000;
const TTL = 1000;

/** CTAs 12 and 13 keep state (TTL 1000 ms); tag `tag` exists. */
const catalogue: StateCatalogue = {
  stateTtlOf: (ctaId) => (ctaId === '12' || ctaId === '13' ? TTL : undefined),
  hasTag: (name) => name === 'tag',
};

/** A machine created 10 ms before NOW. */
const machine = (state: string, lastTransitionAt: number, extra: Record<string, unknown> = {}): StateMachine =>
  stateMachine(state, lastTransitionAt, { createdAt: NOW - 10, ...extra });

const request = (body: unknown): SnapshotRequest => parseSnapshotRequest(body);

function stateWith(machines: Record<string, StateMachine>): UserState {
  const state = emptyUserState();
  state.ctas.set('12', { activeStateMachines: new Map(Object.entries(machines)), resetAt: [1], actionDoneAt: [2] });
  return state;
}

describe('mergeSnapshots', () => {
  it('stores new machines and deletes reset ones', () => {
    const state = stateWith({ old: machine('1', NOW - 5) });
    const counts = mergeSnapshots(
      state,
      request({
        ctas: [{ ctaId: '12', activeStateMachines: { old: { ...machine('3', NOW - 1), reset: true }, fresh: machine('1', NOW) } }],
      }),
      catalogue,
      NOW,
    );
    expect([...state.ctas.get('12')!.activeStateMachines]).toEqual([['fresh', machine('1', NOW)]]);
    expect(counts).toEqual({ applied: 2, ignored: 0 });
  });

  it('lets the incoming machine win on an equal or later lastTransitionAt, and keeps a later stored one', () => {
    const state = stateWith({ equal: machine('1', NOW - 5), later: machine('1', NOW - 5), stale: machine('1', NOW - 5) });
    const counts = mergeSnapshots(
      state,
      request({
        ctas: [
          {
            ctaId: '12',
            activeStateMachines: { equal: machine('2', NOW - 5), later: machine('2', NOW - 4), stale: machine('2', NOW - 6) },
          },
        ],
      }),
      catalogue,
      NOW,
    );
    const machines = state.ctas.get('12')!.activeStateMachines;
    expect(machines.get('equal')!.currentState).toBe('2');
    expect(machines.get('later')!.currentState).toBe('2');
    expect(machines.get('stale')!.currentState).toBe('1');
    expect(counts).toEqual({ applied: 2, ignored: 1 });
  });

  it('replaces lists that are present and keeps those that are absent', () => {
    const state = stateWith({});
    mergeSnapshots(state, request({ ctas: [{ ctaId: '12', activeStateMachines: {}, resetAt: [7, 8] }] }), catalogue, NOW);
    expect(state.ctas.get('12')).toMatchObject({ resetAt: [7, 8], actionDoneAt: [2] });
    mergeSnapshots(state, request({ ctas: [{ ctaId: '12', activeStateMachines: {}, actionDoneAt: [] }] }), catalogue, NOW);
    expect(state.ctas.get('12')).toMatchObject({ resetAt: [7, 8], actionDoneAt: [] });
  });

  it('keeps the newest 1000 entries of each list', () => {
    const many = Array.from({ length: MAX_STORED_LIST_ENTRIES + 5 }, (_, index) => MAX_STORED_LIST_ENTRIES + 5 - index);
    const state = emptyUserState();
    mergeSnapshots(
      state,
      request({
        ctas: [{ ctaId: '12', activeStateMachines: {}, resetAt: many, actionDoneAt: many }],
        behaviourTags: [
          {
            behaviourTagName: 'tag',
            exposureRule: { ctasResetAt: many.map((resetAt) => ({ ctaId: String(resetAt), resetAt })) },
            ctaRelation: { activeCtas: many.map(String) },
          },
        ],
      }),
      catalogue,
      NOW,
    );
    const cta = state.ctas.get('12')!;
    expect(cta.resetAt).toHaveLength(MAX_STORED_LIST_ENTRIES);
    expect(Math.min(...cta.resetAt)).toBe(6);
    expect(cta.resetAt[0]).toBe(MAX_STORED_LIST_ENTRIES + 5);
    expect(Math.min(...cta.actionDoneAt)).toBe(6);
    const tag = state.tags.get('tag')!;
    expect(tag.ctasResetAt).toHaveLength(MAX_STORED_LIST_ENTRIES);
    expect(Math.min(...tag.ctasResetAt.map((entry) => entry.resetAt))).toBe(6);
    expect(tag.activeCtas).toHaveLength(MAX_STORED_LIST_ENTRIES);
    expect(tag.activeCtas[MAX_STORED_LIST_ENTRIES - 1]).toBe('1');
  });

  it('keeps ties at the cut of ctasResetAt to exactly 1000 entries', () => {
    const state = emptyUserState();
    const ctasResetAt = Array.from({ length: MAX_STORED_LIST_ENTRIES + 10 }, (_, index) => ({ ctaId: String(index), resetAt: 5 }));
    mergeSnapshots(state, request({ behaviourTags: [{ behaviourTagName: 'tag', exposureRule: { ctasResetAt } }] }), catalogue, NOW);
    expect(state.tags.get('tag')!.ctasResetAt).toHaveLength(MAX_STORED_LIST_ENTRIES);
  });

  it('ignores snapshots of CTAs without kept state and of unknown tags', () => {
    const state = emptyUserState();
    const counts = mergeSnapshots(
      state,
      request({
        ctas: [{ ctaId: '99', activeStateMachines: { k: machine('1', NOW) } }],
        behaviourTags: [{ behaviourTagName: 'other', ctaRelation: { activeCtas: ['12'] } }],
      }),
      catalogue,
      NOW,
    );
    expect(state.ctas.size + state.tags.size).toBe(0);
    expect(counts).toEqual({ applied: 0, ignored: 2 });
  });

  it('replaces tag lists when present and keeps them when absent', () => {
    const state = emptyUserState();
    mergeSnapshots(state, request({ behaviourTags: [{ behaviourTagName: 'tag', ctaRelation: { activeCtas: ['12'] } }] }), catalogue, NOW);
    mergeSnapshots(
      state,
      request({ behaviourTags: [{ behaviourTagName: 'tag', exposureRule: { ctasResetAt: [{ ctaId: '12', resetAt: 3 }] } }] }),
      catalogue,
      NOW,
    );
    expect(state.tags.get('tag')).toEqual({ activeCtas: ['12'], ctasResetAt: [{ ctaId: '12', resetAt: 3 }] });
  });
});

describe('pruneUserState', () => {
  it('drops expired machines (createdAt + TTL <= now), state of CTAs without kept state, unknown tags and empty entries', () => {
    const state = emptyUserState();
    state.ctas.set('12', {
      activeStateMachines: new Map([
        ['expired', { ...machine('1', NOW), createdAt: NOW - TTL }],
        ['alive', { ...machine('1', NOW), createdAt: NOW - TTL + 1 }],
      ]),
      resetAt: [],
      actionDoneAt: [],
    });
    state.ctas.set('13', {
      activeStateMachines: new Map([['expired', { ...machine('1', NOW), createdAt: NOW - TTL }]]),
      resetAt: [],
      actionDoneAt: [],
    });
    state.ctas.set('99', { activeStateMachines: new Map([['k', machine('1', NOW)]]), resetAt: [], actionDoneAt: [] });
    state.tags.set('gone', { activeCtas: ['12'], ctasResetAt: [] });
    state.tags.set('tag', { activeCtas: ['12'], ctasResetAt: [] });
    expect(pruneUserState(state, catalogue, NOW)).toBe(true);
    expect([...state.ctas.keys()]).toEqual(['12']);
    expect([...state.ctas.get('12')!.activeStateMachines.keys()]).toEqual(['alive']);
    expect([...state.tags.keys()]).toEqual(['tag']);
    expect(pruneUserState(state, catalogue, NOW)).toBe(false);
  });

  it("releases a tag: drops from activeCtas the ids of CTAs without kept state, keeps ctasResetAt and the tag's other ids", () => {
    const state = emptyUserState();
    state.tags.set('tag', { activeCtas: ['99', '12', 'x', '13'], ctasResetAt: [{ ctaId: '99', resetAt: 5 }] });
    expect(pruneUserState(state, catalogue, NOW)).toBe(true);
    expect(state.tags.get('tag')).toEqual({ activeCtas: ['12', '13'], ctasResetAt: [{ ctaId: '99', resetAt: 5 }] });
    expect(pruneUserState(state, catalogue, NOW)).toBe(false);
    // A tag left with nothing goes, as any empty entry.
    state.tags.set('tag', { activeCtas: ['99'], ctasResetAt: [] });
    expect(pruneUserState(state, catalogue, NOW)).toBe(true);
    expect(state.tags.size).toBe(0);
  });
});

describe('stored text', () => {
  it('round-trips, client keys such as __proto__ included', () => {
    const state = stateWith({ ['__proto__']: machine('1', NOW, { context: { a: 1 } }), k: machine('2', NOW) });
    state.tags.set('__proto__', { activeCtas: ['12'], ctasResetAt: [{ ctaId: '12', resetAt: 1 }] });
    const copy = parseUserState(serializeUserState(state));
    expect(copy).toEqual(state);
    expect(JSON.parse(`{"activeStateMachines":${userStateJson(copy).cta('12')}}`)).toEqual({
      activeStateMachines: JSON.parse(
        `{"__proto__":${JSON.stringify(machine('1', NOW, { context: { a: 1 } }))},"k":${JSON.stringify(machine('2', NOW))}}`,
      ),
      resetAt: [1],
      actionDoneAt: [2],
    });
  });

  it('starts with the launch index: per CTA its oldest createdAt, machine count, each key and machine length, its lists length', () => {
    const [a, b] = [machine('1', NOW), machine('1', NOW, { createdAt: NOW - 30 })];
    const state = stateWith({ a, 'b"': b });
    state.ctas.set('13', { activeStateMachines: new Map(), resetAt: [], actionDoneAt: [NOW] });
    const text = serializeUserState(state);
    const [aJson, bJson] = [JSON.stringify(a), JSON.stringify(b)];
    const lists12 = ',"resetAt":[1],"actionDoneAt":[2]';
    const lists13 = `,"resetAt":[],"actionDoneAt":[${NOW}]`;
    const members =
      `"ctas":[["12",{"activeStateMachines":[["a",${aJson}],["b\\"",${bJson}]]${lists12}}],` +
      `["13",{"activeStateMachines":[]${lists13}}]],"tags":[]}`;
    const index = `${NOW - 30},2,3,${aJson.length},5,${bJson.length},${lists12.length};0,0,${lists13.length}`;
    expect(text).toBe(`{"launch":"${index}",${members}`);
    expect(documentBytes(text)).toBe(Buffer.byteLength(`{${members}`));
    expect(serializeUserState(emptyUserState())).toBe('{"launch":"","ctas":[],"tags":[]}');
  });

  it('reads a document stored before the index, which is the same document without the index', () => {
    const text = serializeUserState(stateWith({ k: machine('1', NOW) }));
    const { launch, ...before } = JSON.parse(text) as { launch: string };
    expect(launch).toMatch(/^[\d,;]+$/);
    const json = JSON.stringify(before);
    expect(parseUserState(json)).toEqual(stateWith({ k: machine('1', NOW) }));
    expect(documentBytes(json)).toBe(Buffer.byteLength(json));
    expect(documentBytes(text)).toBe(Buffer.byteLength(json));
    const reading = readStoredUserState(json);
    expect(reading.json.cta('12')).toBe(userStateJson(stateWith({ k: machine('1', NOW) })).cta('12'));
    expect(reading.ctas.get('12')).toEqual({ machineCount: 1, oldestCreatedAt: NOW - 10, resetAt: [1], actionDoneAt: [2] });
  });
});

describe('readStoredUserState (the launch reading a stored text)', () => {
  /** What a launch answers of `state`, CTA by CTA and tag by tag. */
  const answered = (json: ReturnType<typeof userStateJson>, ctaIds: string[], tagNames: string[]) => ({
    ctas: ctaIds.map((ctaId) => json.cta(ctaId)),
    tags: tagNames.map((name) => json.tag(name)),
  });
  /** What the launch reads besides the answer: each CTA's count, oldest age and lists, each tag's lists. */
  const read = (reading: ReturnType<typeof readStoredUserState>) => ({
    ctas: [...reading.ctas].map(([ctaId, cta]) => [ctaId, cta.machineCount, cta.oldestCreatedAt, cta.resetAt, cta.actionDoneAt]),
    tags: [...reading.tags].map(([name, tag]) => [name, tag.activeCtas, tag.ctasResetAt]),
  });
  /**
   * A state of machines `keys` of CTA 12 (the first nesting `nested`, the second with its own
   * `createdAt` and odd values), CTA 13 of lists only, and the tag `tagName`.
   */
  const oddState = (keys: [string, string], nested: Record<string, string>, tagName: string) => {
    const state = stateWith({
      [keys[0]]: machine('1', NOW, { context: { createdAt: 'nested', ...nested, list: [[], {}, '\u2028é😀'] } }),
      [keys[1]]: machine('2', NOW, { createdAt: NOW - 20, extra: null, flags: [true, false, 1.5e-7] }),
    });
    state.ctas.set('13', { activeStateMachines: new Map(), resetAt: [], actionDoneAt: [NOW] });
    state.tags.set(tagName, { activeCtas: ['12', '13'], ctasResetAt: [{ ctaId: '12', resetAt: 1 }] });
    return state;
  };
  const ids = ['12', '13', '14'];

  it.each([
    [
      'through the index, escapes and brackets in machine keys and values included',
      ['__proto__', 'k"ey\\['],
      { '"]}[{': 'a\\"b' },
      'tag]}',
    ],
    ['parsed, for a tag name with an escape', ['__proto__', 'key,]'], { ']}[{,:': '{[' }, 'ta"g\\'],
  ] as const)('answers what the parsed text gives: %s', (how, keys, nested, tagName) => {
    const state = oddState([...keys], nested, tagName);
    const text = serializeUserState(state);
    const parse = jest.spyOn(JSON, 'parse');
    const reading = readStoredUserState(text);
    expect(parse.mock.calls.some(([parsed]) => parsed === text)).toBe(how.startsWith('parsed'));
    parse.mockRestore();
    const names = [tagName, 'other'];
    expect(answered(reading.json, ids, names)).toEqual(answered(userStateJson(parseUserState(text)), ids, names));
    expect(read(reading)).toEqual({
      ctas: [
        ['12', 2, NOW - 20, [1], [2]],
        ['13', 0, 0, [], [NOW]],
      ],
      tags: [[tagName, ['12', '13'], [{ ctaId: '12', resetAt: 1 }]]],
    });
  });

  it('tells whether pruning drops anything as pruning the parsed text does', () => {
    const cases: [string, (state: UserState) => void][] = [
      ['nothing to drop', () => undefined],
      ['an expired machine', (state) => state.ctas.get('12')!.activeStateMachines.set('old', machine('1', NOW, { createdAt: NOW - TTL }))],
      ['a CTA without kept state', (state) => state.ctas.set('99', { activeStateMachines: new Map(), resetAt: [1], actionDoneAt: [] })],
      ['an unknown tag', (state) => state.tags.set('other', { activeCtas: [], ctasResetAt: [{ ctaId: '12', resetAt: 1 }] })],
      ["a tag's active CTA without kept state", (state) => state.tags.set('tag', { activeCtas: ['12', '99'], ctasResetAt: [] })],
      ['an empty CTA entry', (state) => state.ctas.set('13', { activeStateMachines: new Map(), resetAt: [], actionDoneAt: [] })],
      ['an empty tag entry', (state) => state.tags.set('tag', { activeCtas: [], ctasResetAt: [] })],
    ];
    const outcomes = cases.map(([name, change]) => {
      const state = stateWith({ a: machine('1', NOW) });
      state.tags.set('tag', { activeCtas: ['12'], ctasResetAt: [] });
      change(state);
      const text = serializeUserState(state);
      return [name, pruneDropsAnything(readStoredUserState(text), catalogue, NOW), pruneUserState(parseUserState(text), catalogue, NOW)];
    });
    expect(outcomes).toEqual(cases.map(([name], index) => [name, index > 0, index > 0]));
  });

  it.each([
    ['spaces', '{"ctas": [], "tags": []}'],
    ['other key orders', '{"tags":[],"ctas":[]}'],
    [
      'an index entry of the wrong length',
      '{"launch":"1,1,3,30,27","ctas":[["12",{"activeStateMachines":[["a",{"createdAt":1}]],"resetAt":[],"actionDoneAt":[]}]],"tags":[]}',
    ],
    [
      'an index of fewer entries than CTAs',
      '{"launch":"","ctas":[["12",{"activeStateMachines":[],"resetAt":[1],"actionDoneAt":[]}]],"tags":[]}',
    ],
    ['a negative length', '{"launch":"0,0,-5","ctas":[["12",{"activeStateMachines":[],"resetAt":[1],"actionDoneAt":[]}]],"tags":[]}'],
    [
      'a machine without a numeric createdAt, stored before the index',
      '{"ctas":[["12",{"activeStateMachines":[["a",{"createdAt":"1"}]],"resetAt":[],"actionDoneAt":[]}]],"tags":[]}',
    ],
  ])('parses a text of another shape (%s) instead', (_shape, text) => {
    const reading = readStoredUserState(text);
    const parsed = parseUserState(text);
    expect([...reading.ctas.keys()]).toEqual([...parsed.ctas.keys()]);
    expect(reading.json.cta('12')).toEqual(userStateJson(parsed).cta('12'));
  });
});

describe('boundUserState', () => {
  const limits = { maxMachinesPerCta: 3, maxUserStateBytes: 100_000 };
  const aged = (lastTransitionAt: number, createdAt = 0): StateMachine => stateMachine('1', lastTransitionAt, { createdAt });

  it('keeps the newest machines of each CTA, by lastTransitionAt then createdAt', () => {
    const state = emptyUserState();
    state.ctas.set('12', {
      activeStateMachines: new Map([
        ['a', aged(5)],
        ['b', aged(1)],
        ['c', aged(5, 1)],
        ['d', aged(3)],
        ['e', aged(5, 0)],
      ]),
      resetAt: [],
      actionDoneAt: [],
    });
    const { json, truncations } = boundUserState(state, limits);
    expect([...state.ctas.get('12')!.activeStateMachines.keys()].sort()).toEqual(['a', 'c', 'e']);
    expect(truncations).toEqual([{ reason: 'machines_per_cta', ctaId: '12', dropped: 2 }]);
    expect(json).toBe(serializeUserState(state));
  });

  it('drops the oldest machines across CTAs past the byte cap, then the older half of the longest list', () => {
    const state = emptyUserState();
    const pad = 'x'.repeat(200);
    for (const ctaId of ['12', '13']) {
      state.ctas.set(ctaId, {
        activeStateMachines: new Map(
          Array.from({ length: 3 }, (_, index) => [`${ctaId}-${index}`, { ...aged(ctaId === '12' ? index * 2 : index * 2 + 1), pad }]),
        ),
        resetAt: [],
        actionDoneAt: [],
      });
    }
    const small = { maxMachinesPerCta: 10, maxUserStateBytes: 900 };
    const { json, truncations } = boundUserState(state, small);
    expect(documentBytes(json)).toBeLessThanOrEqual(900);
    // The newest machines of both CTAs remain: ages 5 (13-2) and 4 (12-2), …
    const kept = [...state.ctas].flatMap(([, cta]) => [...cta.activeStateMachines.values()].map((machine) => machine.lastTransitionAt));
    expect(kept.length).toBeGreaterThan(0);
    expect(Math.min(...kept)).toBe(6 - kept.length);
    expect(truncations.every((truncation) => truncation.reason === 'user_state_bytes')).toBe(true);

    const lists = emptyUserState();
    lists.tags.set('tag', { activeCtas: Array.from({ length: 1000 }, (_, index) => String(index)), ctasResetAt: [] });
    const bounded = boundUserState(lists, { maxMachinesPerCta: 10, maxUserStateBytes: 2000 });
    expect(documentBytes(bounded.json)).toBeLessThanOrEqual(2000);
    const activeCtas = lists.tags.get('tag')!.activeCtas;
    // The newest (last) entries are the ones kept.
    expect(activeCtas[activeCtas.length - 1]).toBe('999');
    expect(bounded.truncations[0]).toEqual({ reason: 'user_state_bytes', behaviourTagName: 'tag', dropped: 500 });
  });
});

describe('dropsOnCatalogueWord', () => {
  const none = request({});
  it('is true when a snapshot or the stored state names a CTA or tag the catalogue does not keep', () => {
    expect(dropsOnCatalogueWord(emptyUserState(), request({ ctas: [{ ctaId: '12', activeStateMachines: {} }] }), catalogue, NOW)).toBe(
      false,
    );
    expect(dropsOnCatalogueWord(emptyUserState(), request({ ctas: [{ ctaId: '99', activeStateMachines: {} }] }), catalogue, NOW)).toBe(
      true,
    );
    expect(dropsOnCatalogueWord(emptyUserState(), request({ behaviourTags: [{ behaviourTagName: 'other' }] }), catalogue, NOW)).toBe(true);
    const stored = stateWith({});
    expect(dropsOnCatalogueWord(stored, none, catalogue, NOW)).toBe(false);
    stored.ctas.set('99', { activeStateMachines: new Map(), resetAt: [1], actionDoneAt: [] });
    expect(dropsOnCatalogueWord(stored, none, catalogue, NOW)).toBe(true);
  });

  it("is true when a tag's activeCtas, stored or sent, or the caller's other CTA ids name a CTA the catalogue does not keep", () => {
    const active = (activeCtas: string[]) => request({ behaviourTags: [{ behaviourTagName: 'tag', ctaRelation: { activeCtas } }] });
    expect(dropsOnCatalogueWord(emptyUserState(), active(['12', '13']), catalogue, NOW)).toBe(false);
    expect(dropsOnCatalogueWord(emptyUserState(), active(['12', '99']), catalogue, NOW)).toBe(true);
    const stored = emptyUserState();
    stored.tags.set('tag', { activeCtas: ['12'], ctasResetAt: [{ ctaId: '99', resetAt: 1 }] });
    expect(dropsOnCatalogueWord(stored, none, catalogue, NOW)).toBe(false);
    expect(dropsOnCatalogueWord(stored, none, catalogue, NOW, ['13'])).toBe(false);
    expect(dropsOnCatalogueWord(stored, none, catalogue, NOW, ['99'])).toBe(true);
    stored.tags.set('tag', { activeCtas: ['12', '99'], ctasResetAt: [] });
    expect(dropsOnCatalogueWord(stored, none, catalogue, NOW)).toBe(true);
  });
});

describe('withinLimits', () => {
  it('measures the bytes of the document and the machines of each CTA', () => {
    const text = serializeUserState(stateWith({ a: machine('1', NOW), b: machine('1', NOW) }));
    const reading = readStoredUserState(text);
    expect(withinLimits(reading, text, { maxMachinesPerCta: 2, maxUserStateBytes: documentBytes(text) })).toBe(true);
    expect(withinLimits(reading, text, { maxMachinesPerCta: 1, maxUserStateBytes: 100_000 })).toBe(false);
    expect(withinLimits(reading, text, { maxMachinesPerCta: 2, maxUserStateBytes: documentBytes(text) - 1 })).toBe(false);
  });
});
