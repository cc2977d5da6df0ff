import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_TAG } from '../api-docs/api-tags';
import { TENANT_HEADER } from '../common/api-headers';
import { ApiBadRequest } from '../common/api-error-responses';
import { ApiDataResponse, DataEnvelope, dataEnvelope } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { TenantId } from '../common/request-headers';
import { CreateCtaDto } from '../ctas/dto/cta-body.dto';
import { StateMachineDto } from '../sdk/dto/snapshot-request.dto';
import { RequiresRole } from '../security/admin-roles';
import { CtaByIdDto, SimulateRequestDto, SimulationDto } from './dto/simulation.dto';
import { SIMULATE_BODY_EXAMPLE, SIMULATE_BODY_RESULT, SIMULATE_ID_EXAMPLE, SIMULATE_ID_RESULT } from './simulate-api-examples';
import { MAX_SIMULATED_EVENTS } from './simulate-request';
import { Simulation, SimulateService } from './simulate.service';

/** `POST /ctas/simulate`: what a device will do with a CTA for a sequence of app events. */
@ApiTags(API_TAG.support)
@ApiHeader(TENANT_HEADER)
@ApiExtraModels(CreateCtaDto, CtaByIdDto, StateMachineDto)
@Controller('ctas')
export class SimulateController {
  constructor(private readonly simulation: SimulateService) {}

  @Post('simulate')
  @HttpCode(200)
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'Simulate a journey: what a device does with a CTA, event by event',
    description:
      `Runs a CTA create body (checked as create checks it) or a CTA of the tenant by id over 1-${MAX_SIMULATED_EVENTS} app events, ` +
      'from an optional prior state, exactly as the mobile SDK runs it in one app session: a step per event — the machine, ' +
      'its state before and after, the condition taken (its JSON path), the action and whether it shows, a reset, or why ' +
      'the CTA was skipped (NO_TRANSITION, FILTERS_FAILED, FREQUENCY_REACHED, GROUP_KEY_MISSING, MACHINE_CAP, MACHINE_EXPIRED, ' +
      'VALID_TILL_PASSED) — and the state the device holds at the end. Writes nothing. How to test a rule before it goes ' +
      'live: docs/rule-reference.md.',
  })
  @ApiBody({
    type: SimulateRequestDto,
    examples: {
      'a new journey': {
        summary: "the example CTA's body through two stores, a purchase and the session cap",
        value: SIMULATE_BODY_EXAMPLE,
      },
      'a CTA by id': { summary: 'CTA 1 (made by the create example), for a user already in state 1', value: SIMULATE_ID_EXAMPLE },
    },
  })
  @ApiDataResponse(SimulationDto, {
    description: 'the steps and the final state',
    example: SIMULATE_BODY_RESULT,
    examples: {
      'a new journey': { value: { data: SIMULATE_BODY_RESULT } },
      'a CTA by id': { value: { data: SIMULATE_ID_RESULT } },
    },
  })
  @ApiBadRequest(
    'INVALID_REQUEST: a CTA body create would refuse (every problem named at its path, as create names them), more than ' +
      `${MAX_SIMULATED_EVENTS} events or none, a malformed event or state (named at its path), events out of time order, or a ` +
      'malformed x-tenant-id; CTA_ID_INVALID: cta.id names no CTA of the tenant',
    [
      ErrorCode.INVALID_REQUEST,
      'cta.rule.stateTransition.store_opened.0[0].filters.filter[0].comparisonType: "EQUALS" is not one of =, != for propertyType string',
    ],
    [ErrorCode.INVALID_REQUEST, `events: must be an array of 1 to ${MAX_SIMULATED_EVENTS} events, not 1001 events`],
    [ErrorCode.CTA_ID_INVALID, 'CTA 99 does not exist'],
  )
  async simulate(@TenantId() tenantId: string, @Body() body: unknown): Promise<DataEnvelope<Simulation>> {
    return dataEnvelope(await this.simulation.simulate(tenantId, body));
  }
}
