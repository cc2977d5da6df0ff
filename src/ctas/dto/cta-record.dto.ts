import { ApiPropertyOptional } from '@nestjs/swagger';
import { PageDto } from '../../common/page.dto';
import type { Problem } from '../../common/problems';
import type { CtaApproval } from '../../cta-lifecycle/content-approvals';
import type { CtaPage, FilterValues } from '../cta-listing.service';
import type { CtaExperiment } from '../cta-experiment';
import { CtaExperimentDto } from './cta-experiment.dto';
import type { CtaRecord } from '../cta-record';
import type { CtaValidationReport } from '../cta-validation.service';
import { CTA_STATUSES, CtaStatus } from '../../cta-lifecycle/cta-statuses';

/**
 * What the CTA endpoints answer (inside `{"data": …}`). Every field is always sent; the
 * document has never marked them required, so they stay optional here.
 */

/** A CTA id, as create answers it. */
export const CTA_ID_SCHEMA = { type: 'integer', format: 'int64' } as const;

const EPOCH_MS = { type: 'integer', format: 'int64', description: 'epoch milliseconds' } as const;

export class CtaApprovalDto implements CtaApproval {
  @ApiPropertyOptional({ description: 'the name of the admin key that approved the content' })
  by: string;

  @ApiPropertyOptional(EPOCH_MS)
  at: number;
}

export class CtaRecordDto implements CtaRecord {
  @ApiPropertyOptional(CTA_ID_SCHEMA)
  id: number;

  @ApiPropertyOptional()
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  description: string | null;

  @ApiPropertyOptional({ type: [String] })
  tags: string[];

  @ApiPropertyOptional()
  team: string;

  @ApiPropertyOptional({ type: [String], description: 'names of the tags linking the CTA' })
  behaviourTags: string[];

  @ApiPropertyOptional({ ...EPOCH_MS, nullable: true })
  startTime: number | null;

  @ApiPropertyOptional({ ...EPOCH_MS, nullable: true })
  endTime: number | null;

  @ApiPropertyOptional({ enum: CTA_STATUSES })
  ctaStatus: CtaStatus;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'the rule as written, with frequency.lifespan beside lifeSpan (equal), plus the derived ctaValidTill',
  })
  rule: CtaRecord['rule'];

  @ApiPropertyOptional({
    type: CtaExperimentDto,
    nullable: true,
    description: 'the experiment with its defaults filled in (windowDays 7, holdoutEvent "cta_holdout"); null: none',
  })
  experiment: CtaExperiment | null;

  @ApiPropertyOptional({ description: 'served over the exposure cap (docs/exposure-policy.md); never sent to devices' })
  capExempt: boolean;

  @ApiPropertyOptional(EPOCH_MS)
  createdAt: number;

  @ApiPropertyOptional()
  createdBy: string;

  @ApiPropertyOptional({ ...EPOCH_MS, nullable: true })
  lastUpdatedAt: number | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  lastUpdatedBy: string | null;

  @ApiPropertyOptional()
  tenantId: string;

  @ApiPropertyOptional({
    type: CtaApprovalDto,
    nullable: true,
    description:
      'Only while approvals are required (APPROVALS_REQUIRED): the approval of the current content, null when it has none ' +
      '(any update or restore voids it). Absent otherwise.',
  })
  approval?: CtaApproval | null;
}

export class CtaPageDto extends PageDto implements CtaPage {
  @ApiPropertyOptional({ type: [CtaRecordDto] })
  ctas: CtaRecordDto[];

  @ApiPropertyOptional({
    type: 'object',
    description: 'CTAs per status over every filter except status',
    properties: Object.fromEntries(CTA_STATUSES.map((status) => [status, { type: 'integer' }])),
  })
  statusWiseCount: Record<CtaStatus, number>;
}

export class CtaFilterValuesDto implements FilterValues {
  @ApiPropertyOptional({ type: [String] })
  names: string[];

  @ApiPropertyOptional({ type: [String] })
  teams: string[];

  @ApiPropertyOptional({ type: [String] })
  tags: string[];

  @ApiPropertyOptional({ type: [String] })
  createdBy: string[];
}

export class ProblemDto implements Problem {
  @ApiPropertyOptional({ example: 'rule.actions[1].type' })
  path: string;

  @ApiPropertyOptional()
  message: string;
}

/** The answer of `POST /ctas/validate`. */
export class CtaValidationReportDto implements CtaValidationReport {
  @ApiPropertyOptional({ description: 'true when create would accept the body' })
  valid: boolean;

  @ApiPropertyOptional({ type: [ProblemDto], description: 'what create would refuse, each at its JSON path' })
  errors: ProblemDto[];

  @ApiPropertyOptional({ type: [ProblemDto], description: 'accepted by create, but worth a look before going live' })
  warnings: ProblemDto[];
}
