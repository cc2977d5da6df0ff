import { CREATE_EXAMPLE } from '../api-docs/flow-examples';
import type { ChangeOrigin } from '../audit/audit.types';
import { ErrorCode } from '../common/error-code';
import { refusal, unitTestModule, type UnitTestModule } from '../../test/unit-test-module';
import { CtaTestUserEntity } from './cta-test-user.entity';
import { CtaEntity } from './cta.entity';
import { CtasModule } from './ctas.module';
import { CtasService } from './ctas.service';
import type { CreateTestCtaDto } from './dto/test-cta-body.dto';
import { TEST_CTA_TEAM, TestCtasService } from './test-ctas.service';

const MINUTE = 60 * 1000;
const origin: ChangeOrigin = { actor: 'qa-key', user: 'qa@example.com', requestId: null };
const body = (fields: Partial<CreateTestCtaDto> = {}): CreateTestCtaDto => ({
  rule: structuredClone(CREATE_EXAMPLE.rule) as unknown as CreateTestCtaDto['rule'],
  userIds: ['20', 10, '10'],
  expiresInMinutes: 30,
  ...fields,
});

describe('TestCtasService', () => {
  let app: UnitTestModule;
  let testCtas: TestCtasService;
  beforeEach(async () => {
    app = await unitTestModule([CtasModule]);
    testCtas = app.get(TestCtasService);
  });
  afterEach(() => app.close());

  const testUsers = async () =>
    (await app.dataSource.manager.find(CtaTestUserEntity, { order: { ctaId: 'ASC', userId: 'ASC' } })).map((row) => [
      Number(row.ctaId),
      row.userId,
    ]);

  it('creates a live test CTA named test-<id>, expiring after its minutes, listing each user once, with a create entry', async () => {
    const id = await testCtas.create('t1', 'qa', body(), origin);
    const row = await app.dataSource.manager.findOneByOrFail(CtaEntity, { id });
    expect(row).toMatchObject({
      name: `test-${id}`,
      status: 'live',
      team: TEST_CTA_TEAM,
      isTest: true,
      startTime: app.clock.at,
      expiresAt: app.clock.at + 30 * MINUTE,
      createdBy: 'qa',
    });
    expect(await testUsers()).toEqual([
      [id, '10'],
      [id, '20'],
    ]);
    const [entry] = await app.auditEntries();
    expect([entry.entityType, entry.entityId, entry.action, (entry.after as { userIds: string[] }).userIds]).toEqual([
      'testCta',
      String(id),
      'create',
      ['10', '20'],
    ]);
    expect(await app.catalogueRevision('t1')).toBe(1);
  });

  it('is no normal CTA: the CTA read does not find it, and its name does not take a normal name', async () => {
    const id = await testCtas.create('t1', 'qa', body(), origin);
    expect(await refusal(app.get(CtasService).get('t1', String(id)))).toEqual({
      code: ErrorCode.CTA_ID_INVALID,
      message: `CTA ${id} does not exist`,
    });
    expect(await app.get(CtasService).nameTaken('t1', `test-${id}`)).toBe(false);
  });

  it('names every problem of the body at once (CTA_CREATION_ERROR) and writes nothing', async () => {
    expect(await refusal(testCtas.create('t1', 'qa', body({ userIds: [5, 'x'], previousCtaId: 'y' }), origin))).toEqual({
      code: ErrorCode.CTA_CREATION_ERROR,
      message:
        'userIds[1] must be a user id: an integer (a decimal string beyond 2^53) that fits a signed 64-bit long; ' +
        'previousCtaId must be a CTA id: a positive integer (number or decimal string)',
    });
    expect(await app.dataSource.manager.count(CtaEntity)).toBe(0);
  });

  it('replaces its previous test CTA in the same write (a delete and a create entry), and ignores a normal CTA named as previous', async () => {
    const first = await testCtas.create('t1', 'qa', body(), origin);
    const second = await testCtas.create('t1', 'qa', body({ userIds: [30], previousCtaId: first }), origin);
    expect((await app.dataSource.manager.find(CtaEntity)).map((row) => Number(row.id))).toEqual([second]);
    expect(await testUsers()).toEqual([[second, '30']]);
    const entries = await app.auditEntries();
    expect(entries.map((entry) => [entry.action, entry.entityId])).toEqual([
      ['create', String(first)],
      ['delete', String(first)],
      ['create', String(second)],
    ]);

    const normal = await app
      .get(CtasService)
      .create('t1', 'alice', { ...structuredClone(CREATE_EXAMPLE), experiment: null } as never, origin);
    await testCtas.create('t1', 'qa', body({ previousCtaId: normal }), origin);
    expect(await app.dataSource.manager.existsBy(CtaEntity, { id: normal, isTest: false })).toBe(true);
  });

  it('deletes a test CTA of the tenant with its users; another tenant or an unknown id is CTA_ID_INVALID', async () => {
    const id = await testCtas.create('t1', 'qa', body(), origin);
    expect(await refusal(testCtas.delete('t2', String(id), origin))).toEqual({
      code: ErrorCode.CTA_ID_INVALID,
      message: `CTA ${id} does not exist`,
    });
    await testCtas.delete('t1', String(id), origin);
    expect(await app.dataSource.manager.count(CtaEntity)).toBe(0);
    expect(await testUsers()).toEqual([]);
    expect(await refusal(testCtas.delete('t1', String(id), origin))).toEqual({
      code: ErrorCode.CTA_ID_INVALID,
      message: `CTA ${id} does not exist`,
    });
  });

  it('purges the test CTAs expired by now, keeping those still running', async () => {
    await testCtas.create('t1', 'qa', body({ expiresInMinutes: 5 }), origin);
    const later = await testCtas.create('t2', 'qa', body({ expiresInMinutes: 60 }), origin);
    app.clock.at += 5 * MINUTE;
    await testCtas.purgeExpired();
    expect((await app.dataSource.manager.find(CtaEntity)).map((row) => Number(row.id))).toEqual([later]);
    expect((await testUsers()).map(([ctaId]) => ctaId)).toEqual([later, later]);
  });

  it('takes an erased user off the lists, deleting a test CTA left with nobody, and answers how many lists held them', async () => {
    const shared = await testCtas.create('t1', 'qa', body({ userIds: [10, 20] }), origin);
    const alone = await testCtas.create('t1', 'qa', body({ userIds: [10] }), origin);
    expect(await app.dataSource.transaction((manager) => testCtas.testCtasOf(manager, 't1', '10'))).toEqual([shared, alone]);
    expect(await app.dataSource.transaction((manager) => testCtas.removeUser(manager, 't1', '10'))).toBe(2);
    expect((await app.dataSource.manager.find(CtaEntity)).map((row) => Number(row.id))).toEqual([shared]);
    expect(await testUsers()).toEqual([[shared, '20']]);
    expect(await app.dataSource.transaction((manager) => testCtas.removeUser(manager, 't1', '10'))).toBe(0);
  });
});
