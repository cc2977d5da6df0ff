import { Controller, Get, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AdminEndpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { AppUsersController } from '../app-users/app-users.controller';
import { ApprovalsController } from '../approvals/approvals.controller';
import { BAD_TENANT_EXAMPLE } from '../common/api-error-responses';
import { DataEnvelope, dataEnvelope } from '../common/envelope';
import { TenantId } from '../common/request-headers';
import { CtaStatusController } from '../cta-status/cta-status.controller';
import { CtasController } from '../ctas/ctas.controller';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import { requiredRoleOf, roleAllows, type AdminRole } from '../security/admin-roles';
import { defaultOperator, requestActor, requestRole } from '../security/operator';
import { WhoamiDto } from './whoami.dto';
import type { OperatorMay, Whoami } from './whoami.types';

/** The route behind each write of the view: the role it needs is the one its route declares, read from there. */
const WRITE_ROUTES: Readonly<Record<keyof OperatorMay, object>> = {
  update: CtasController.prototype.update,
  changeStatus: CtaStatusController.prototype.change,
  approve: ApprovalsController.prototype.approve,
  restore: CtasController.prototype.restore,
  exportUser: AppUsersController.prototype.export,
  eraseUser: AppUsersController.prototype.erase,
};

const mayOf = (role: AdminRole | null): OperatorMay => {
  const may = (route: object): boolean => role === null || roleAllows(role, requiredRoleOf(route));
  return {
    update: may(WRITE_ROUTES.update),
    changeStatus: may(WRITE_ROUTES.changeStatus),
    approve: may(WRITE_ROUTES.approve),
    restore: may(WRITE_ROUTES.restore),
    exportUser: may(WRITE_ROUTES.exportUser),
    eraseUser: may(WRITE_ROUTES.eraseUser),
  };
};

export const WHOAMI_EXAMPLE: Whoami = {
  tenantId: 'default',
  name: 'alice',
  role: 'publisher',
  user: 'alice',
  approvalsRequired: true,
  may: { update: true, changeStatus: true, approve: true, restore: true, exportUser: false, eraseUser: false },
};

/** `GET /whoami`: who the caller's key is and what it may change, so the operator's view offers only those buttons. */
@ApiTags(API_TAG.operatorView)
@Controller('whoami')
export class WhoamiController {
  constructor(@InjectSettings() private readonly settings: OrchestrationSettings) {}

  @Get()
  @AdminEndpoint({
    summary: 'The calling key: its name, its role and the writes that role may make',
    description:
      'What the operator view (/{admin}/ui/) asks first: with ADMIN_API_KEYS set a key is needed (401 otherwise); with none ' +
      'set, name and role are null and every write is allowed. Each write is allowed by the role its route declares.',
    role: 'viewer',
    answers: { data: WhoamiDto, description: 'the calling key', example: WHOAMI_EXAMPLE },
    errors: { 400: { description: 'INVALID_REQUEST: a malformed x-tenant-id', examples: [BAD_TENANT_EXAMPLE] } },
  })
  whoami(@TenantId() tenantId: string, @Req() request: FastifyRequest): DataEnvelope<Whoami> {
    const role = requestRole(request);
    const name = requestActor(request);
    return dataEnvelope({
      tenantId,
      name,
      role,
      // As a write's `user` parameter falls back: the view asks for a name when this is null.
      user: defaultOperator(name, this.settings),
      approvalsRequired: this.settings.approvalsRequired,
      may: mayOf(role),
    });
  }
}
