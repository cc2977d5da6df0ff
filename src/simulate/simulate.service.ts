import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { invalidRequest } from '../common/domain-error';
import { joinProblems, pathTo } from '../common/problems';
import { CtaValidationService } from '../ctas/cta-validation.service';
import { CtaExperiment, storedExperiment } from '../ctas/cta-experiment';
import { CtasService } from '../ctas/ctas.service';
import { ExperimentArm, holdoutRule } from '../serving/experiment-arm';
import { JourneyCta, JourneyStep, simulateJourney, SimulatedMachine } from './journey-simulator';
import { parseSimulateRequest, SimulatedCtaRequest } from './simulate-request';

/**
 * The machine id of a CTA body's rule without groupByKeys: the CTA's id, which a body has not yet
 * (a device names such a machine by the id the CTA gets at create).
 */
export const NEW_CTA_MACHINE_ID = '$ctaId';

/** The answer of `POST /ctas/simulate`. */
export interface Simulation {
  steps: JourneyStep[];
  /** The CTA as the device holds it after the last event. */
  state: {
    activeStateMachines: Record<string, SimulatedMachine>;
    resetAt: number[];
    actionDoneAt: number[];
  };
}

/**
 * `POST /ctas/simulate`: a CTA (a create body, checked as create checks it, or a stored CTA by id)
 * run over app events as a device runs it (`simulateJourney`). Reads only; writes nothing.
 */
@Injectable()
export class SimulateService {
  constructor(
    private readonly ctas: CtasService,
    private readonly validation: CtaValidationService,
    private readonly clock: Clock,
  ) {}

  async simulate(tenantId: string, body: unknown): Promise<Simulation> {
    const request = parseSimulateRequest(body, this.clock.now());
    const { experiment, ...cta } = await this.journeyCta(tenantId, request.cta);
    const { steps, state } = simulateJourney(armed(cta, experiment, request.arm), request.state, request.events, request.engine);
    return {
      steps,
      state: {
        // fromEntries defines own keys: a machine id such as "__proto__" stays a key.
        activeStateMachines: Object.fromEntries(state.activeStateMachines),
        resetAt: state.resetAt,
        actionDoneAt: state.actionDoneAt,
      },
    };
  }

  private async journeyCta(tenantId: string, cta: SimulatedCtaRequest): Promise<JourneyCta & { experiment: CtaExperiment | null }> {
    if ('id' in cta) {
      // Unknown ids (and test CTAs) answer CTA_ID_INVALID, as the CTA read does.
      const record = await this.ctas.get(tenantId, String(cta.id));
      const { ctaValidTill, ...rule } = record.rule;
      return { rule, validTill: ctaValidTill, ownMachineId: String(cta.id), experiment: record.experiment };
    }
    const { dto, rule, errors } = await this.validation.check(cta.body);
    if (rule === null || errors.length > 0) {
      throw invalidRequest(joinProblems(errors.map(({ path, message }) => ({ path: pathTo('cta', path), message }))));
    }
    return { rule, validTill: dto.endTime ?? null, ownMachineId: NEW_CTA_MACHINE_ID, experiment: storedExperiment(dto.experiment) };
  }
}

/** The CTA as the user's `arm` of its experiment gets it: the holdout variant for the holdout (docs/experiments.md). */
function armed(cta: JourneyCta, experiment: CtaExperiment | null, arm: ExperimentArm): JourneyCta {
  if (arm === 'treatment') return cta;
  if (experiment === null) {
    throw invalidRequest('arm: "holdout" runs the holdout variant of an experiment, and this CTA has no experiment');
  }
  return { ...cta, rule: holdoutRule(cta.rule, experiment) };
}
