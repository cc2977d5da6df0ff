import { KeyedGate } from './keyed-gate';

describe('KeyedGate', () => {
  it('lets one ticket per key hold it, the next in arrival order when it leaves, other keys at once', () => {
    const gate = new KeyedGate(2);
    const turns: string[] = [];
    const first = gate.enter('a', () => turns.push('first'))!;
    const second = gate.enter('a', () => turns.push('second'))!;
    const third = gate.enter('a', () => turns.push('third'))!;
    const other = gate.enter('b', () => turns.push('other'))!;
    expect([first.state, second.state, third.state, other.state]).toEqual(['holding', 'waiting', 'waiting', 'holding']);
    expect(gate.enter('a', () => turns.push('refused'))).toBeNull();
    gate.leave(first);
    expect([turns, second.state]).toEqual([['second'], 'holding']);
    gate.leave(first);
    gate.leave(second);
    expect(turns).toEqual(['second', 'third']);
    gate.leave(third);
    gate.leave(other);
    expect([gate.size, gate.waitingFor('a')]).toEqual([0, 0]);
  });

  it('drops a waiting ticket that leaves before its turn (an aborted request), never handing it the key', () => {
    const gate = new KeyedGate(4);
    const turns: string[] = [];
    const holder = gate.enter('a', () => turns.push('holder'))!;
    const gone = gate.enter('a', () => turns.push('gone'))!;
    const next = gate.enter('a', () => turns.push('next'))!;
    gate.leave(gone);
    expect(gate.waitingFor('a')).toBe(1);
    gate.leave(holder);
    expect(turns).toEqual(['next']);
    gate.leave(next);
    expect(gate.size).toBe(0);
  });
});
