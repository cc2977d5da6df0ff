import { SlotGate } from './slot-gate';

describe('SlotGate', () => {
  afterEach(() => jest.useRealTimers());

  /** Enters `key`, recording its turn or refusal under `name` in `events`. */
  const enterer = (gate: SlotGate, events: string[]) => (key: string, name: string) =>
    gate.enter(
      key,
      () => events.push(`${name} turn`),
      () => events.push(`${name} refused`),
    );

  it('lets `slots` holders through, one per key; a freed slot goes to the first waiting ticket whose key is free', () => {
    const gate = new SlotGate({ slots: 2, maxWaiting: 10, maxWaitMs: 60_000 });
    const events: string[] = [];
    const enter = enterer(gate, events);
    const a1 = enter('a', 'a1')!;
    const a2 = enter('a', 'a2')!;
    const b1 = enter('b', 'b1')!;
    const c1 = enter('c', 'c1')!;
    const b2 = enter('b', 'b2')!;
    expect([a1.state, a2.state, b1.state, c1.state, b2.state]).toEqual(['holding', 'waiting', 'holding', 'waiting', 'waiting']);
    expect([gate.holding, gate.waiting]).toEqual([2, 3]);
    // b's slot: b2 is b's, but a2 comes first and a is still held, so c1 (arrived before b2) takes it.
    gate.leave(b1);
    expect(events).toEqual(['c1 turn']);
    gate.leave(a1);
    expect(events).toEqual(['c1 turn', 'a2 turn']);
    gate.leave(a1);
    gate.leave(c1);
    expect(events).toEqual(['c1 turn', 'a2 turn', 'b2 turn']);
    gate.leave(a2);
    gate.leave(b2);
    expect([gate.holding, gate.waiting]).toEqual([0, 0]);
  });

  it('refuses one more past `maxWaiting` at once, and a waiting ticket once it waited `maxWaitMs`', () => {
    jest.useFakeTimers();
    const gate = new SlotGate({ slots: 1, maxWaiting: 1, maxWaitMs: 1000 });
    const events: string[] = [];
    const enter = enterer(gate, events);
    const holder = enter('a', 'holder')!;
    const waiting = enter('b', 'waiting')!;
    expect(enter('c', 'one more')).toBeNull();
    jest.advanceTimersByTime(999);
    expect(events).toEqual([]);
    jest.advanceTimersByTime(1);
    expect([events, waiting.state, gate.waiting]).toEqual([['waiting refused'], 'refused', 0]);
    // A refused ticket's leave changes nothing; the holder's frees the slot.
    gate.leave(waiting);
    gate.leave(holder);
    expect([gate.holding, gate.waiting]).toEqual([0, 0]);
  });

  it('drops a waiting ticket that leaves before its turn (an aborted request), never handing it a slot', () => {
    jest.useFakeTimers();
    const gate = new SlotGate({ slots: 1, maxWaiting: 4, maxWaitMs: 1000 });
    const events: string[] = [];
    const enter = enterer(gate, events);
    const holder = enter('a', 'holder')!;
    const gone = enter('b', 'gone')!;
    const next = enter('c', 'next')!;
    gate.leave(gone);
    gate.leave(holder);
    jest.advanceTimersByTime(5000);
    expect([events, next.state, gate.holding]).toEqual([['next turn'], 'holding', 1]);
  });
});
