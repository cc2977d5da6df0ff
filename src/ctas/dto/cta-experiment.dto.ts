import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EXPERIMENT_EXAMPLE } from '../../api-docs/flow-examples';
import { CtaExperiment, DEFAULT_HOLDOUT_EVENT, DEFAULT_WINDOW_DAYS } from '../cta-experiment';

/** The goal of an experiment. */
export class ExperimentGoalDto {
  @ApiProperty({ example: EXPERIMENT_EXAMPLE.goal.state, description: 'a state of the rule, not "0"' })
  state: string;
}

/**
 * A CTA's experiment, as documented (docs/experiments.md). Documentation only: the body is checked
 * with the rule it names by `experimentProblems` (the body pipe and the service).
 */
export class CtaExperimentDto implements CtaExperiment {
  @ApiProperty({ minimum: 1, maximum: 50, example: EXPERIMENT_EXAMPLE.holdoutPercent, description: 'the percent of users held out' })
  holdoutPercent: number;

  @ApiProperty({ type: ExperimentGoalDto })
  goal: ExperimentGoalDto;

  @ApiPropertyOptional({ minimum: 1, maximum: 30, default: DEFAULT_WINDOW_DAYS, description: 'days after exposure a conversion counts' })
  windowDays: number;

  @ApiPropertyOptional({ default: DEFAULT_HOLDOUT_EVENT, description: 'the app event the holdout variant emits where the treatment acts' })
  holdoutEvent: string;
}
