import { ctaValidTill } from './cta-record';

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
