import { type CtaRecord, ctaValidTill, editableFields } from './cta-record';

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
    });
    expect(rule.ctaValidTill).toBe(99);
  });
});
