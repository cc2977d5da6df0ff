import { Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { API_TAG } from '../api-docs/api-tags';
import { ApiBadRequest, BAD_TENANT_EXAMPLE } from '../common/api-error-responses';
import { ApiDataResponse, ApiEmptyResponse, DataEnvelope, dataEnvelope, EmptyEnvelope, emptyEnvelope } from '../common/envelope';
import { FLOW_CTA_ID, FLOW_TAG_NAME } from '../ctas/cta-api-examples';
import { ErrorCode } from '../common/error-code';
import { OperatorUser, TenantId } from '../common/request-headers';
import { ValidBody } from '../common/validation';
import { CREATE_TAG_EXAMPLE, TAG_RULES_EXAMPLE } from './behaviour-tag-api-examples';
import { BehaviourTagsService } from './behaviour-tags.service';
import { CreateBehaviourTagDto, UpdateBehaviourTagDto } from './dto/behaviour-tag-body.dto';
import { BehaviourTagListDto } from './dto/behaviour-tag-record.dto';
import { TENANT_HEADER, USER_HEADER } from '../common/api-headers';
import { ChangeOrigin } from '../audit/change-origin';
import { RequiresRole } from '../security/admin-roles';

const LIST_EXAMPLE = {
  behaviourTags: [
    {
      name: FLOW_TAG_NAME,
      description: TAG_RULES_EXAMPLE.description,
      createdAt: 1795372967296,
      createdBy: 'alice@example.com',
      lastUpdatedAt: 1795372967296,
      lastUpdatedBy: 'alice@example.com',
      exposureRule: TAG_RULES_EXAMPLE.exposureRule,
      ctaRelation: TAG_RULES_EXAMPLE.ctaRelation,
      linkedCtas: TAG_RULES_EXAMPLE.linkedCtas,
      tenantId: 'default',
    },
  ],
};

const LINK_RULES =
  'every linkedCtas id must be an existing non-test CTA of the tenant and not linked by another tag; every ctaList id must be in linkedCtas; ' +
  'ctaRelation is one of the two pairs devices understand: shownCta ANY with hideCta REST (both ctaLists empty) or shownCta LIST with hideCta LIST ' +
  '(docs/rule-reference.md)';

/** Behaviour tags (seed "Behaviour tags", docs/decisions/0004-behaviour-tags.md), under the admin prefix. */
@ApiTags(API_TAG.behaviourTags)
@Controller('behaviour-tags')
export class BehaviourTagsController {
  constructor(private readonly behaviourTags: BehaviourTagsService) {}

  @Post()
  @HttpCode(200)
  @RequiresRole('editor')
  @ApiOperation({
    summary: 'Create a behaviour tag',
    description: `Links the CTAs of linkedCtas to the new tag. Rules: ${LINK_RULES}; every linked CTA must be draft or paused.`,
  })
  @ApiHeader(TENANT_HEADER)
  @ApiHeader(USER_HEADER)
  @ApiBody({
    type: CreateBehaviourTagDto,
    examples: {
      [FLOW_TAG_NAME]: {
        summary: `links CTA ${FLOW_CTA_ID}, made by the CTA create example`,
        value: CREATE_TAG_EXAMPLE,
      },
    },
  })
  @ApiEmptyResponse('created')
  @ApiBadRequest(
    'CAMPAIGN_DUPLICATE_NAME: the tenant already has a tag of this name; ' +
      `CAMPAIGN_INVALID: an invalid body (the message lists every problem with its field path), or a broken rule (${LINK_RULES}; linked CTAs draft or paused); ` +
      "INVALID_REQUEST: missing 'user' header, malformed x-tenant-id or malformed JSON",
    [ErrorCode.CAMPAIGN_DUPLICATE_NAME, `behaviourTagName: a behaviour tag named '${FLOW_TAG_NAME}' already exists`],
    [ErrorCode.CAMPAIGN_INVALID, 'linkedCtas: CTA 99 does not exist'],
    [
      ErrorCode.CAMPAIGN_INVALID,
      'exposureRule.window.unit must be one of the following values: days, hours, minutes, seconds; linkedCtas is required',
    ],
    [ErrorCode.INVALID_REQUEST, "header 'user' is required"],
  )
  async create(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @ValidBody(ErrorCode.CAMPAIGN_INVALID) body: CreateBehaviourTagDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<EmptyEnvelope> {
    await this.behaviourTags.create(tenantId, user, body, origin);
    return emptyEnvelope();
  }

  @Put(':behaviourTagName')
  @HttpCode(200)
  @RequiresRole('editor')
  @ApiOperation({
    summary: 'Update a behaviour tag',
    description:
      'Replaces the description, exposureRule, ctaRelation and the linked set at once (CTAs left out of linkedCtas are unlinked). ' +
      `Rules: ${LINK_RULES}; no CTA linked before or after may be live or scheduled.`,
  })
  @ApiParam({
    name: 'behaviourTagName',
    description: `the tag name, URL-encoded (${FLOW_TAG_NAME}: the tag the create example makes)`,
    example: FLOW_TAG_NAME,
  })
  @ApiHeader(TENANT_HEADER)
  @ApiHeader(USER_HEADER)
  @ApiBody({
    type: UpdateBehaviourTagDto,
    examples: {
      [FLOW_TAG_NAME]: { summary: 'the created tag, unchanged (its CTAs must not be live or scheduled)', value: TAG_RULES_EXAMPLE },
    },
  })
  @ApiEmptyResponse('updated')
  @ApiBadRequest(
    'CAMPAIGN_INVALID: no tag of this name, an invalid body (the message lists every problem with its field path), a behaviourTagName in the body ' +
      `other than the path's, or a broken rule (${LINK_RULES}; no linked CTA live or scheduled); ` +
      "INVALID_REQUEST: missing 'user' header, malformed x-tenant-id or malformed JSON",
    [
      ErrorCode.CAMPAIGN_INVALID,
      `behaviour tag '${FLOW_TAG_NAME}' can change only while none of its CTAs is live or scheduled; CTA ${FLOW_CTA_ID} is live`,
    ],
    [ErrorCode.CAMPAIGN_INVALID, "behaviour tag 'spring-sale' does not exist"],
    [ErrorCode.INVALID_REQUEST, "header 'user' is required"],
  )
  async update(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @Param('behaviourTagName') name: string,
    @ValidBody(ErrorCode.CAMPAIGN_INVALID) body: UpdateBehaviourTagDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<EmptyEnvelope> {
    await this.behaviourTags.update(tenantId, user, name, body, origin);
    return emptyEnvelope();
  }

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'List the behaviour tags of the tenant', description: 'Sorted by name; CTA ids are strings.' })
  @ApiHeader(TENANT_HEADER)
  @ApiDataResponse(BehaviourTagListDto, { description: 'every tag of the tenant', example: LIST_EXAMPLE })
  @ApiBadRequest('INVALID_REQUEST: malformed x-tenant-id', BAD_TENANT_EXAMPLE)
  async list(@TenantId() tenantId: string): Promise<DataEnvelope<BehaviourTagListDto>> {
    return dataEnvelope({ behaviourTags: await this.behaviourTags.list(tenantId) });
  }
}
