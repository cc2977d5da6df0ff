import { Injectable } from '@nestjs/common';
import { ErrorCode } from '../common/error-code';
import { fieldProblemSentence, problemText } from '../common/problems';
import { CheckedBodyPipe, isJsonObject } from '../common/validation';
import { experimentProblems } from './cta-experiment';
import { checkCtaRule, RuleCheckOptions } from '../rule/cta-rule';
import { CtasService } from './ctas.service';
import { previousCtaIdProblem, testUserIdProblems } from './test-user-ids';

/**
 * The body pipe of CTA create and update (`@Body(CtaBodyPipe)`): the fields are checked as by
 * `ValidBody`; when they fail, what the service would also refuse — the rule's problems, the
 * times' — joins them, so one answer names every problem of the body (docs/decisions/0014-admin-console.md).
 */
@Injectable()
export class CtaBodyPipe extends CheckedBodyPipe {
  protected readonly ruleOptions: RuleCheckOptions = {};
  /** Whether a time in the past is for the CTA's status to judge (an update's), not the window's. */
  protected readonly pastAllowed: boolean = false;

  constructor(private readonly ctas: CtasService) {
    super(ErrorCode.INVALID_REQUEST);
  }

  protected override moreProblems(body: Record<string, unknown>): string[] {
    return [...this.ruleProblems(body.rule), ...this.experimentProblems(body), ...this.timeProblems(body)];
  }

  /** The rule checker's problems, when the rule is an object at all (else the fields already say so). */
  private ruleProblems(rule: unknown): string[] {
    return isJsonObject(rule) ? checkCtaRule(rule, this.ruleOptions).problems.map(problemText) : [];
  }

  /** The experiment's problems (docs/experiments.md), against the rule as sent. */
  protected experimentProblems(body: Record<string, unknown>): string[] {
    return experimentProblems(body.experiment, body.rule).map(problemText);
  }

  /** The times' problems, for the times that are integers (else the fields already say so). */
  protected timeProblems(body: Record<string, unknown>): string[] {
    const integer = (time: unknown): number | undefined => (Number.isSafeInteger(time) ? (time as number) : undefined);
    const times = { startTime: integer(body.startTime), endTime: integer(body.endTime) };
    return this.ctas.timeProblems(times, undefined, { pastAllowed: this.pastAllowed }).map(fieldProblemSentence);
  }
}

/** The same for update: how far back a time may lie depends on the CTA's status, which the service checks. */
@Injectable()
export class CtaUpdateBodyPipe extends CtaBodyPipe {
  protected override readonly pastAllowed = true;
}

/** The same for test CTA create: its own code, no times, and the user ids and the replaced test CTA beside the rule. */
@Injectable()
export class TestCtaBodyPipe extends CtaBodyPipe {
  protected override readonly code = ErrorCode.CTA_CREATION_ERROR;
  protected override readonly ruleOptions = { testCta: true };

  protected override moreProblems(body: Record<string, unknown>): string[] {
    const previous = previousCtaIdProblem(body.previousCtaId);
    return [
      ...(Array.isArray(body.userIds) ? testUserIdProblems(body.userIds) : []),
      ...(previous === null ? [] : [previous]),
      ...super.moreProblems(body),
    ];
  }

  protected override timeProblems(): string[] {
    return [];
  }

  /** A test CTA has no experiment: its DTO refuses the field. */
  protected override experimentProblems(): string[] {
    return [];
  }
}
