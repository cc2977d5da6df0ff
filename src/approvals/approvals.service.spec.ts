import type { EntityManager } from 'typeorm';
import { CREATE_EXAMPLE } from '../api-docs/flow-examples';
import type { ChangeOrigin } from '../audit/audit.types';
import { ErrorCode } from '../common/error-code';
import { CtasService } from '../ctas/ctas.service';
import type { CreateCtaDto, UpdateCtaDto } from '../ctas/dto/cta-body.dto';
import { TestCtasService } from '../ctas/test-ctas.service';
import { refusal, unitTestModule, type UnitTestModule } from '../../test/unit-test-module';
import { approvalsOff, UNNAMED_APPROVER } from './approval-rules';
import { ApprovalsModule } from './approvals.module';
import { ApprovalsService } from './approvals.service';

const author: ChangeOrigin = { actor: 'author-key', user: 'alice@example.com', requestId: null };
const reviewer: ChangeOrigin = { actor: 'reviewer-key', user: 'bob@example.com', requestId: null };
const createBody = (): CreateCtaDto => ({ ...structuredClone(CREATE_EXAMPLE), experiment: null }) as CreateCtaDto;
const updateBody = (team: string): UpdateCtaDto => {
  const { name: _name, ...fields } = createBody();
  return { ...fields, team };
};

describe('ApprovalsService with approvals required', () => {
  let app: UnitTestModule;
  let approvals: ApprovalsService;
  beforeEach(async () => {
    app = await unitTestModule([ApprovalsModule], { approvalsRequired: true, adminGuards: [{ canActivate: () => true }] });
    approvals = app.get(ApprovalsService);
  });
  afterEach(() => app.close());

  const goLive = (id: number, tenantId = 't1') =>
    app.dataSource.transaction((manager: EntityManager) => approvals.goLiveApproval(manager, tenantId, id));

  it("records another key's approval of the current revision, shown on the CTA, with an approve entry; going live may take that revision", async () => {
    const id = await app.get(CtasService).create('t1', 'alice', createBody(), author);
    await approvals.approve('t1', String(id), reviewer);
    expect((await app.get(CtasService).get('t1', String(id))).approval).toEqual({ by: 'reviewer-key', at: app.clock.at });
    expect((await app.auditEntries()).map((entry) => [entry.action, entry.actor])).toEqual([
      ['create', 'author-key'],
      ['approve', 'reviewer-key'],
    ]);
    expect(await goLive(id)).toEqual({ approvedRevision: 1, refusal: null });
  });

  it('refuses the author approving their own change (APPROVAL_INVALID)', async () => {
    const id = await app.get(CtasService).create('t1', 'alice', createBody(), author);
    expect(await refusal(approvals.approve('t1', String(id), author))).toEqual({
      code: ErrorCode.APPROVAL_INVALID,
      message: `'author-key' made the latest change of CTA ${id}: a key of role publisher or admin other than 'author-key' may approve it`,
    });
    expect(await goLive(id)).toEqual({
      approvedRevision: null,
      refusal: `CTA ${id} needs an approval by a key other than 'author-key', who last changed it`,
    });
  });

  it('voids an approval when the content changes: going live then names the earlier approval', async () => {
    const id = await app.get(CtasService).create('t1', 'alice', createBody(), author);
    await approvals.approve('t1', String(id), reviewer);
    await app.get(CtasService).update('t1', 'alice', String(id), updateBody('retention'), author);
    expect((await app.get(CtasService).get('t1', String(id))).approval).toBeNull();
    expect(await goLive(id)).toEqual({
      approvedRevision: null,
      refusal: `CTA ${id} needs an approval by a key other than 'author-key', who last changed it; the approval by 'reviewer-key' was of an earlier version`,
    });
  });

  it('refuses a key with no name, a test CTA, an ended CTA and an unknown one', async () => {
    const id = await app.get(CtasService).create('t1', 'alice', createBody(), author);
    expect(await refusal(approvals.approve('t1', String(id), { ...reviewer, actor: null }))).toEqual({
      code: ErrorCode.APPROVAL_INVALID,
      message: UNNAMED_APPROVER,
    });
    const test = await app
      .get(TestCtasService)
      .create('t1', 'qa', { rule: structuredClone(CREATE_EXAMPLE.rule) as never, userIds: [1], expiresInMinutes: 5 }, author);
    expect(await refusal(approvals.approve('t1', String(test), reviewer))).toEqual({
      code: ErrorCode.APPROVAL_INVALID,
      message: `CTA ${test} is a test CTA: it reaches only its listed test users and needs no approval`,
    });
    await app.setCtaStatus(id, 'terminated');
    expect(await refusal(approvals.approve('t1', String(id), reviewer))).toEqual({
      code: ErrorCode.APPROVAL_INVALID,
      message: `CTA ${id} is terminated; concluded and terminated CTAs cannot be approved`,
    });
    expect(await refusal(approvals.approve('t2', String(id), reviewer))).toEqual({
      code: ErrorCode.CTA_ID_INVALID,
      message: `CTA ${id} does not exist`,
    });
    expect((await app.auditEntries()).filter((entry) => entry.action === 'approve')).toEqual([]);
  });
});

describe('ApprovalsService with approvals off', () => {
  let app: UnitTestModule;
  beforeAll(async () => {
    app = await unitTestModule([ApprovalsModule]);
  });
  afterAll(() => app.close());

  it('refuses an approval and asks nothing of going live', async () => {
    const id = await app.get(CtasService).create('t1', 'alice', createBody(), author);
    expect(await refusal(app.get(ApprovalsService).approve('t1', String(id), reviewer))).toEqual({
      code: ErrorCode.APPROVAL_INVALID,
      message: approvalsOff(id),
    });
    expect(await app.dataSource.transaction((manager) => app.get(ApprovalsService).goLiveApproval(manager, 't1', id))).toBeNull();
  });
});
