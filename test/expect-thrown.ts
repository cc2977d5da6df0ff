import { DomainError } from '../src/common/domain-error';
import type { ErrorCode } from '../src/common/error-code';

/**
 * Runs `run` and answers what it threw (or its promise rejected with), after checking it is a
 * `type`; fails the test when nothing was thrown. Lives under test/, so the build never ships it.
 */
export function expectThrown<E>(type: abstract new (...args: any[]) => E, run: () => Promise<unknown>): Promise<E>;
export function expectThrown<E>(type: abstract new (...args: any[]) => E, run: () => unknown): E;
export function expectThrown<E>(type: abstract new (...args: any[]) => E, run: () => unknown): E | Promise<E> {
  const thrown = (error: unknown): E => {
    expect(error).toBeInstanceOf(type);
    return error as E;
  };
  const accepted = (): never => {
    throw new Error(`expected a ${type.name}, but nothing was thrown`);
  };
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    return thrown(error);
  }
  return result instanceof Promise ? result.then(accepted, thrown) : accepted();
}

/** `expectThrown` of a DomainError, with `code` when given. */
export function expectDomainError(run: () => Promise<unknown>, code?: ErrorCode): Promise<DomainError>;
export function expectDomainError(run: () => unknown, code?: ErrorCode): DomainError;
export function expectDomainError(run: () => unknown, code?: ErrorCode): DomainError | Promise<DomainError> {
  const withCode = (error: DomainError): DomainError => {
    if (code !== undefined) expect(error.code).toBe(code);
    return error;
  };
  const error = expectThrown(DomainError, run);
  return error instanceof Promise ? error.then(withCode) : withCode(error);
}
