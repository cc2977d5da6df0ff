import { CREATE_EXAMPLE } from '../api-docs/flow-examples';
import type { EntityManager } from 'typeorm';
import type { ChangeOrigin } from '../audit/audit.types';
import { unitTestModule, type UnitTestModule } from '../../test/unit-test-module';
import { CtaRecords } from './cta-records.service';
import { CtasModule } from './ctas.module';
import { CtasService } from './ctas.service';
import type { CreateCtaDto } from './dto/cta-body.dto';
import { TestCtasService } from './test-ctas.service';

const origin: ChangeOrigin = { actor: 'ops-key', user: 'alice@example.com', requestId: 'req-9' };
const body = (name: string, tags: string[]): CreateCtaDto =>
  ({ ...structuredClone(CREATE_EXAMPLE), experiment: null, name, tags }) as CreateCtaDto;

describe('CtaRecords', () => {
  let app: UnitTestModule;
  let records: CtaRecords;
  let first: number;
  let second: number;
  let test: number;
  beforeAll(async () => {
    app = await unitTestModule([CtasModule], { approvalsRequired: true, adminGuards: [{ canActivate: () => true }] });
    records = app.get(CtaRecords);
    first = await app.get(CtasService).create('t1', 'alice', body('first', ['b', 'a']), origin);
    second = await app.get(CtasService).create('t2', 'bob', body('second', []), origin);
    test = await app
      .get(TestCtasService)
      .create('t1', 'qa', { rule: structuredClone(CREATE_EXAMPLE.rule) as never, userIds: [1], expiresInMinutes: 5 }, origin);
  });
  afterAll(() => app.close());

  const read = <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => app.dataSource.transaction(work);

  it('loads a normal CTA of the tenant with its sorted tags, and a test CTA only when asked for one', async () => {
    const record = await read((manager) => records.load(manager, 't1', first));
    expect(record).toMatchObject({ id: first, name: 'first', tags: ['a', 'b'], behaviourTags: [], ctaStatus: 'draft', tenantId: 't1' });
    expect(await read((manager) => records.load(manager, 't2', first))).toBeNull();
    expect(await read((manager) => records.load(manager, 't1', test))).toBeNull();
    expect(await read((manager) => records.load(manager, 't1', test, { isTest: true }))).toMatchObject({ id: test, name: `test-${test}` });
  });

  it('shows the approval of the current content while approvals are required (null before any)', async () => {
    expect((await read((manager) => records.load(manager, 't1', first)))?.approval).toBeNull();
    expect(await read((manager) => records.contentState(manager, 't1', first))).toEqual({
      id: first,
      status: 'draft',
      isTest: false,
      contentRevision: 1,
      contentChangedBy: 'ops-key',
    });
    expect(await read((manager) => records.contentState(manager, 't2', first))).toBeNull();
  });

  it('loads CTAs of several tenants by id, skipping unknown ids', async () => {
    const loaded = await read((manager) => records.loadById(manager, [second, first, 999]));
    expect([...loaded.keys()]).toEqual([first, second]);
    expect([loaded.get(first)?.tenantId, loaded.get(second)?.tenantId]).toEqual(['t1', 't2']);
    expect((await read((manager) => records.loadById(manager, []))).size).toBe(0);
  });

  it("records each change with the CTA's state read back in the same transaction as its after", async () => {
    const before = await read((manager) => records.load(manager, 't1', first));
    const entriesBefore = (await app.auditEntries()).length;
    await read(async (manager) => {
      await manager.query('UPDATE ctas SET team = ? WHERE id = ?', ['retention', first]);
      await records.recordChanges(manager, origin, 'pause', [{ id: first, tenantId: 't1', before }]);
    });
    const entries = (await app.auditEntries()).slice(entriesBefore);
    expect(entries.map((entry) => [entry.tenantId, entry.entityType, entry.entityId, entry.action, entry.requestId])).toEqual([
      ['t1', 'cta', String(first), 'pause', 'req-9'],
    ]);
    expect([(entries[0].before as { team: string }).team, (entries[0].after as { team: string }).team]).toEqual([
      CREATE_EXAMPLE.team,
      'retention',
    ]);
  });
});
