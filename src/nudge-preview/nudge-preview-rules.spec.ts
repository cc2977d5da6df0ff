import { expectDomainError } from '../../test/expect-thrown';
import { ErrorCode } from '../common/error-code';
import { DEFAULT_PREVIEW_TTL_SECONDS, type WriteNudgePreviewDto } from './dto/nudge-preview.dto';
import { previewToStore, readablePreview } from './nudge-preview-rules';
import type { NudgePreviewEntity } from './nudge-preview.entity';

const NOW = 1_800_000_000_000;

describe('previewToStore', () => {
  it('stores the id and template as sent, for ttl seconds from now', () => {
    expect(previewToStore({ id: ' banner ', template: '<b>Hi</b>', ttl: 60 }, NOW)).toEqual({
      id: ' banner ',
      template: '<b>Hi</b>',
      ttl: 60,
      expiresAt: NOW + 60_000,
    });
  });

  it.each([
    ['absent', undefined],
    ['null', null],
  ])('takes %s ttl as the default, an hour', (_case, ttl) => {
    expect(DEFAULT_PREVIEW_TTL_SECONDS).toBe(3600);
    expect(previewToStore({ id: 'p', template: 't', ttl }, NOW)).toMatchObject({ ttl: 3600, expiresAt: NOW + 3_600_000 });
  });

  it.each<[string, WriteNudgePreviewDto, string]>([
    ['a missing id', { template: 't' }, 'id must not be null or empty'],
    ['a null id', { id: null, template: 't' }, 'id must not be null or empty'],
    ['an empty id', { id: '', template: 't' }, 'id must not be null or empty'],
    ['a blank id', { id: ' \t\n', template: 't' }, 'id must not be null or empty'],
    ['a missing template', { id: 'p' }, 'template must not be null or empty'],
    ['a null template', { id: 'p', template: null }, 'template must not be null or empty'],
    ['a blank template', { id: 'p', template: '   ' }, 'template must not be null or empty'],
    ['both missing (both are named)', {}, 'id must not be null or empty; template must not be null or empty'],
  ])('refuses %s with NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION', (_case, body, message) => {
    expect(expectDomainError(() => previewToStore(body, NOW), ErrorCode.NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION).message).toBe(message);
  });
});

describe('readablePreview', () => {
  const row = (expiresAt: number | string): NudgePreviewEntity =>
    ({ tenantId: 't', id: 'p', template: 'x', ttl: 60, expiresAt, updatedAt: NOW - 1000 }) as NudgePreviewEntity;

  it('answers the preview with its tenant and the ttl written, until it expires', () => {
    expect(readablePreview(row(NOW + 1), NOW)).toEqual({ id: 'p', template: 'x', tenantId: 't', ttl: 60 });
  });

  it('reads an expired preview as absent, from its expiry on, like one never written', () => {
    expect(readablePreview(row(NOW), NOW)).toBeNull();
    expect(readablePreview(row(NOW - 1), NOW)).toBeNull();
    expect(readablePreview(null, NOW)).toBeNull();
  });

  it('compares the expiry as a number when the driver answers the bigint as a string', () => {
    expect(readablePreview(row(String(NOW + 1)), NOW)).not.toBeNull();
    expect(readablePreview(row(String(NOW - 1)), NOW)).toBeNull();
  });
});
