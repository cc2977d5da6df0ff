import { ServedRuleEntry, shadowsOf } from './shadowing';

/** A served CTA of `priority` triggered by `events`. */
const served = (ctaId: string, priority: number, ...events: string[]): ServedRuleEntry => ({
  ctaId,
  rule: { priority, stateTransition: Object.fromEntries(events.map((event) => [event, { '0': [{ transitionTo: '1' }] }])) },
});

describe('shadowsOf', () => {
  it('names, for a CTA, the one the device tries first on the trigger events they share: the lower priority number', () => {
    // The launch answers priority descending; the device tries ascending.
    const shadows = shadowsOf([served('1', 9, 'open', 'buy'), served('2', 3, 'open', 'view'), served('3', 1, 'scroll')]);
    expect(shadows.get('1')).toEqual([{ ctaId: '2', priority: 3, events: ['open'] }]);
    expect(shadows.has('2')).toBe(false);
    expect(shadows.has('3')).toBe(false);
  });

  it('keeps the launch answer’s order between CTAs of one priority, as the device’s stable sort does', () => {
    const shadows = shadowsOf([served('4', 5, 'open'), served('7', 5, 'open'), served('2', 5, 'open')]);
    expect(shadows.has('4')).toBe(false);
    expect(shadows.get('7')).toEqual([{ ctaId: '4', priority: 5, events: ['open'] }]);
    expect(shadows.get('2')).toEqual([{ ctaId: '4', priority: 5, events: ['open'] }]);
  });

  it('names per shared event the CTA tried first on it, one shadow per such CTA in the device’s order', () => {
    const shadows = shadowsOf([served('1', 9, 'open', 'view', 'buy', 'own'), served('2', 4, 'view', 'buy'), served('3', 2, 'open')]);
    expect(shadows.get('1')).toEqual([
      { ctaId: '3', priority: 2, events: ['open'] },
      { ctaId: '2', priority: 4, events: ['view', 'buy'] },
    ]);
    // CTA 2 shares no event with CTA 3.
    expect(shadows.has('2')).toBe(false);
  });

  it('finds nothing for a single CTA or none', () => {
    expect(shadowsOf([served('1', 1, 'open')]).size).toBe(0);
    expect(shadowsOf([]).size).toBe(0);
  });
});
