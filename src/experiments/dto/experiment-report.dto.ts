import { ApiProperty } from '@nestjs/swagger';
import { ExperimentGoalDto } from '../../ctas/dto/cta-experiment.dto';
import type { ArmReport, ExperimentReport } from '../experiment-report';
import type { SampleRatioCheck, Uplift } from '../experiment-statistics';

/** What `GET /ctas/{id}/experiment` answers (inside `{"data": …}`); the formulas are in docs/experiments.md. */

const COUNT = { type: 'integer' } as const;
const SHARE = { type: 'number', nullable: true } as const;

export class ArmReportDto implements ArmReport {
  @ApiProperty({ ...COUNT, description: 'users with a first machine of the CTA' })
  entered: number;

  @ApiProperty({ ...COUNT, description: "users with a first action of the CTA (actionDoneAt), the holdout variant's included" })
  exposed: number;

  @ApiProperty({
    ...COUNT,
    description: 'exposed users whose machine reached the goal state (or reset from it) within windowDays of exposure',
  })
  converted: number;

  @ApiProperty({ ...SHARE, description: 'converted / exposed; null before any exposed user' })
  rate: number | null;
}

export class ExperimentArmsDto {
  @ApiProperty({ type: ArmReportDto })
  treatment: ArmReportDto;

  @ApiProperty({ type: ArmReportDto })
  holdout: ArmReportDto;
}

export class UpliftDto implements Uplift {
  @ApiProperty({ ...SHARE, description: 'treatment rate − holdout rate; null while an arm has no exposed user' })
  absolute: number | null;

  @ApiProperty({ ...SHARE, description: 'absolute / holdout rate; null also when the holdout rate is 0' })
  relative: number | null;

  @ApiProperty({
    type: 'array',
    items: { type: 'number' },
    minItems: 2,
    maxItems: 2,
    nullable: true,
    description: '95% interval of the absolute uplift: absolute ± 1.96 × the unpooled standard error',
  })
  ci95: [number, number] | null;
}

export class SampleRatioCheckDto implements SampleRatioCheck {
  @ApiProperty({ ...SHARE, description: 'chi-square (1 degree of freedom) of the exposed counts against the configured split' })
  pValue: number | null;

  @ApiProperty({ description: 'pValue < 0.001: the split is broken, do not trust the result' })
  suspect: boolean;
}

export class ExperimentReportDto implements ExperimentReport {
  @ApiProperty({ ...COUNT, format: 'int64' })
  ctaId: number;

  @ApiProperty({ ...COUNT, minimum: 1, maximum: 50 })
  holdoutPercent: number;

  @ApiProperty({ type: ExperimentGoalDto })
  goal: ExperimentGoalDto;

  @ApiProperty({ ...COUNT, minimum: 1, maximum: 30 })
  windowDays: number;

  @ApiProperty({ type: 'integer', format: 'int64', nullable: true, description: 'epoch ms the CTA started serving; null before' })
  startedAt: number | null;

  @ApiProperty({ type: ExperimentArmsDto })
  arms: ExperimentArmsDto;

  @ApiProperty({ type: UpliftDto })
  uplift: UpliftDto;

  @ApiProperty({
    ...SHARE,
    description: 'two-sided two-proportion z-test of converted / exposed (pooled standard error); null while an arm has no exposed user',
  })
  pValue: number | null;

  @ApiProperty({ description: 'pValue < 0.05 and at least 100 exposed users in each arm' })
  significant: boolean;

  @ApiProperty({ type: SampleRatioCheckDto })
  srm: SampleRatioCheckDto;

  @ApiProperty({
    enum: ['collecting', 'ready'],
    description: '"ready" once each arm has at least 100 exposed users: the result can be read, significant or not; else "collecting"',
  })
  status: 'collecting' | 'ready';
}
