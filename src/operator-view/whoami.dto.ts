import { ApiProperty } from '@nestjs/swagger';
import { ADMIN_ROLES, type AdminRole } from '../security/admin-roles';
import type { OperatorMay, Whoami } from './whoami.types';

/** The writes the operator's view offers, each allowed by the role its route declares. */
export class OperatorMayDto implements OperatorMay {
  @ApiProperty({ description: 'PUT /ctas/{id}: edit a CTA' })
  update: boolean;

  @ApiProperty({ description: 'PUT /ctas/{id}/{action}: live, pause, schedule, conclude, terminate' })
  changeStatus: boolean;

  @ApiProperty({ description: 'POST /ctas/{id}/approve (with approvals required)' })
  approve: boolean;

  @ApiProperty({ description: 'POST /ctas/{id}/restore/{auditId}' })
  restore: boolean;

  @ApiProperty({ description: "GET /app-users/{userId}: export a user's data" })
  exportUser: boolean;

  @ApiProperty({ description: "DELETE /app-users/{userId}: erase a user's data" })
  eraseUser: boolean;
}

export class WhoamiDto implements Whoami {
  @ApiProperty({ description: 'the tenant of the request (x-tenant-id, else the default tenant)' })
  tenantId: string;

  @ApiProperty({ type: String, nullable: true, description: "the admin key's name (ADMIN_API_KEYS), null when no key was needed" })
  name: string | null;

  @ApiProperty({
    enum: ADMIN_ROLES,
    nullable: true,
    description: "the key's role; null when the admin API is open or a host's guard names no role (then every write is offered)",
  })
  role: AdminRole | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "who a write without a `user` header is recorded as: the key's name, else ADMIN_DEFAULT_USER; null: a write that " +
      'needs an operator (a restore) must send the `user` header',
  })
  user: string | null;

  @ApiProperty({ description: 'APPROVALS_REQUIRED: live and schedule need an approval by another key' })
  approvalsRequired: boolean;

  @ApiProperty({ type: OperatorMayDto, description: 'which writes this key may make' })
  may: OperatorMayDto;
}
