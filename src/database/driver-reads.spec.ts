import { paddedToPowerOfTwo } from './driver-reads';

describe('paddedToPowerOfTwo', () => {
  it.each([
    [[1], [1]],
    [
      [1, 2],
      [1, 2],
    ],
    [
      [1, 2, 3],
      [1, 2, 3, 3],
    ],
    [
      [1, 2, 3, 4, 5],
      [1, 2, 3, 4, 5, 5, 5, 5],
    ],
  ])('pads %j to %j', (values, padded) => {
    expect(paddedToPowerOfTwo(values)).toEqual(padded);
  });
});
