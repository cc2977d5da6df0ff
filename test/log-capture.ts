import fs from 'node:fs';

/**
 * Hands every chunk the app's logger writes to `capture`: pino writes to process.stdout, or straight to
 * its file descriptor when stdout is untouched. Spies: restored by the suite's `jest.restoreAllMocks()`.
 */
export function captureLogWrites(capture: (chunk: unknown) => void): void {
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => (capture(chunk), true));
  jest.spyOn(fs, 'writeSync').mockImplementation((_fd: number, chunk: unknown) => (capture(chunk), Buffer.byteLength(String(chunk))));
  jest.spyOn(fs, 'write').mockImplementation(((_fd: number, chunk: unknown, ...rest: unknown[]) => {
    capture(chunk);
    const callback = rest.find((argument) => typeof argument === 'function') as (error: null, written: number) => void;
    process.nextTick(() => callback(null, Buffer.byteLength(String(chunk))));
  }) as never);
}
