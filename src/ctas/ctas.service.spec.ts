import { CREATE_EXAMPLE } from '../api-docs/flow-examples';
import type { ChangeOrigin } from '../audit/audit.types';
import { ErrorCode } from '../common/error-code';
import { refusal, unitTestModule, type UnitTestModule } from '../../test/unit-test-module';
import { CtaEntity } from './cta.entity';
import { CtasModule } from './ctas.module';
import { CtasService } from './ctas.service';
import type { CreateCtaDto, UpdateCtaDto } from './dto/cta-body.dto';

const HOUR = 60 * 60 * 1000;
const origin: ChangeOrigin = { actor: 'ops-key', user: 'alice@example.com', requestId: 'req-1' };
const body = (fields: Partial<CreateCtaDto> = {}): CreateCtaDto =>
  ({ ...structuredClone(CREATE_EXAMPLE), experiment: null, ...fields }) as CreateCtaDto;
/** An update body: the create body's fields but the name, which never changes. */
const changes = (fields: Partial<UpdateCtaDto> = {}): UpdateCtaDto => {
  const { name: _name, ...fieldsOfCreate } = body();
  return { ...fieldsOfCreate, ...fields };
};

describe('CtasService', () => {
  let app: UnitTestModule;
  let ctas: CtasService;
  beforeEach(async () => {
    app = await unitTestModule([CtasModule]);
    ctas = app.get(CtasService);
  });
  afterEach(() => app.close());

  it('creates a CTA in draft at revision 1, with its tags (duplicates collapsed), its audit entry and a catalogue bump', async () => {
    const id = await ctas.create('t1', 'alice@example.com', body({ tags: ['a', 'b', 'a'] }), origin);
    const record = await ctas.get('t1', String(id));
    expect(record).toMatchObject({
      id,
      name: CREATE_EXAMPLE.name,
      ctaStatus: 'draft',
      tags: ['a', 'b'],
      team: CREATE_EXAMPLE.team,
      createdAt: app.clock.at,
      createdBy: 'alice@example.com',
      lastUpdatedAt: null,
      tenantId: 't1',
    });
    const row = await app.dataSource.manager.findOneByOrFail(CtaEntity, { id });
    expect([row.contentRevision, row.contentChangedBy, row.isTest]).toEqual([1, 'ops-key', false]);
    const entries = await app.auditEntries();
    expect(entries.map((entry) => [entry.tenantId, entry.entityType, entry.entityId, entry.action, entry.actor, entry.at])).toEqual([
      ['t1', 'cta', String(id), 'create', 'ops-key', app.clock.at],
    ]);
    expect(await app.catalogueRevision('t1')).toBe(1);
  });

  it('refuses a second CTA of the same name in a tenant (CTA_DUPLICATE_NAME), and allows it in another tenant', async () => {
    await ctas.create('t1', 'alice', body(), origin);
    expect(await refusal(ctas.create('t1', 'bob', body(), origin))).toEqual({
      code: ErrorCode.CTA_DUPLICATE_NAME,
      message: `a CTA named '${CREATE_EXAMPLE.name}' already exists`,
    });
    await expect(ctas.create('t2', 'bob', body(), origin)).resolves.toEqual(expect.any(Number));
    expect(await ctas.nameTaken('t1', CREATE_EXAMPLE.name)).toBe(true);
    expect(await ctas.nameTaken('t1', 'other')).toBe(false);
  });

  it('refuses an invalid body with INVALID_REQUEST and writes nothing', async () => {
    const invalid = body({ startTime: app.clock.at + 2 * HOUR, endTime: app.clock.at + HOUR });
    expect(await refusal(ctas.create('t1', 'alice', invalid, origin))).toEqual({
      code: ErrorCode.INVALID_REQUEST,
      message: 'endTime must be after startTime 2027-01-01T02:00:00.000Z (1798768800000), not 2027-01-01T01:00:00.000Z (1798765200000)',
    });
    expect(await app.dataSource.manager.count(CtaEntity)).toBe(0);
    expect(await app.auditEntries()).toEqual([]);
  });

  it("updates a draft's fields, bumps its content revision and records who changed it", async () => {
    const id = await ctas.create('t1', 'alice', body(), origin);
    app.clock.at += 1000;
    await ctas.update('t1', 'bob', String(id), changes({ team: 'retention', tags: ['c'] }), { ...origin, actor: 'other-key' });
    expect(await ctas.get('t1', String(id))).toMatchObject({
      team: 'retention',
      tags: ['c'],
      lastUpdatedAt: app.clock.at,
      lastUpdatedBy: 'bob',
    });
    const row = await app.dataSource.manager.findOneByOrFail(CtaEntity, { id });
    expect([row.contentRevision, row.contentChangedBy]).toEqual([2, 'other-key']);
    const actions = (await app.auditEntries()).map((entry) => entry.action);
    expect(actions).toEqual(['create', 'update']);
  });

  it("answers CTA_ID_INVALID for another tenant's CTA and a malformed id, on read and on update", async () => {
    const id = await ctas.create('t1', 'alice', body(), origin);
    expect(await refusal(ctas.get('t2', String(id)))).toEqual({ code: ErrorCode.CTA_ID_INVALID, message: `CTA ${id} does not exist` });
    expect(await refusal(ctas.get('t1', 'abc'))).toEqual({ code: ErrorCode.CTA_ID_INVALID, message: 'CTA abc does not exist' });
    expect(await refusal(ctas.update('t2', 'bob', String(id), changes(), origin))).toEqual({
      code: ErrorCode.CTA_ID_INVALID,
      message: `CTA ${id} does not exist`,
    });
  });

  it('restores the fields an audit entry recorded, as a restore entry; refuses an entry of another CTA', async () => {
    const id = await ctas.create('t1', 'alice', body(), origin);
    const other = await ctas.create('t1', 'alice', body({ name: 'other' }), origin);
    await ctas.update('t1', 'bob', String(id), changes({ team: 'retention' }), origin);
    const [created] = (await app.auditEntries()).filter((entry) => entry.entityId === String(id));
    await ctas.restore('t1', 'carol', String(id), String(created.id), origin);
    expect(await ctas.get('t1', String(id))).toMatchObject({ team: CREATE_EXAMPLE.team, lastUpdatedBy: 'carol' });
    expect((await app.auditEntries()).at(-1)).toMatchObject({ entityId: String(id), action: 'restore', actor: 'ops-key' });
    expect(await refusal(ctas.restore('t1', 'carol', String(other), String(created.id), origin))).toEqual({
      code: ErrorCode.INVALID_REQUEST,
      message: `audit entry '${created.id}' is not an entry of CTA ${other}`,
    });
  });

  it('refuses an edit of a concluded CTA (CTA_STATUS_UPDATE_INVALID) and leaves it as it was', async () => {
    const id = await ctas.create('t1', 'alice', body(), origin);
    await app.setCtaStatus(id, 'concluded');
    expect(await refusal(ctas.update('t1', 'bob', String(id), changes({ team: 'retention' }), origin))).toEqual({
      code: ErrorCode.CTA_STATUS_UPDATE_INVALID,
      message: `CTA ${id} is concluded; concluded and terminated CTAs cannot be edited`,
    });
    const row = await app.dataSource.manager.findOneByOrFail(CtaEntity, { id });
    expect([row.team, row.contentRevision, row.lastUpdatedBy]).toEqual([CREATE_EXAMPLE.team, 1, null]);
  });
});
