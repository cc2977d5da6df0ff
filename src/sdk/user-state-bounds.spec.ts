import type { CtaResetAt, StateMachine } from './snapshot-request';
import { boundUserState, StateLimits, Truncation } from './user-state-bounds';
import { documentBytes, emptyUserState, newest, parseUserState, serializeUserState, UserState } from './user-state';

const bytesOf = (state: UserState): number => documentBytes(serializeUserState(state));
const machine = (lastTransitionAt: number, createdAt: number, extra: Record<string, unknown> = {}): StateMachine => ({
  currentState: '1',
  lastTransitionAt,
  createdAt,
  ...extra,
});

/**
 * The caps as documented, the slow and obvious way: one oldest machine at a time, then the
 * older half of the longest list, serialising the whole document after every step.
 */
function referenceBound(state: UserState, limits: StateLimits): { json: string; truncations: Truncation[] } {
  const truncations: Truncation[] = [];
  for (const [ctaId, cta] of state.ctas) {
    const sorted = [...cta.activeStateMachines].sort(
      ([, a], [, b]) => a.lastTransitionAt - b.lastTransitionAt || a.createdAt - b.createdAt,
    );
    const excess = sorted.length - limits.maxMachinesPerCta;
    if (excess > 0) {
      sorted.slice(0, excess).forEach(([key]) => cta.activeStateMachines.delete(key));
      truncations.push({ reason: 'machines_per_cta', ctaId, dropped: excess });
    }
  }
  const clean = () => {
    for (const [id, cta] of state.ctas)
      if (!cta.activeStateMachines.size && !cta.resetAt.length && !cta.actionDoneAt.length) state.ctas.delete(id);
    for (const [name, tag] of state.tags) if (!tag.activeCtas.length && !tag.ctasResetAt.length) state.tags.delete(name);
  };
  if (bytesOf(state) <= limits.maxUserStateBytes) return { json: serializeUserState(state), truncations };
  clean();
  const byCta = new Map<string, number>();
  while (bytesOf(state) > limits.maxUserStateBytes) {
    const all = [...state.ctas].flatMap(([ctaId, cta]) => [...cta.activeStateMachines].map(([key, m]) => ({ ctaId, key, m })));
    if (all.length === 0) break;
    const oldest = all.reduce((a, b) => ((b.m.lastTransitionAt - a.m.lastTransitionAt || b.m.createdAt - a.m.createdAt) < 0 ? b : a));
    state.ctas.get(oldest.ctaId)!.activeStateMachines.delete(oldest.key);
    byCta.set(oldest.ctaId, (byCta.get(oldest.ctaId) ?? 0) + 1);
    clean();
  }
  byCta.forEach((dropped, ctaId) => truncations.push({ reason: 'user_state_bytes', ctaId, dropped }));
  while (bytesOf(state) > limits.maxUserStateBytes) {
    const lists: { length: number; cut: (count: number) => void; owner: object }[] = [];
    for (const [ctaId, cta] of state.ctas) {
      lists.push({ length: cta.resetAt.length, cut: (n) => (cta.resetAt = newest(cta.resetAt, (v) => v, n)), owner: { ctaId } });
      lists.push({
        length: cta.actionDoneAt.length,
        cut: (n) => (cta.actionDoneAt = newest(cta.actionDoneAt, (v) => v, n)),
        owner: { ctaId },
      });
    }
    for (const [behaviourTagName, tag] of state.tags) {
      lists.push({
        length: tag.activeCtas.length,
        cut: (n) => (tag.activeCtas = newest(tag.activeCtas, undefined, n)),
        owner: { behaviourTagName },
      });
      lists.push({
        length: tag.ctasResetAt.length,
        cut: (n) => (tag.ctasResetAt = newest(tag.ctasResetAt, (e: CtaResetAt) => e.resetAt, n)),
        owner: { behaviourTagName },
      });
    }
    const longest = lists.reduce((best, list) => (list.length > best.length ? list : best));
    if (longest.length === 0) break;
    longest.cut(longest.length >> 1);
    truncations.push({ reason: 'user_state_bytes', ...longest.owner, dropped: longest.length - (longest.length >> 1) });
    clean();
  }
  return { json: serializeUserState(state), truncations };
}

/** A deterministic pseudo-random sequence (mulberry32). */
function randomFrom(seed: number): (below: number) => number {
  let value = seed;
  return (below) => {
    value = (value + 0x6d2b79f5) | 0;
    let t = Math.imul(value ^ (value >>> 15), 1 | value);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

/** A state of random CTAs, machines (ages with ties, keys and contexts of any characters) and lists. */
function randomState(seed: number): UserState {
  const random = randomFrom(seed);
  const text = () => ['k', 'é', '"', '\\', '😀', 'x'.repeat(random(40))].slice(0, 1 + random(6)).join('');
  const state = emptyUserState();
  for (let cta = 0; cta < 1 + random(8); cta++) {
    const machines = new Map<string, StateMachine>();
    for (let index = 0; index < random(12); index++) {
      machines.set(`${text()}-${index}`, machine(random(20), random(5), random(2) ? { context: { note: text() } } : {}));
    }
    const list = () => Array.from({ length: random(30) }, () => 1_700_000_000_000 + random(50));
    state.ctas.set(String(1 + cta * 7), { activeStateMachines: machines, resetAt: list(), actionDoneAt: list() });
  }
  for (let tag = 0; tag < random(4); tag++) {
    state.tags.set(`tag-${text()}`, {
      activeCtas: Array.from({ length: random(40) }, () => String(random(1000))),
      ctasResetAt: Array.from({ length: random(40) }, () => ({ ctaId: String(random(1000)), resetAt: random(30) })),
    });
  }
  return state;
}

describe('boundUserState against the caps as documented', () => {
  it.each(Array.from({ length: 300 }, (_, seed) => seed))('keeps exactly what the step-by-step rule keeps (random state %i)', (seed) => {
    const original = serializeUserState(randomState(seed));
    const limits = { maxMachinesPerCta: 1 + randomFrom(seed + 1000)(10), maxUserStateBytes: 200 + randomFrom(seed + 2000)(3000) };
    const expected = referenceBound(parseUserState(original), limits);
    const state = parseUserState(original);
    const bounded = boundUserState(state, limits);
    expect(bounded.json).toBe(expected.json);
    expect(bounded.json).toBe(serializeUserState(state));
    expect(bounded.truncations).toEqual(expected.truncations);
  });

  it('halves 1,000 lists of 60 resetAt entries exactly as far as 256 KiB needs, longest first, then in document order', () => {
    const state = emptyUserState();
    const entry = (cta: number, index: number) => 1_764_000_000_000 + index * 1000 + cta;
    for (let cta = 1; cta <= 1000; cta++) {
      state.ctas.set(String(cta), {
        activeStateMachines: new Map(),
        resetAt: Array.from({ length: 60 }, (_, index) => entry(cta, index)),
        actionDoneAt: [],
      });
    }
    const maxUserStateBytes = 262_144;
    const { json, truncations } = boundUserState(state, { maxMachinesPerCta: 100, maxUserStateBytes });
    // Every list halved twice (60 → 30 → 15), then from the first CTA on to 7 until the document fits.
    const thrice = [...state.ctas.values()].filter((cta) => cta.resetAt.length === 7).length;
    expect(thrice).toBeGreaterThan(0);
    expect([...state.ctas.values()].map((cta) => cta.resetAt.length)).toEqual(
      Array.from({ length: 1000 }, (_, index) => (index < thrice ? 7 : 15)),
    );
    expect(documentBytes(json)).toBeLessThanOrEqual(maxUserStateBytes);
    // The newest entries are the ones kept, in the order sent.
    expect(state.ctas.get('1000')!.resetAt).toEqual(Array.from({ length: 15 }, (_, index) => entry(1000, 45 + index)));
    expect(state.ctas.get('1')!.resetAt).toEqual(Array.from({ length: 7 }, (_, index) => entry(1, 53 + index)));
    // One halving fewer would not fit: the last list halved three times, back at 15 entries.
    state.ctas.get(String(thrice))!.resetAt = Array.from({ length: 15 }, (_, index) => entry(thrice, 45 + index));
    expect(bytesOf(state)).toBeGreaterThan(maxUserStateBytes);
    expect(truncations).toHaveLength(2000 + thrice);
    expect(truncations.slice(0, 2)).toEqual([
      { reason: 'user_state_bytes', ctaId: '1', dropped: 30 },
      { reason: 'user_state_bytes', ctaId: '2', dropped: 30 },
    ]);
  });

  it('keeps exactly the newest machines that fit of 1,000 CTAs × 10, and the newest 100 of 1,000 machines of one CTA', () => {
    const state = emptyUserState();
    let age = 0;
    for (let cta = 1; cta <= 1000; cta++) {
      const machines = new Map<string, StateMachine>();
      for (let index = 0; index < 10; index++) {
        // Ages interleaved across CTAs: machine k of every CTA is older than machine k + 1 of any.
        machines.set(`m-${cta}-${index}`, machine(index * 1000 + cta, 0));
        age++;
      }
      state.ctas.set(String(cta), { activeStateMachines: machines, resetAt: [], actionDoneAt: [] });
    }
    const single = new Map<string, StateMachine>(Array.from({ length: 1000 }, (_, index) => [`s-${index}`, machine(1_000_000 + index, 0)]));
    state.ctas.set('5000', { activeStateMachines: single, resetAt: [], actionDoneAt: [] });
    const maxUserStateBytes = 262_144;
    const { json, truncations } = boundUserState(state, { maxMachinesPerCta: 100, maxUserStateBytes });
    expect(age).toBe(10_000);
    expect([...state.ctas.get('5000')!.activeStateMachines.keys()]).toEqual(Array.from({ length: 100 }, (_, index) => `s-${900 + index}`));
    expect(truncations[0]).toEqual({ reason: 'machines_per_cta', ctaId: '5000', dropped: 900 });
    const kept = [...state.ctas.values()].flatMap((cta) => [...cta.activeStateMachines.values()].map((entry) => entry.lastTransitionAt));
    const all = Array.from({ length: 10_000 }, (_, index) => index).map((index) => (index % 10) * 1000 + Math.floor(index / 10) + 1);
    const newestAll = [...all, ...Array.from({ length: 100 }, (_, index) => 1_000_000 + 900 + index)].sort((a, b) => b - a);
    expect(kept.sort((a, b) => b - a)).toEqual(newestAll.slice(0, kept.length));
    expect(documentBytes(json)).toBeLessThanOrEqual(maxUserStateBytes);
    // The next older machine would not have fitted.
    const nextOlder = newestAll[kept.length];
    const cta = String(((nextOlder - 1) % 1000) + 1);
    const entry = state.ctas.get(cta) ?? { activeStateMachines: new Map(), resetAt: [], actionDoneAt: [] };
    entry.activeStateMachines.set(`m-${cta}-${Math.floor((nextOlder - 1) / 1000)}`, machine(nextOlder, 0));
    state.ctas.set(cta, entry);
    expect(bytesOf(state)).toBeGreaterThan(maxUserStateBytes);
    const droppedForBytes = truncations.filter((truncation) => truncation.reason === 'user_state_bytes');
    expect(droppedForBytes.reduce((sum, truncation) => sum + truncation.dropped, 0)).toBe(10_100 - kept.length);
  });
});
