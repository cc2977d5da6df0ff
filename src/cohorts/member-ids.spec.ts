import { csvUserIds, jsonUserIds } from './member-ids';

async function readAll(chunks: string[]): Promise<string[]> {
  const ids: string[] = [];
  const source = (async function* () {
    for (const chunk of chunks) yield Buffer.from(chunk);
  })();
  for await (const batch of csvUserIds(source)) ids.push(...batch);
  return ids;
}

describe('csvUserIds', () => {
  it('reads one id per line across chunk boundaries, with an optional header and blank lines', async () => {
    await expect(readAll(['userId\r\n12', '3\n\n-0045\n', '9223372036854775807'])).resolves.toEqual(['123', '-45', '9223372036854775807']);
    await expect(readAll(['\uFEFFUserId\n1\n'])).resolves.toEqual(['1']);
  });

  it('names the first bad line, counting the header line', async () => {
    await expect(readAll(['userId\n1\n', '2,3\n'])).rejects.toThrow('line 3: "2,3" is not a user id (a signed 64-bit integer)');
    await expect(readAll(['1\nuserId\n'])).rejects.toThrow('line 2: "userId" is not a user id');
  });

  it('refuses a line longer than any id without buffering it whole', async () => {
    await expect(readAll(['1\n', 'x'.repeat(5000)])).rejects.toThrow('line 2: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." is not a user id');
  });
});

describe('jsonUserIds', () => {
  it('takes JSON integers and decimal strings, canonical', () => {
    expect(jsonUserIds({ userIds: [1, '-02', ' 3 '] })).toEqual(['1', '-2', '3']);
  });
});
