import { type CtaRecord, ctaValidTill, editableFields, frequencyAsRead } from './cta-record';

describe('ctaValidTill', () => {
  it.each([
    ['the end time', { endTime: 5, isTest: false, expiresAt: null }, 5],
    ['null without an end time', { endTime: null, isTest: false, expiresAt: 9 }, null],
    ["a test CTA's expiry", { endTime: null, isTest: true, expiresAt: 9 }, 9],
    ['the end time before the expiry', { endTime: 5, isTest: true, expiresAt: 9 }, 5],
  ])('is %s', (_case, cta, validTill) => {
    expect(ctaValidTill(cta)).toBe(validTill);
  });
});

describe('frequencyAsRead', () => {
  it('puts lifespan right after lifeSpan, equal, keeping every other key in place', () => {
    const read = frequencyAsRead({ session: { limit: 1 }, lifeSpan: { limit: 5 }, cooldown: 3 });
    expect(read).toEqual({ session: { limit: 1 }, lifeSpan: { limit: 5 }, lifespan: { limit: 5 }, cooldown: 3 });
    expect(Object.keys(read as object)).toEqual(['session', 'lifeSpan', 'lifespan', 'cooldown']);
  });

  it('lets lifeSpan win over a stored lifespan, keeps a lone lifespan and passes anything else as it is', () => {
    expect(frequencyAsRead({ lifespan: { limit: 1 }, lifeSpan: { limit: 2 } })).toEqual({ lifeSpan: { limit: 2 }, lifespan: { limit: 2 } });
    expect(frequencyAsRead({ lifespan: { limit: 1 } })).toEqual({ lifespan: { limit: 1 } });
    for (const odd of [undefined, null, 'daily', [1]]) expect(frequencyAsRead(odd)).toBe(odd);
  });
});

describe('editableFields', () => {
  it("answers what an update sends: the record's editable fields, its rule without the derived ctaValidTill", () => {
    const rule = { priority: 5, stateToAction: {}, ctaValidTill: 99 } as unknown as CtaRecord['rule'];
    const record: CtaRecord = {
      id: 7,
      name: 'fixed at creation',
      description: null,
      tags: ['store'],
      team: 'growth',
      behaviourTags: ['store-nudges'],
      startTime: 5,
      endTime: 99,
      ctaStatus: 'paused',
      rule,
      experiment: { holdoutPercent: 10, goal: { state: '2' }, windowDays: 7, holdoutEvent: 'cta_holdout' },
      capExempt: true,
      createdAt: 1,
      createdBy: 'alice',
      lastUpdatedAt: 2,
      lastUpdatedBy: 'bob',
      tenantId: 't',
    };
    expect(editableFields(record)).toEqual({
      description: null,
      tags: ['store'],
      team: 'growth',
      startTime: 5,
      endTime: 99,
      rule: { priority: 5, stateToAction: {} },
      experiment: { holdoutPercent: 10, goal: { state: '2' }, windowDays: 7, holdoutEvent: 'cta_holdout' },
      capExempt: true,
    });
    expect(rule.ctaValidTill).toBe(99);
  });
});
