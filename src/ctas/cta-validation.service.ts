import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import { validate } from 'class-validator';
import { CohortDirectory, InjectCohortDirectory } from '../cohorts/cohort-directory';
import { invalidRequest } from '../common/domain-error';
import { Problem, validationProblems } from '../common/problems';
import { toDto } from '../common/validation';
import { EventsService } from '../events/events.service';
import { eligibilityCohorts, ruleWarnings } from '../rule/cta-rule-warnings';
import { checkCtaBody } from './cta-body-check';
import { ctaTimeBounds } from './cta-time-bounds';
import type { CtaRule } from '../rule/rule.types';
import { CtasService } from './ctas.service';
import { ValidateCtaDto } from './dto/cta-body.dto';

/** The answer of `POST /ctas/validate`. */
export interface CtaValidationReport {
  valid: boolean;
  /** What create would refuse. */
  errors: Problem[];
  /** What create accepts but an operator should see before going live. */
  warnings: Problem[];
}

/** A CTA body as `CtaValidationService.check` found it. */
export interface CheckedCtaBody {
  dto: ValidateCtaDto;
  /** The rule as create would store it; null when `rule` is not an object. */
  rule: CtaRule | null;
  /** What create would refuse (with paths), a taken name apart. */
  errors: Problem[];
  /** Values create would store otherwise than sent (a boolean filter sent as a string). */
  normalised: Problem[];
}

/**
 * `POST /ctas/validate` (docs/decisions/0003-device-rule-grammar.md): a CTA create body checked as create checks it, plus the
 * warnings of `ruleWarnings`, unknown cohorts and the values create would normalise. Never writes.
 */
@Injectable()
export class CtaValidationService {
  constructor(
    private readonly ctas: CtasService,
    private readonly events: EventsService,
    @InjectCohortDirectory() private readonly cohorts: CohortDirectory,
    @InjectSettings() private readonly settings: OrchestrationSettings,
    private readonly clock: Clock,
  ) {}

  async validate(tenantId: string, body: unknown): Promise<CtaValidationReport> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw invalidRequest('the body must be a JSON object: a CTA create body (name optional)');
    }
    const { dto, rule, errors, normalised } = await this.check(body);
    const name = typeof dto.name === 'string' && !errors.some((error) => error.path === 'name') ? dto.name : null;
    // The name's and the warnings' reads are independent: run together, one round trip to the database, not two.
    const [nameTaken, ruleWarnings] = await Promise.all([
      name !== null && this.ctas.nameTaken(tenantId, name),
      rule === null ? [] : this.warnings(tenantId, rule),
    ]);
    if (nameTaken) {
      errors.push({ path: 'name', message: `a CTA named '${name}' already exists` });
    }
    // A value create would store otherwise than sent (a boolean filter sent as a string) is worth seeing too.
    const warnings = rule === null ? [] : [...normalised, ...ruleWarnings];
    return { valid: errors.length === 0, errors, warnings };
  }

  /**
   * A create body (`name` optional) checked as create checks it, but for the uniqueness of its name:
   * every problem, and the body with the rule as it would be stored (null when it is not an object).
   * Also what the journey simulator checks a CTA body with. Takes `body` over: its rule becomes the stored form.
   */
  async check(body: object): Promise<CheckedCtaBody> {
    const dto = toDto(ValidateCtaDto, body as Record<string, unknown>);
    // The same options as the body pipe of create; the rule is the rule checker's (all its problems, not only "must be an object").
    const fieldErrors = await validate(dto, { forbidUnknownValues: true, validationError: { target: false, value: true } });
    const errors = validationProblems(fieldErrors.filter((error) => error.property !== 'rule'));
    // Times the fields refused are not checked again.
    const timesValid = !errors.some((error) => error.path === 'startTime' || error.path === 'endTime');
    const times = timesValid ? ctaTimeBounds(this.settings, this.clock.now()) : null;
    const check = checkCtaBody(dto, { rule: { inPlace: true }, times });
    errors.push(...check.problems, ...check.times);
    return { dto, rule: check.rule, errors, normalised: check.normalised };
  }

  private async warnings(tenantId: string, rule: Record<string, unknown>): Promise<Problem[]> {
    const cohorts = eligibilityCohorts(rule);
    const [definitions, unknownCohorts] = await Promise.all([
      this.events.list(tenantId),
      this.cohorts.unknownCohorts(
        tenantId,
        cohorts.map((cohort) => cohort.name),
      ),
    ]);
    const unknown = new Set(unknownCohorts);
    return [
      ...ruleWarnings(rule, definitions),
      ...cohorts
        .filter((cohort) => unknown.has(cohort.name))
        .map((cohort) => ({
          path: cohort.path,
          message: `${JSON.stringify(cohort.name)} is not a cohort of the tenant: no user is in it`,
        })),
    ];
  }
}
