import { CanActivate, ExecutionContext, UnauthorizedException } from '@nestjs/common';
import { setAuditActor } from 'cta-orchestration-service';
import type { FastifyRequest } from 'fastify';

export const ADMIN_KEY_HEADER = 'x-gateway-admin-key';
/** Who the audit history says made the gateway's admin changes. */
export const GATEWAY_OPERATOR = 'gateway-operator';

/**
 * The gateway's own check on the orchestration admin routes (stands in for its real auth). It
 * names the operator in the module's audit history; a guard with roles of its own would also
 * compare them with `requiredRoleOf(context.getHandler())`, the role the route needs.
 */
export class AdminKeyGuard implements CanActivate {
  constructor(private readonly adminKey: string) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.headers[ADMIN_KEY_HEADER] !== this.adminKey) {
      throw new UnauthorizedException(`the gateway's ${ADMIN_KEY_HEADER} header is required`);
    }
    setAuditActor(request, GATEWAY_OPERATOR);
    return true;
  }
}
