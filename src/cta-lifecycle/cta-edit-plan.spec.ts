import { examples } from '../../test/fixtures';
import { endAfterStartProblem, planCtaEdit, type PlannedCta } from './cta-edit-plan';

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const cta = (fields: Partial<PlannedCta> = {}): PlannedCta => ({
  id: 7,
  status: 'draft',
  startTime: null,
  endTime: null,
  rule: examples.rule(),
  ...fields,
});
const edit = (fields: Partial<Parameters<typeof planCtaEdit>[1]> = {}) => ({ rule: examples.rule(), experimentChanged: false, ...fields });

describe('planCtaEdit', () => {
  it('keeps omitted times and takes sent ones', () => {
    const stored = cta({ startTime: NOW + HOUR, endTime: NOW + 3 * HOUR });
    expect(planCtaEdit(stored, edit(), NOW)).toEqual({ startTime: NOW + HOUR, endTime: NOW + 3 * HOUR });
    expect(planCtaEdit(stored, edit({ endTime: NOW + 5 * HOUR }), NOW)).toEqual({ startTime: NOW + HOUR, endTime: NOW + 5 * HOUR });
  });

  it("clears a draft's start on null, but reads null as omitted once the CTA left draft", () => {
    expect(planCtaEdit(cta({ startTime: NOW + HOUR }), edit({ startTime: null }), NOW)).toEqual({ startTime: null, endTime: null });
    const paused = cta({ status: 'paused', startTime: NOW - HOUR });
    expect(planCtaEdit(paused, edit({ startTime: null }), NOW)).toEqual({ startTime: NOW - HOUR, endTime: null });
  });

  it('names the order problem of the times it would end up with', () => {
    const plan = planCtaEdit(cta({ startTime: NOW + 2 * HOUR }), edit({ endTime: NOW + HOUR }), NOW);
    expect(plan).toEqual({ problem: endAfterStartProblem(NOW + 2 * HOUR, NOW + HOUR) });
    expect(plan.problem?.path).toBe('endTime');
  });

  it("refuses what the status refuses, before looking at the times' order", () => {
    const live = cta({ status: 'live', startTime: NOW - HOUR });
    const plan = planCtaEdit(live, edit({ startTime: NOW + HOUR, endTime: NOW }), NOW);
    expect(plan.refusal).toMatch(/^startTime: .* is in the future/);
    expect(planCtaEdit(cta({ status: 'concluded' }), edit(), NOW).refusal).toBe(
      'CTA 7 is concluded; concluded and terminated CTAs cannot be edited',
    );
  });

  it("judges a live CTA's rule by its state graph, a paused one's not at all", () => {
    const rule = examples.rule();
    const changed = { ...rule, stateToAction: { ...rule.stateToAction, 99: rule.stateToAction[Object.keys(rule.stateToAction)[0]] } };
    expect(planCtaEdit(cta({ status: 'live' }), edit({ rule: changed }), NOW).refusal).toMatch(/pause CTA 7 to change/);
    expect(planCtaEdit(cta({ status: 'paused' }), edit({ rule: changed }), NOW)).toEqual({ startTime: null, endTime: null });
  });

  it('refuses a changed experiment once the CTA left draft, and every live edit with approvals required', () => {
    expect(planCtaEdit(cta({ status: 'paused' }), edit({ experimentChanged: true }), NOW).refusal).toMatch(/^experiment: CTA 7 is paused/);
    expect(planCtaEdit(cta({ status: 'live' }), edit(), NOW, { approvalsRequired: true }).refusal).toMatch(/approvals are required/);
    expect(planCtaEdit(cta({ status: 'live' }), edit(), NOW)).toEqual({ startTime: null, endTime: null });
  });
});
