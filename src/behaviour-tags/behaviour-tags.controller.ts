import { Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { USER_HEADER } from '../common/api-headers';
import { DataEnvelope, dataEnvelope, EmptyEnvelope, emptyEnvelope } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { TenantId } from '../common/request-headers';
import { OperatorUser } from '../security/operator';
import { ValidBody } from '../common/validation';
import { ChangeOrigin } from '../audit/change-origin';
import {
  LINK_RULES,
  TAG_BODY_EXAMPLES,
  TAG_ERRORS,
  TAG_EXAMPLE_NEEDS,
  TAG_LIST_EXAMPLE,
  TAG_NAME_PARAM,
} from './behaviour-tag-api-examples';
import { BehaviourTagsService } from './behaviour-tags.service';
import { CreateBehaviourTagDto, UpdateBehaviourTagDto } from './dto/behaviour-tag-body.dto';
import { BehaviourTagListDto } from './dto/behaviour-tag-record.dto';

/** Behaviour tags (seed "Behaviour tags", docs/decisions/0004-behaviour-tags.md), under the admin prefix. */
@ApiTags(API_TAG.behaviourTags)
@Controller('behaviour-tags')
export class BehaviourTagsController {
  constructor(private readonly behaviourTags: BehaviourTagsService) {}

  @Post()
  @AdminEndpoint({
    summary: 'Create a behaviour tag',
    description: `Links the CTAs of linkedCtas to the new tag. Rules: ${LINK_RULES}; every linked CTA must be draft or paused.`,
    role: 'editor',
    headers: [USER_HEADER],
    body: { type: CreateBehaviourTagDto, examples: TAG_BODY_EXAMPLES.create },
    answers: { empty: 'created' },
    errors: TAG_ERRORS.create,
  })
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
  @AdminEndpoint({
    summary: 'Update a behaviour tag',
    exampleNeeds: TAG_EXAMPLE_NEEDS.update,
    description:
      'Replaces the description, exposureRule, ctaRelation and the linked set at once (CTAs left out of linkedCtas are unlinked). ' +
      `Rules: ${LINK_RULES}; no CTA linked before or after may be live or scheduled.`,
    role: 'editor',
    params: [TAG_NAME_PARAM],
    headers: [USER_HEADER],
    body: { type: UpdateBehaviourTagDto, examples: TAG_BODY_EXAMPLES.update },
    answers: { empty: 'updated' },
    errors: TAG_ERRORS.update,
  })
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
  @AdminEndpoint({
    summary: 'List the behaviour tags of the tenant',
    description: 'Sorted by name; CTA ids are strings.',
    role: 'viewer',
    answers: { data: BehaviourTagListDto, description: 'every tag of the tenant', example: TAG_LIST_EXAMPLE },
    errors: TAG_ERRORS.list,
  })
  async list(@TenantId() tenantId: string): Promise<DataEnvelope<BehaviourTagListDto>> {
    return dataEnvelope({ behaviourTags: await this.behaviourTags.list(tenantId) });
  }
}
