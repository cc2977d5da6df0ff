import type { ExecutionContext } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { ApiKeyGuard } from './api-key.guard';

const contextWith = (headers: Record<string, string>): ExecutionContext =>
  ({ switchToHttp: () => ({ getRequest: () => ({ headers }) }) }) as unknown as ExecutionContext;

describe('ApiKeyGuard', () => {
  const guard = new ApiKeyGuard(['first-key', 'second-key']);

  it.each([
    ['a bearer key', { authorization: 'Bearer first-key' }],
    ['a lower-case bearer scheme', { authorization: 'bearer second-key' }],
    ['an x-api-key', { 'x-api-key': 'second-key' }],
    ['a valid x-api-key beside an app token', { authorization: 'Bearer app-session-token', 'x-api-key': 'first-key' }],
  ])('lets %s through', (_, headers) => {
    expect(guard.canActivate(contextWith(headers))).toBe(true);
  });

  it.each([
    ['no key', {}],
    ['a wrong key', { 'x-api-key': 'first-key-but-longer' }],
    ['a key without the Bearer scheme', { authorization: 'first-key' }],
    ['a prefix of a key', { authorization: 'Bearer first' }],
  ])('refuses %s with UNAUTHORIZED', (_, headers) => {
    const attempt = () => guard.canActivate(contextWith(headers));
    expect(attempt).toThrow(DomainError);
    expect(attempt).toThrow(expect.objectContaining({ code: ErrorCode.UNAUTHORIZED }));
  });
});
