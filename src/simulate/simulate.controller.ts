import { Body, Controller, Post } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { AdminEndpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { DataEnvelope, dataEnvelope } from '../common/envelope';
import { TenantId } from '../common/request-headers';
import { CreateCtaDto } from '../ctas/dto/cta-body.dto';
import { StateMachineDto } from '../sdk/dto/snapshot-request.dto';
import { CtaByIdDto, SimulateRequestDto, SimulationDto } from './dto/simulation.dto';
import { SIMULATE_BODY_EXAMPLES, SIMULATE_BODY_RESULT, SIMULATE_ERRORS, SIMULATE_ID_RESULT } from './simulate-api-examples';
import { MAX_SIMULATED_EVENTS } from './simulate-request';
import { Simulation, SimulateService } from './simulate.service';

/** `POST /ctas/simulate`: what a device will do with a CTA for a sequence of app events. */
@ApiTags(API_TAG.support)
@ApiExtraModels(CreateCtaDto, CtaByIdDto, StateMachineDto)
@Controller('ctas')
export class SimulateController {
  constructor(private readonly simulation: SimulateService) {}

  @Post('simulate')
  @AdminEndpoint({
    summary: 'Simulate a journey: what a device does with a CTA, event by event',
    description:
      `Runs a CTA create body (checked as create checks it) or a CTA of the tenant by id over 1-${MAX_SIMULATED_EVENTS} app events, ` +
      'from an optional prior state, exactly as the mobile SDK runs it in one app session: a step per event — the machine, ' +
      'its state before and after, the condition taken (its JSON path), the action and whether it shows, a reset, or why ' +
      'the CTA was skipped (NO_TRANSITION, FILTERS_FAILED, FREQUENCY_REACHED, GROUP_KEY_MISSING, MACHINE_CAP, MACHINE_EXPIRED, ' +
      'VALID_TILL_PASSED) — and the state the device holds at the end. It follows the newest device engine unless the body ' +
      'asks for `"engine": "legacy"` (the older one-action gate, which reads `actionDone` off the event). Writes nothing. ' +
      'How to test a rule before it goes live: docs/rule-reference.md.',
    role: 'viewer',
    body: { type: SimulateRequestDto, examples: SIMULATE_BODY_EXAMPLES },
    answers: {
      data: SimulationDto,
      description: 'the steps and the final state',
      example: SIMULATE_BODY_RESULT,
      examples: {
        'a new journey': { value: { data: SIMULATE_BODY_RESULT } },
        'a CTA by id': { value: { data: SIMULATE_ID_RESULT } },
      },
    },
    errors: SIMULATE_ERRORS,
  })
  async simulate(@TenantId() tenantId: string, @Body() body: unknown): Promise<DataEnvelope<Simulation>> {
    return dataEnvelope(await this.simulation.simulate(tenantId, body));
  }
}
