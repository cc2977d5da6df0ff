import { ApiPropertyOptional } from '@nestjs/swagger';
import { PageDto } from '../../common/page.dto';
import type { Operation } from 'fast-json-patch';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, AuditAction, AuditEntityType, AuditEntry, AuditPage } from '../audit.types';

/**
 * What the audit endpoints answer (inside `{"data": …}`). Every field is always sent; the
 * document has never marked them required, so they stay optional here.
 */

/** One RFC 6902 operation; `value` is any JSON. */
const JSON_PATCH_OPERATION = {
  type: 'object',
  properties: { op: { type: 'string' }, path: { type: 'string' }, value: {}, from: { type: 'string' } },
} as const;

const NULLABLE_STRING = { type: String, nullable: true } as const;
const RECORD = { type: 'object', nullable: true, additionalProperties: true } as const;

export class AuditEntryDto implements AuditEntry {
  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: 'the entry id, for restore' })
  id: number;

  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: 'epoch ms of the change' })
  at: number;

  @ApiPropertyOptional({
    ...NULLABLE_STRING,
    description: 'name of the admin key (ADMIN_API_KEYS) that made it, `scheduler` for timed transitions, null when the admin API is open',
  })
  actor: string | null;

  @ApiPropertyOptional({ ...NULLABLE_STRING, description: 'the `user` header of the request, null where it was optional and absent' })
  user: string | null;

  @ApiPropertyOptional({ ...NULLABLE_STRING, description: 'the x-request-id of the request' })
  requestId: string | null;

  @ApiPropertyOptional({ enum: AUDIT_ENTITY_TYPES })
  entityType: AuditEntityType;

  @ApiPropertyOptional({ description: 'CTA id, behaviour tag name, event name or cohort name' })
  entityId: string;

  @ApiPropertyOptional({ enum: AUDIT_ACTIONS })
  action: AuditAction;

  @ApiPropertyOptional({ ...RECORD, description: 'the record as the admin API showed it before; null on create' })
  before: object | null;

  @ApiPropertyOptional({ ...RECORD, description: 'the record as the admin API showed it after; null on delete' })
  after: object | null;

  @ApiPropertyOptional({
    type: 'array',
    items: JSON_PATCH_OPERATION,
    description: 'RFC 6902 JSON Patch from before to after (a whole-document replace on create and delete)',
  })
  changes: Operation[];
}

export class AuditPageDto extends PageDto implements AuditPage {
  @ApiPropertyOptional({ type: [AuditEntryDto], description: 'newest first' })
  entries: AuditEntryDto[];
}
