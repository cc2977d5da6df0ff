import { deviceView, LaunchCtaEntry, LaunchTagEntry } from './device-view';

const NOW = 10 * 86_400_000;
const DAY = 86_400_000;

const entry = (ctaId: string, resetAt: number[] = []): LaunchCtaEntry => ({
  ctaId,
  rule: {
    frequency: { session: { limit: 1 }, window: { limit: 2, unit: 'days', value: 1 }, lifeSpan: { limit: 3 } },
  },
  activeStateMachines: { 'store-1': { currentState: '2' } },
  resetAt,
  behaviourTagName: 'tag',
});

function tag(
  relation: 'ANY/REST' | 'LIST/LIST',
  activeCtas: string[],
  lists: { shown?: string[]; hide?: string[] } = {},
  resets: [string, number][] = [],
): LaunchTagEntry {
  const [shown, hide] = relation.split('/') as ['ANY' | 'LIST', 'REST' | 'LIST'];
  return {
    behaviourTagName: 'tag',
    exposureRule: {
      session: { limit: 1 },
      window: { limit: 2, unit: 'hours', value: 1 },
      lifespan: { limit: 4 },
      ctasResetAt: resets.map(([ctaId, resetAt]) => ({ ctaId, resetAt })),
    },
    ctaRelation: { shownCta: { rule: shown, ctaList: lists.shown ?? [] }, hideCta: { rule: hide, ctaList: lists.hide ?? [] }, activeCtas },
  };
}

describe('deviceView', () => {
  it('counts resets against the lifeSpan and window caps, the window boundary included', () => {
    const view = deviceView(entry('1', [NOW - 3 * DAY, NOW - DAY, NOW - 1]), undefined, 2, NOW);
    expect(view).toEqual({
      machines: { 'store-1': '2' },
      lifespan: { count: 3, limit: 3, reached: true },
      window: { count: 2, limit: 2, reached: true },
      tag: null,
      expiredMachines: 2,
    });
  });

  it('ANY/REST: any other active CTA of the tag blocks it', () => {
    expect(deviceView(entry('1'), tag('ANY/REST', ['1']), 0, NOW).tag).toEqual({ blocked: false, by: [], relation: 'ANY/REST' });
    expect(deviceView(entry('1'), tag('ANY/REST', ['2', '1']), 0, NOW).tag).toEqual({ blocked: true, by: ['2'], relation: 'ANY/REST' });
  });

  it('LIST/LIST: the shown list is the capacity; a CTA of the hide list waits until none is active', () => {
    const lists = { shown: ['1', '2'], hide: ['3'] };
    expect(deviceView(entry('1'), tag('LIST/LIST', ['2'], lists), 0, NOW).tag?.blocked).toBe(false);
    expect(deviceView(entry('1'), tag('LIST/LIST', ['2', '4'], lists), 0, NOW).tag).toMatchObject({ blocked: true, by: ['2', '4'] });
    expect(deviceView(entry('1'), tag('LIST/LIST', ['1', '2'], lists), 0, NOW).tag?.blocked).toBe(false);
    expect(deviceView(entry('3'), tag('LIST/LIST', ['2'], lists), 0, NOW).tag).toMatchObject({ blocked: true, by: ['2'] });
  });

  it("blocks once the tag's exposure caps are reached, by the CTAs whose resets count", () => {
    const hour = 3_600_000;
    const inWindow = tag('ANY/REST', [], {}, [
      ['2', NOW - hour],
      ['3', NOW - 1],
    ]);
    expect(deviceView(entry('1'), inWindow, 0, NOW).tag).toEqual({ blocked: true, by: ['2', '3'], relation: 'ANY/REST' });
    const lifetime = tag('ANY/REST', [], {}, [
      ['2', 1],
      ['2', 2],
      ['3', 3],
      ['4', 4],
    ]);
    expect(deviceView(entry('1'), lifetime, 0, NOW).tag).toEqual({ blocked: true, by: ['2', '3', '4'], relation: 'ANY/REST' });
  });
});
