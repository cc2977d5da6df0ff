import { patchBetween } from './audit-log.service';
import { withUserIdErased } from './erased-user-ids';

const testCta = (userIds: string[]) => ({ id: 7, name: 'test-7', rule: { note: '42' }, userIds });

describe('withUserIdErased', () => {
  it('replaces the id in the userIds of before, after and the records the patch carries, and nothing else', () => {
    const after = testCta(['41', '42']);
    expect(withUserIdErased({ before: null, after, changes: patchBetween(null, after) }, '42')).toEqual({
      before: null,
      after: testCta(['41', 'erased']),
      changes: [{ op: 'replace', path: '', value: testCta(['41', 'erased']) }],
    });
    const before = testCta(['42']);
    expect(withUserIdErased({ before, after: null, changes: patchBetween(before, null) }, '42')).toEqual({
      before: testCta(['erased']),
      after: null,
      changes: [{ op: 'replace', path: '', value: null }],
    });
  });

  it('replaces values a patch writes at a userIds path', () => {
    const before = testCta(['41']);
    const after = testCta(['41', '42']);
    const changes = [...patchBetween(before, after), { op: 'replace' as const, path: '/userIds', value: ['42', '43'] }];
    expect(withUserIdErased({ before, after, changes }, '42')?.changes).toEqual([
      { op: 'add', path: '/userIds/1', value: 'erased' },
      { op: 'replace', path: '/userIds', value: ['erased', '43'] },
    ]);
  });

  it('answers null for an entry that does not name the user (the id elsewhere, or another id)', () => {
    const after = testCta(['41', '420']);
    expect(withUserIdErased({ before: null, after, changes: patchBetween(null, after) }, '42')).toBeNull();
    expect(withUserIdErased({ before: { userIds: 42 }, after: null, changes: [] }, '42')).toBeNull();
  });
});
