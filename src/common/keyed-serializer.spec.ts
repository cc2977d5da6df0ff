import { KeyedSerializer } from './keyed-serializer';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedSerializer', () => {
  it('runs tasks of one key one at a time, in order, and forgets idle keys', async () => {
    const serializer = new KeyedSerializer();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([serializer.run('u1', task('a')), serializer.run('u1', task('b')), serializer.run('u2', task('c'))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log.indexOf('end a')).toBeLessThan(log.indexOf('start b'));
    expect(log.indexOf('start c')).toBeLessThan(log.indexOf('end a'));
    await tick();
    expect(serializer.size).toBe(0);
  });

  it('goes on with the next task after one fails', async () => {
    const serializer = new KeyedSerializer();
    const failing = serializer.run('u1', () => Promise.reject(new Error('boom')));
    const next = serializer.run('u1', () => Promise.resolve('next'));
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});
