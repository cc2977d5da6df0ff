import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { fieldProblemSentence, problemText } from '../common/problems';
import { CheckedBodyPipe } from '../common/validation';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import { checkCtaBody, type CtaBodyCheckOptions } from './cta-body-check';
import { ctaTimeBounds } from './cta-time-bounds';
import { previousCtaIdProblem, testUserIdProblems } from './test-user-ids';

/**
 * The body pipe of CTA create and update (`@Body(CtaBodyPipe)`): the fields are checked as by
 * `ValidBody`; when they fail, what the service would also refuse — the rule's problems, the
 * experiment's, the times' (`checkCtaBody`) — joins them, so one answer names every problem of the body
 * (docs/decisions/0014-admin-console.md).
 */
@Injectable()
export class CtaBodyPipe extends CheckedBodyPipe {
  /** Whether a time in the past is for the CTA's status to judge (an update's), not the window's. */
  protected readonly pastAllowed: boolean = false;

  constructor(
    @InjectSettings() private readonly settings: OrchestrationSettings,
    private readonly clock: Clock,
  ) {
    super(ErrorCode.INVALID_REQUEST);
  }

  protected override moreProblems(body: Record<string, unknown>): string[] {
    // Only the times that are integers are checked (else the fields already say so).
    const integer = (time: unknown): number | undefined => (Number.isSafeInteger(time) ? (time as number) : undefined);
    const fields = { rule: body.rule, experiment: body.experiment, startTime: integer(body.startTime), endTime: integer(body.endTime) };
    const { problems, times } = checkCtaBody(fields, { ...this.checkOptions(), ruleFieldChecked: true });
    return [...problems.map(problemText), ...times.map(fieldProblemSentence)];
  }

  protected checkOptions(): CtaBodyCheckOptions {
    return { times: ctaTimeBounds(this.settings, this.clock.now(), { pastAllowed: this.pastAllowed }) };
  }
}

/** The same for update: how far back a time may lie depends on the CTA's status, which the service checks. */
@Injectable()
export class CtaUpdateBodyPipe extends CtaBodyPipe {
  protected override readonly pastAllowed = true;
}

/**
 * The same for test CTA create: its own code, a test CTA's rule, no times and no experiment (its DTO
 * refuses the field), and the user ids and the replaced test CTA beside the rule.
 */
@Injectable()
export class TestCtaBodyPipe extends CtaBodyPipe {
  protected override readonly code = ErrorCode.CTA_CREATION_ERROR;

  protected override moreProblems(body: Record<string, unknown>): string[] {
    const previous = previousCtaIdProblem(body.previousCtaId);
    return [
      ...(Array.isArray(body.userIds) ? testUserIdProblems(body.userIds) : []),
      ...(previous === null ? [] : [previous]),
      ...super.moreProblems(body),
    ];
  }

  protected override checkOptions(): CtaBodyCheckOptions {
    return { rule: { testCta: true }, times: null, experiment: false };
  }
}
