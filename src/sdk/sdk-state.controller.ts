import { Body, Controller, Header, Post } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import type { CohortClient } from '../cohorts/cohort-provider';
import { Endpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { SdkClientInfo, SdkUserId, TenantId } from '../common/request-headers';
import type { SdkClientInfo as ClientInfo } from '../common/request-headers';
import { RequireAppUserToken } from '../security/app-user-token.guard';
import { LaunchResponseDto } from './dto/launch-response.dto';
import { SnapshotRequestDto, StateMachineDto } from './dto/snapshot-request.dto';
import { LAUNCH_EXAMPLE, SDK_BODY_EXAMPLES, SDK_CLIENT_HEADERS, SDK_ERRORS } from './sdk-api-examples';
import { EMPTY_LAUNCH_RESPONSE } from './sdk-catalogue';
import { SdkStateService } from './sdk-state.service';
import { parseSnapshotRequest } from './snapshot-request';
import { MAX_STORED_LIST_ENTRIES } from './user-state';
import { SdkUserRequest } from './sdk-user-request';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const DELTA_STORED = '{"data":true}';
const DELTA_NOT_STORED = '{"data":false}';

const supportsStateMachines = (client: ClientInfo): boolean => client.apiVersion !== null && client.apiVersion >= 1;

/** The attributes rule cohorts and a host's cohort provider read (docs/decisions/0008-cohorts.md); absent headers stay absent. */
function cohortClientOf(client: ClientInfo): CohortClient {
  const attributes: CohortClient = {};
  if (client.appVersion !== null) attributes.appVersion = client.appVersion;
  if (client.packageName !== null) attributes.packageName = client.packageName;
  if (client.hotpatchVersion !== null) attributes.hotpatchVersion = client.hotpatchVersion;
  return attributes;
}

/**
 * The SDK's state-machine endpoints (docs/decisions/0006-user-state-merge.md). Bodies are validated by the
 * merge code itself and answers are pre-serialised JSON text: this is the hot path.
 */
@ApiTags(API_TAG.sdk)
@ApiExtraModels(StateMachineDto)
@Controller()
export class SdkStateController {
  constructor(private readonly sdkState: SdkStateService) {}

  @Post('active/state-machines')
  @SdkUserRequest('ignore')
  @RequireAppUserToken()
  @Header('content-type', JSON_CONTENT_TYPE)
  @Endpoint({
    summary: 'Fetch the active CTAs and behaviour tags at app launch',
    description:
      'Merges the snapshots in the body first (as the delta call does), then answers the CTAs eligible for the user ' +
      '(live or started scheduled, within their time window, cohort-eligible; plus unexpired test CTAs targeting the user) ' +
      "by priority, with the user's state, and the behaviour tags linking them. api_version absent or below 1: " +
      '`{"data":{"ctas":null,"behaviourTags":null}}` and nothing is merged. A body over SDK_BODY_LIMIT_BYTES is ' +
      'never refused: the launch is answered as one without a body (from the stored state; nothing of the body is kept), ' +
      'since a device sends its failed delta as the body of every launch.',
    headers: SDK_CLIENT_HEADERS,
    body: { type: SnapshotRequestDto, required: false, examples: SDK_BODY_EXAMPLES.launch },
    answers: { data: LaunchResponseDto, description: 'the eligible CTAs and their behaviour tags', example: LAUNCH_EXAMPLE.data },
    errors: SDK_ERRORS.launch,
    oversizedBodyIgnored: true,
  })
  async launch(
    @TenantId() tenantId: string,
    @SdkUserId() userId: string,
    @SdkClientInfo() client: ClientInfo,
    @Body() body: unknown,
  ): Promise<Buffer | string> {
    if (!supportsStateMachines(client)) {
      return EMPTY_LAUNCH_RESPONSE;
    }
    return this.sdkState.launch(tenantId, userId, cohortClientOf(client), parseSnapshotRequest(body));
  }

  @Post('state-machines/snapshot/delta')
  @SdkUserRequest()
  @RequireAppUserToken()
  @Header('content-type', JSON_CONTENT_TYPE)
  @Endpoint({
    summary: 'Merge state-machine snapshots of the user',
    description:
      'Per machine key: reset deletes; otherwise the incoming machine wins unless the stored one has a later ' +
      'lastTransitionAt. resetAt, actionDoneAt, activeCtas and ctasResetAt replace the stored lists when present ' +
      `(newest ${MAX_STORED_LIST_ENTRIES} kept). Snapshots of unknown CTAs or tags are ignored. \`data: true\` when stored, ` +
      '`data: false` when api_version is absent or below 1 (nothing stored).',
    headers: SDK_CLIENT_HEADERS,
    body: { type: SnapshotRequestDto, examples: SDK_BODY_EXAMPLES.delta },
    answers: { data: { type: 'boolean' }, description: 'whether the snapshots were stored', example: true },
    errors: SDK_ERRORS.delta,
  })
  async delta(
    @TenantId() tenantId: string,
    @SdkUserId() userId: string,
    @SdkClientInfo() client: ClientInfo,
    @Body() body: unknown,
  ): Promise<string> {
    if (!supportsStateMachines(client)) {
      return DELTA_NOT_STORED;
    }
    await this.sdkState.mergeDelta(tenantId, userId, parseSnapshotRequest(body));
    return DELTA_STORED;
  }
}
