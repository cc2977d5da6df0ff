import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { fieldProblemsText, joinProblems } from '../common/problems';
import { isJsonObject, validationPipe } from '../common/validation';
import { checkCtaRule, RuleCheckOptions } from './cta-rule';
import { CtasService } from './ctas.service';

/**
 * The body pipe of CTA create and update (`@Body(CtaBodyPipe)`): the fields are checked as by
 * `ValidBody`; when they fail, what the service would also refuse — the rule's problems, the
 * times' — joins them, so one answer names every problem of the body (docs/decisions/0014-admin-console.md).
 */
@Injectable()
export class CtaBodyPipe implements PipeTransform {
  protected readonly code: ErrorCode = ErrorCode.INVALID_REQUEST;
  protected readonly ruleOptions: RuleCheckOptions = {};
  /** Whether a time in the past is for the CTA's status to judge (an update's), not the window's. */
  protected readonly pastAllowed: boolean = false;

  constructor(private readonly ctas: CtasService) {}

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await validationPipe(this.code).transform(value, metadata);
    } catch (error) {
      if (!(error instanceof DomainError) || !isJsonObject(value)) throw error;
      const more = [this.ruleProblems(value.rule), this.timeProblems(value)].filter(Boolean);
      throw more.length > 0 ? new DomainError(this.code, [error.message, ...more].join('; ')) : error;
    }
  }

  /** The rule checker's problems, when the rule is an object at all (else the fields already say so). */
  private ruleProblems(rule: unknown): string {
    return isJsonObject(rule) ? joinProblems(checkCtaRule(rule, this.ruleOptions).problems) : '';
  }

  /** The times' problems, for the times that are integers (else the fields already say so). */
  protected timeProblems(body: Record<string, unknown>): string {
    const integer = (time: unknown): number | undefined => (Number.isSafeInteger(time) ? (time as number) : undefined);
    const times = { startTime: integer(body.startTime), endTime: integer(body.endTime) };
    return fieldProblemsText(this.ctas.timeProblems(times, undefined, { pastAllowed: this.pastAllowed }));
  }
}

/** The same for update: how far back a time may lie depends on the CTA's status, which the service checks. */
@Injectable()
export class CtaUpdateBodyPipe extends CtaBodyPipe {
  protected override readonly pastAllowed = true;
}

/** The same for test CTA create: its own code, and no times. */
@Injectable()
export class TestCtaBodyPipe extends CtaBodyPipe {
  protected override readonly code = ErrorCode.CTA_CREATION_ERROR;
  protected override readonly ruleOptions = { testCta: true };

  protected override timeProblems(): string {
    return '';
  }
}
