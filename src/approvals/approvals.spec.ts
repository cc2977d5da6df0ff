import { expectThrown } from '../../test/expect-thrown';
import { InvalidConfigError, loadAppConfig } from '../config/app-config';
import { STATUS_ACTIONS, TRANSITIONS } from '../cta-lifecycle/cta-transitions';
import { editRefusal } from '../cta-lifecycle/cta-status-policy';
import { approvalOfContent, type CtaContentState } from '../cta-lifecycle/content-approvals';
import { CtaOrchestrationModule } from '../cta-orchestration.module';
import { resolveSettings } from '../orchestration-options';
import { AdminKeyGuard } from '../security/api-key.guard';
import { approvalRefusal, unapprovedRefusal } from './approval-rules';

const cta = (fields: Partial<CtaContentState> = {}): CtaContentState => ({
  id: 12,
  status: 'draft',
  isTest: false,
  contentRevision: 3,
  contentChangedBy: 'alice',
  ...fields,
});

describe('who may approve', () => {
  it('any named key but the author of the latest change, while the CTA may still reach devices', () => {
    for (const status of ['draft', 'paused', 'live', 'scheduled'] as const) {
      expect(approvalRefusal(cta({ status }), 'bob')).toBeNull();
    }
    expect(approvalRefusal(cta(), 'alice')).toBe(
      "'alice' made the latest change of CTA 12: a key of role publisher or admin other than 'alice' may approve it",
    );
  });

  it('nobody, for a concluded, terminated or test CTA, or content no key is named the author of', () => {
    expect(approvalRefusal(cta({ status: 'concluded' }), 'bob')).toBe(
      'CTA 12 is concluded; concluded and terminated CTAs cannot be approved',
    );
    expect(approvalRefusal(cta({ status: 'terminated' }), 'bob')).toMatch(/^CTA 12 is terminated; /);
    expect(approvalRefusal(cta({ isTest: true, status: 'live' }), 'bob')).toBe(
      'CTA 12 is a test CTA: it reaches only its listed test users and needs no approval',
    );
    expect(approvalRefusal(cta({ contentChangedBy: null }), 'bob')).toMatch(/^no key is named as the author of CTA 12's latest change/);
  });

  it('an approval counts for the content revision it names only', () => {
    const stored = { contentRevision: 3, by: 'bob', at: 1000 };
    expect(approvalOfContent(stored, 3)).toEqual({ by: 'bob', at: 1000 });
    expect(approvalOfContent(stored, 4)).toBeNull();
    expect(approvalOfContent(undefined, 1)).toBeNull();
  });

  it('going live without one names the author, and an approval an edit voided', () => {
    expect(unapprovedRefusal(cta(), undefined)).toBe("CTA 12 needs an approval by a key other than 'alice', who last changed it");
    expect(unapprovedRefusal(cta(), { contentRevision: 2, by: 'bob', at: 1 })).toBe(
      "CTA 12 needs an approval by a key other than 'alice', who last changed it; the approval by 'bob' was of an earlier version",
    );
    expect(unapprovedRefusal(cta({ contentChangedBy: null }), undefined)).toMatch(
      /^CTA 12 needs an approval, and its latest change names no key/,
    );
  });

  it('asks for it on live and schedule only (pause, conclude and terminate need none)', () => {
    expect(STATUS_ACTIONS.filter((action) => TRANSITIONS[action].needsApproval)).toEqual(['live', 'schedule']);
  });

  it('refuses every edit of a live or scheduled CTA while approvals are required, naming the way out', () => {
    const edit = { stateGraph: null, startTime: undefined, endTime: undefined };
    const edited = (status: 'live' | 'scheduled' | 'paused') => ({ id: 12, status, startTime: 1, endTime: null });
    expect(editRefusal(edited('live'), edit, 10)).toBeNull();
    expect(editRefusal(edited('live'), edit, 10, { approvalsRequired: true })).toBe(
      'CTA 12 is live and approvals are required, so it takes no edits: pause it, edit it, have another key approve it, then take it live again',
    );
    expect(editRefusal(edited('scheduled'), edit, 10, { approvalsRequired: true })).toMatch(/then schedule it again$/);
    expect(editRefusal(edited('paused'), edit, 10, { approvalsRequired: true })).toBeNull();
  });
});

describe('turning approvals on', () => {
  const configFailure = (env: Record<string, string>): string => expectThrown(InvalidConfigError, () => loadAppConfig(env)).message;

  it('needs two named admin keys, one able to approve (APPROVALS_REQUIRED)', () => {
    expect(loadAppConfig({ APPROVALS_REQUIRED: 'true', ADMIN_API_KEYS: 'alice:editor:k1,bob:publisher:k2' }).approvalsRequired).toBe(true);
    expect(loadAppConfig({ APPROVALS_REQUIRED: 'false' }).approvalsRequired).toBe(false);
    expect(configFailure({ APPROVALS_REQUIRED: 'true' })).toBe(
      'Invalid configuration: APPROVALS_REQUIRED needs named admin keys in ADMIN_API_KEYS: at least two, one of role publisher or admin ' +
        'to approve what another changed (it names none: the admin API is open)',
    );
    expect(configFailure({ APPROVALS_REQUIRED: 'true', ADMIN_API_KEYS: 'alice:admin:k1' })).toMatch(
      /APPROVALS_REQUIRED .*\(it names one\)$/,
    );
    expect(configFailure({ APPROVALS_REQUIRED: '1', ADMIN_API_KEYS: 'alice:editor:k1,bob:editor:k2' })).toMatch(
      /APPROVALS_REQUIRED .*\(none of its 2 can approve\)$/,
    );
  });

  it('needs admin guards that name keys (module option approvalsRequired), and is off by default', () => {
    expect(resolveSettings({}).approvalsRequired).toBe(false);
    expect(() => CtaOrchestrationModule.forRoot({ approvalsRequired: true })).toThrow(
      "CtaOrchestrationModule: approvalsRequired needs adminGuards that name each request's key (setAuditActor)",
    );
    expect(() => CtaOrchestrationModule.forRoot({ approvalsRequired: 'yes' as unknown as boolean })).toThrow(
      'CtaOrchestrationModule: approvalsRequired must be true or false',
    );
    const guard = new AdminKeyGuard([{ name: 'alice', role: 'admin', key: 'k1' }]);
    expect(resolveSettings({ approvalsRequired: true, adminGuards: [guard] }).approvalsRequired).toBe(true);
  });
});
