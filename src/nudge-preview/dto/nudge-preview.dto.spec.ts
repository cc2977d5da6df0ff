import { expectDomainError } from '../../../test/expect-thrown';
import { ErrorCode } from '../../common/error-code';
import { validationPipe } from '../../common/validation';
import { MAX_PREVIEW_ID_LENGTH, MAX_PREVIEW_TTL_SECONDS, WriteNudgePreviewDto } from './nudge-preview.dto';

const pipe = validationPipe(ErrorCode.INVALID_REQUEST);
const validate = (value: unknown) => pipe.transform(value, { type: 'body', metatype: WriteNudgePreviewDto });

describe('the nudge preview write body', () => {
  it.each([1, 600, MAX_PREVIEW_TTL_SECONDS, null, undefined])(
    'accepts ttl %p (whole seconds, up to 30 days; none for the default)',
    async (ttl) => {
      expect(MAX_PREVIEW_TTL_SECONDS).toBe(30 * 24 * 60 * 60);
      await expect(validate({ id: 'p', template: 't', ttl })).resolves.toBeInstanceOf(WriteNudgePreviewDto);
    },
  );

  it.each<[unknown, RegExp]>([
    [0, /^ttl must not be less than 1$/],
    [-5, /^ttl must not be less than 1$/],
    [MAX_PREVIEW_TTL_SECONDS + 1, /^ttl must not be greater than 2592000$/],
    [1.5, /^ttl must be an integer number$/],
    ['60', /^ttl must be an integer number$/],
  ])('refuses ttl %p with INVALID_REQUEST naming it', async (ttl, message) => {
    const error = await expectDomainError(() => validate({ id: 'p', template: 't', ttl }), ErrorCode.INVALID_REQUEST);
    expect(error.message).toMatch(message);
  });

  it('leaves a missing, null or empty id or template to the service (its own error code), but refuses other types', async () => {
    await expect(validate({})).resolves.toBeInstanceOf(WriteNudgePreviewDto);
    await expect(validate({ id: null, template: '' })).resolves.toBeInstanceOf(WriteNudgePreviewDto);
    expect((await expectDomainError(() => validate({ id: 5, template: { html: 'x' } }), ErrorCode.INVALID_REQUEST)).message).toBe(
      'id must be a string; template must be a string',
    );
  });

  it(`takes ids of up to ${MAX_PREVIEW_ID_LENGTH} characters`, async () => {
    await expect(validate({ id: 'i'.repeat(MAX_PREVIEW_ID_LENGTH), template: 't' })).resolves.toBeDefined();
    expect((await expectDomainError(() => validate({ id: 'i'.repeat(256), template: 't' }))).message).toMatch(
      /^id must be shorter than or equal to 255/,
    );
  });
});
