import type { FastifyRequest } from 'fastify';
import { expectDomainError } from '../../test/expect-thrown';
import { ErrorCode } from '../common/error-code';
import { SCHEDULER_ORIGIN } from './audit.types';
import { setAuditActor } from '../security/operator';
import { changeOriginOf } from './change-origin';

const request = (headers: Record<string, string> = {}, id = 'req-1'): FastifyRequest => ({ headers, id }) as unknown as FastifyRequest;

describe('changeOriginOf', () => {
  it('names the admin key its guard set for this request, and no key before or for another request', () => {
    const first = request();
    expect(changeOriginOf(first).actor).toBeNull();
    setAuditActor(first, 'ops-key');
    expect(changeOriginOf(first).actor).toBe('ops-key');
    expect(changeOriginOf(request()).actor).toBeNull();
  });

  it('takes the optional user header: trimmed, null when absent or blank, refused when too long', () => {
    expect(changeOriginOf(request({ user: ' alice@example.com ' })).user).toBe('alice@example.com');
    expect(changeOriginOf(request()).user).toBeNull();
    expect(changeOriginOf(request({ user: '   ' })).user).toBeNull();
    expect(expectDomainError(() => changeOriginOf(request({ user: 'u'.repeat(256) })), ErrorCode.INVALID_REQUEST).message).toBe(
      "header 'user' must be at most 255 characters",
    );
  });

  it('carries the request id', () => {
    expect(changeOriginOf(request({ user: 'bob' }, 'trace-7'))).toEqual({ actor: null, user: 'bob', requestId: 'trace-7' });
  });

  it('is the scheduler, with no user or request, for the periodic job', () => {
    expect(SCHEDULER_ORIGIN).toEqual({ actor: 'scheduler', user: null, requestId: null });
  });
});
