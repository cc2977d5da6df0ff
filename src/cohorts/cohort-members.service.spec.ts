import type { ChangeOrigin } from '../audit/audit.types';
import { ErrorCode } from '../common/error-code';
import { refusal, unitTestModule, type UnitTestModule } from '../../test/unit-test-module';
import { CohortMembersService } from './cohort-members.service';
import { CohortsModule } from './cohorts.module';
import { CohortsService } from './cohorts.service';

const origin: ChangeOrigin = { actor: 'ops-key', user: 'alice@example.com', requestId: null };
const json = (userIds: unknown[]) => ({ kind: 'json' as const, body: { userIds } });
const csv = (text: string) => ({ kind: 'csv' as const, stream: [text] });

describe('CohortMembersService', () => {
  let app: UnitTestModule;
  let members: CohortMembersService;
  beforeEach(async () => {
    app = await unitTestModule([CohortsModule]);
    members = app.get(CohortMembersService);
    await app.get(CohortsService).create('t1', 'alice', { name: 'vip', kind: 'static' }, origin);
  });
  afterEach(() => app.close());

  const memberCount = async () => (await app.get(CohortsService).get('t1', 'vip')).memberCount;
  const isMember = (userId: string) => members.isMember('t1', 'vip', userId);

  it('adds ids once each (JSON or CSV), counting only the new ones, with a members entry of counts', async () => {
    expect(await members.add('t1', 'bob', 'vip', json([1, '2', 2]), origin)).toEqual({ added: 2, removed: 0, memberCount: 2 });
    expect(await members.add('t1', 'bob', 'vip', csv('userId\n2\n3\n'), origin)).toEqual({ added: 1, removed: 0, memberCount: 3 });
    expect([await isMember('1'), await isMember('3'), await isMember('4')]).toEqual([true, true, false]);
    expect(await memberCount()).toBe(3);
    const entries = (await app.auditEntries()).filter((entry) => entry.action === 'members');
    expect(entries.map((entry) => [entry.entityId, entry.before, entry.after])).toEqual([
      ['vip', { memberCount: 0 }, { added: 2, removed: 0, memberCount: 2 }],
      ['vip', { memberCount: 2 }, { added: 1, removed: 0, memberCount: 3 }],
    ]);
  });

  it('replaces the members with the upload, answering what came and went', async () => {
    await members.add('t1', 'bob', 'vip', json([1, 2, 3]), origin);
    expect(await members.replace('t1', 'bob', 'vip', json([3, 4]), origin)).toEqual({ added: 1, removed: 2, memberCount: 2 });
    expect([await isMember('1'), await isMember('3'), await isMember('4')]).toEqual([false, true, true]);
  });

  it('removes the ids listed (JSON only), counting those that were members', async () => {
    await members.add('t1', 'bob', 'vip', json([1, 2]), origin);
    expect(await members.remove('t1', 'bob', 'vip', json([2, 9]), origin)).toEqual({ added: 0, removed: 1, memberCount: 1 });
    expect(await refusal(members.remove('t1', 'bob', 'vip', csv('1\n'), origin))).toEqual({
      code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      message: 'removing members takes application/json {"userIds": [...]}',
    });
    expect(await memberCount()).toBe(1);
  });

  it('changes nothing when an upload holds a bad id (INVALID_REQUEST)', async () => {
    await members.add('t1', 'bob', 'vip', json([1]), origin);
    expect(await refusal(members.replace('t1', 'bob', 'vip', csv('5\nnot-an-id\n6\n'), origin))).toEqual({
      code: ErrorCode.INVALID_REQUEST,
      message: 'line 2: "not-an-id" is not a user id (a signed 64-bit integer)',
    });
    expect([await isMember('1'), await isMember('5'), await memberCount()]).toEqual([true, false, 1]);
  });

  it('answers COHORT_NOT_FOUND for a cohort the tenant lacks, and refuses members of a rule cohort', async () => {
    expect(await refusal(members.add('t2', 'bob', 'vip', json([1]), origin))).toEqual({
      code: ErrorCode.COHORT_NOT_FOUND,
      message: "cohort 'vip' does not exist",
    });
    await app.get(CohortsService).create('t1', 'alice', { name: 'vip-rule', kind: 'rule', rule: { all: [{ cohort: 'vip' }] } }, origin);
    expect(await refusal(members.isMember('t1', 'vip-rule', '1'))).toEqual({
      code: ErrorCode.INVALID_REQUEST,
      message: "cohort 'vip-rule' is a rule cohort: only static cohorts have members",
    });
  });
});
