import { CREATE_EXAMPLE } from '../api-docs/flow-examples';
import { ApprovalsService } from '../approvals/approvals.service';
import type { ChangeOrigin } from '../audit/audit.types';
import { describeInstant } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { CtasService } from '../ctas/ctas.service';
import type { CreateCtaDto } from '../ctas/dto/cta-body.dto';
import { refusal, unitTestModule, type UnitTestModule } from '../../test/unit-test-module';
import { CtaStatusModule } from './cta-status.module';
import { CtaStatusService } from './cta-status.service';

const HOUR = 60 * 60 * 1000;
const origin: ChangeOrigin = { actor: 'ops-key', user: 'alice@example.com', requestId: null };

describe('CtaStatusService', () => {
  let app: UnitTestModule;
  let status: CtaStatusService;
  beforeEach(async () => {
    app = await unitTestModule([CtaStatusModule]);
    status = app.get(CtaStatusService);
  });
  afterEach(() => app.close());

  const create = (fields: Partial<CreateCtaDto> = {}, tenantId = 't1') =>
    app
      .get(CtasService)
      .create(tenantId, 'alice', { ...structuredClone(CREATE_EXAMPLE), experiment: null, ...fields } as CreateCtaDto, origin);
  const statusOf = async (id: number, tenantId = 't1') => (await app.get(CtasService).get(tenantId, String(id))).ctaStatus;

  it('takes a draft live, stamping its start, with an entry of the action and a catalogue bump', async () => {
    const id = await create();
    const revision = await app.catalogueRevision('t1');
    await status.change('t1', String(id), 'live', origin);
    expect(await app.get(CtasService).get('t1', String(id))).toMatchObject({ ctaStatus: 'live', startTime: app.clock.at });
    expect((await app.auditEntries()).map((entry) => [entry.entityId, entry.action])).toEqual([
      [String(id), 'create'],
      [String(id), 'live'],
    ]);
    expect(await app.catalogueRevision('t1')).toBe(revision + 1);
  });

  it('refuses an unknown action (CTA_STATUS_INVALID), a move its status does not allow and a repeat (CTA_STATUS_UPDATE_INVALID)', async () => {
    const id = await create();
    expect(await refusal(status.change('t1', String(id), 'archive', origin))).toEqual({
      code: ErrorCode.CTA_STATUS_INVALID,
      message: "unknown status action 'archive'; use one of live, pause, schedule, conclude, terminate",
    });
    expect(await refusal(status.change('t1', String(id), 'pause', origin))).toEqual({
      code: ErrorCode.CTA_STATUS_UPDATE_INVALID,
      message: `cannot move CTA ${id} from draft to paused`,
    });
    await status.change('t1', String(id), 'live', origin);
    expect(await refusal(status.change('t1', String(id), 'live', origin))).toEqual({
      code: ErrorCode.CTA_STATUS_UPDATE_INVALID,
      message: `CTA ${id} is already live; nothing to change`,
    });
    expect(await refusal(status.change('t2', String(id), 'pause', origin))).toEqual({
      code: ErrorCode.CTA_ID_INVALID,
      message: `CTA ${id} does not exist`,
    });
  });

  it('schedules only a CTA whose start is ahead; terminate ends any CTA not yet ended, stamping its end', async () => {
    const noStart = await create({ name: 'no-start' });
    expect(await refusal(status.change('t1', String(noStart), 'schedule', origin))).toEqual({
      code: ErrorCode.CTA_STATUS_UPDATE_INVALID,
      message: `cannot schedule CTA ${noStart}: it has no startTime`,
    });
    const start = app.clock.at + HOUR;
    const later = await create({ name: 'later', startTime: start });
    app.clock.at += 2 * HOUR;
    expect(await refusal(status.change('t1', String(later), 'schedule', origin))).toEqual({
      code: ErrorCode.CTA_STATUS_UPDATE_INVALID,
      message: `cannot schedule CTA ${later}: its startTime ${describeInstant(start)} is in the past (now ${describeInstant(app.clock.at)})`,
    });
    await status.change('t1', String(later), 'terminate', origin);
    expect(await app.get(CtasService).get('t1', String(later))).toMatchObject({ ctaStatus: 'terminated', endTime: app.clock.at });
  });

  it('moves due CTAs of every tenant on its own: a scheduled one goes live at its start, a live one concludes at its end', async () => {
    const start = app.clock.at + HOUR;
    const scheduled = await create({ name: 'scheduled', startTime: start, endTime: start + HOUR });
    const other = await create({ name: 'other', startTime: start + 3 * HOUR }, 't2');
    await status.change('t1', String(scheduled), 'schedule', origin);
    await status.change('t2', String(other), 'schedule', origin);

    app.clock.at = start - 1;
    await status.runTimedTransitions();
    expect([await statusOf(scheduled), await statusOf(other, 't2')]).toEqual(['scheduled', 'scheduled']);

    app.clock.at = start;
    await status.runTimedTransitions();
    expect([await statusOf(scheduled), await statusOf(other, 't2')]).toEqual(['live', 'scheduled']);

    app.clock.at = start + HOUR;
    await status.runTimedTransitions();
    await status.runTimedTransitions();
    expect(await statusOf(scheduled)).toBe('concluded');
    app.clock.at = start + 3 * HOUR;
    await status.runTimedTransitions();
    expect(await statusOf(other, 't2')).toBe('live');
    const moves = (await app.auditEntries()).filter((entry) => entry.actor === 'scheduler');
    expect(moves.map((entry) => [entry.entityId, entry.action])).toEqual([
      [String(scheduled), 'live'],
      [String(scheduled), 'conclude'],
      [String(other), 'live'],
    ]);
  });
});

describe('CtaStatusService with approvals required', () => {
  let app: UnitTestModule;
  beforeAll(async () => {
    app = await unitTestModule([CtaStatusModule], { approvalsRequired: true, adminGuards: [{ canActivate: () => true }] });
  });
  afterAll(() => app.close());

  it('takes live only content another key approved', async () => {
    const id = await app
      .get(CtasService)
      .create('t1', 'alice', { ...structuredClone(CREATE_EXAMPLE), experiment: null } as CreateCtaDto, origin);
    expect(await refusal(app.get(CtaStatusService).change('t1', String(id), 'live', origin))).toEqual({
      code: ErrorCode.CTA_STATUS_UPDATE_INVALID,
      message: `CTA ${id} needs an approval by a key other than 'ops-key', who last changed it`,
    });
    await app.get(ApprovalsService).approve('t1', String(id), { ...origin, actor: 'reviewer-key' });
    await app.get(CtaStatusService).change('t1', String(id), 'live', origin);
    expect((await app.get(CtasService).get('t1', String(id))).ctaStatus).toBe('live');
  });
});
