import { readPreviousCtaId, readTestUserIds } from './test-user-ids';

describe('readTestUserIds', () => {
  it('canonicalises integers and decimal strings and removes duplicates', () => {
    expect(readTestUserIds([7, '007', '-0', 0, '9223372036854775807', '-9223372036854775808'])).toEqual({
      userIds: ['7', '0', '9223372036854775807', '-9223372036854775808'],
      problems: [],
    });
  });

  it.each([[1.5], [2 ** 53], ['9223372036854775808'], ['-9223372036854775809'], ['1e3'], [' 1'], [''], [null], [true], [{}]])(
    'rejects %p naming its index',
    (value) => {
      expect(readTestUserIds([1, value]).problems).toEqual([expect.stringMatching(/^userIds\[1\] must be a user id/)]);
    },
  );

  it('names every bad entry, not only the first', () => {
    expect(readTestUserIds(['x', 2, 'y', null]).problems.map((problem) => problem.split(' ')[0])).toEqual([
      'userIds[0]',
      'userIds[2]',
      'userIds[3]',
    ]);
  });
});

describe('readPreviousCtaId', () => {
  it('reads absent or null as none, ids as numbers or decimal strings, and names anything else', () => {
    expect(readPreviousCtaId(undefined)).toEqual({ id: null, problem: null });
    expect(readPreviousCtaId(null)).toEqual({ id: null, problem: null });
    expect(readPreviousCtaId('12')).toEqual({ id: 12, problem: null });
    expect(readPreviousCtaId(-1).problem).toMatch(/^previousCtaId must be a CTA id/);
  });
});
