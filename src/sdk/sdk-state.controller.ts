import { Body, Controller, Header, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { CohortClient } from '../cohorts/cohort-provider';
import { API_TAG } from '../api-docs/api-tags';
import { ApiBadRequest } from '../common/api-error-responses';
import { ApiDataResponse } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { FLOW_USER_ID } from '../ctas/cta-api-examples';
import { SdkClientInfo, SdkUserId, TenantId } from '../common/request-headers';
import type { SdkClientInfo as ClientInfo } from '../common/request-headers';
import { LaunchResponseDto } from './dto/launch-response.dto';
import { SnapshotRequestDto, StateMachineDto } from './dto/snapshot-request.dto';
import { DELTA_EXAMPLE, LAUNCH_EXAMPLE } from './sdk-api-examples';
import { EMPTY_LAUNCH_RESPONSE } from './sdk-catalogue';
import { SdkStateService } from './sdk-state.service';
import { parseSnapshotRequest } from './snapshot-request';
import { MAX_STORED_LIST_ENTRIES } from './user-state';
import { TENANT_HEADER } from '../common/api-headers';
import { RequireAppUserToken } from '../security/app-user-token.guard';
import { SdkUserRequest } from './sdk-user-request';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const DELTA_STORED = '{"data":true}';
const DELTA_NOT_STORED = '{"data":false}';

const supportsStateMachines = (client: ClientInfo): boolean => client.apiVersion !== null && client.apiVersion >= 1;

/** The attributes rule cohorts and a host's cohort provider read (DESIGN §12); absent headers stay absent. */
function cohortClientOf(client: ClientInfo): CohortClient {
  const attributes: CohortClient = {};
  if (client.appVersion !== null) attributes.appVersion = client.appVersion;
  if (client.packageName !== null) attributes.packageName = client.packageName;
  if (client.hotpatchVersion !== null) attributes.hotpatchVersion = client.hotpatchVersion;
  return attributes;
}

const SDK_HEADERS = [
  TENANT_HEADER,
  {
    name: 'auth-userid',
    required: true,
    example: FLOW_USER_ID,
    description:
      'the app user: a signed 64-bit decimal integer (the id the app knows the user by); with app-user tokens ' +
      'configured, the user their token names',
  },
  {
    name: 'api_version',
    required: false,
    example: '1',
    description:
      'the SDK protocol version; send 1. Absent, not an integer or below 1 (older SDKs): the launch answers ' +
      '`{"data":{"ctas":null,"behaviourTags":null}}` and the delta `{"data":false}`, and nothing is stored',
  },
  { name: 'app_version', required: false, description: 'the app version, read by rule cohorts (appVersion), e.g. 5.2.0' },
  { name: 'package_name', required: false, description: 'the app package, read by rule cohorts (packageName), e.g. com.example.shop' },
  { name: 'hotpatch_version', required: false, description: 'read by rule cohorts (hotpatchVersion); also accepted as codepush_version' },
];

const MALFORMED_SNAPSHOTS_EXAMPLE = [ErrorCode.INVALID_REQUEST, 'invalid request'] as const;
const MISSING_USER_EXAMPLE = [ErrorCode.INVALID_REQUEST, "header 'auth-userid' is required"] as const;

const ApiSdkHeaders = (): MethodDecorator => (target, key, descriptor) => {
  SDK_HEADERS.forEach((header) => ApiHeader(header)(target, key, descriptor));
};

/**
 * The SDK's state-machine endpoints (DESIGN §11). Bodies are validated by the
 * merge code itself and answers are pre-serialised JSON text: this is the hot path.
 */
@ApiTags(API_TAG.sdk)
@ApiExtraModels(StateMachineDto)
@Controller()
export class SdkStateController {
  constructor(private readonly sdkState: SdkStateService) {}

  @Post('active/state-machines')
  @SdkUserRequest()
  @RequireAppUserToken()
  @HttpCode(200)
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiOperation({
    summary: 'Fetch the active CTAs and behaviour tags at app launch',
    description:
      'Merges the snapshots in the body first (as the delta call does), then answers the CTAs eligible for the user ' +
      '(live or started scheduled, within their time window, cohort-eligible; plus unexpired test CTAs targeting the user) ' +
      "by priority, with the user's state, and the behaviour tags linking them. api_version absent or below 1: " +
      '`{"data":{"ctas":null,"behaviourTags":null}}` and nothing is merged.',
  })
  @ApiSdkHeaders()
  @ApiBody({
    type: SnapshotRequestDto,
    required: false,
    examples: {
      'first launch': { summary: 'no state on the device yet', value: {} },
      'with state': { summary: 'the state the device holds for the example CTA, merged first', value: DELTA_EXAMPLE },
    },
  })
  @ApiDataResponse(LaunchResponseDto, { description: 'the eligible CTAs and their behaviour tags', example: LAUNCH_EXAMPLE.data })
  @ApiBadRequest(
    "INVALID_REQUEST: a malformed snapshot body ('invalid request'), or a missing or malformed auth-userid or x-tenant-id",
    MALFORMED_SNAPSHOTS_EXAMPLE,
    MISSING_USER_EXAMPLE,
  )
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
  @HttpCode(200)
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiOperation({
    summary: 'Merge state-machine snapshots of the user',
    description:
      'Per machine key: reset deletes; otherwise the incoming machine wins unless the stored one has a later ' +
      'lastTransitionAt. resetAt, actionDoneAt, activeCtas and ctasResetAt replace the stored lists when present ' +
      `(newest ${MAX_STORED_LIST_ENTRIES} kept). Snapshots of unknown CTAs or tags are ignored. \`data: true\` when stored, ` +
      '`data: false` when api_version is absent or below 1 (nothing stored).',
  })
  @ApiSdkHeaders()
  @ApiBody({
    type: SnapshotRequestDto,
    examples: { delta: { summary: 'the state the device holds for the example CTA', value: DELTA_EXAMPLE } },
  })
  @ApiDataResponse({ type: 'boolean' }, { description: 'whether the snapshots were stored', example: true })
  @ApiBadRequest(
    "INVALID_REQUEST: a malformed snapshot body ('invalid request'; nothing is stored), or a missing or malformed auth-userid or x-tenant-id",
    MALFORMED_SNAPSHOTS_EXAMPLE,
    MISSING_USER_EXAMPLE,
  )
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
