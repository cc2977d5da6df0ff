import { ErrorCode } from '../common/error-code';
import { parseTestUserIds } from './test-user-ids';

describe('parseTestUserIds', () => {
  it('canonicalises integers and decimal strings and removes duplicates', () => {
    expect(parseTestUserIds([7, '007', '-0', 0, '9223372036854775807', '-9223372036854775808'])).toEqual([
      '7',
      '0',
      '9223372036854775807',
      '-9223372036854775808',
    ]);
  });

  it.each([[1.5], [2 ** 53], ['9223372036854775808'], ['-9223372036854775809'], ['1e3'], [' 1'], [''], [null], [true], [{}]])(
    'rejects %p naming its index',
    (value) => {
      expect(() => parseTestUserIds([1, value])).toThrow(
        expect.objectContaining({ code: ErrorCode.CTA_CREATION_ERROR, message: expect.stringMatching(/^userIds\[1\] /) }),
      );
    },
  );
});
