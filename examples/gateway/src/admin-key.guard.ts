import { CanActivate, ExecutionContext, UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

export const ADMIN_KEY_HEADER = 'x-gateway-admin-key';

/** The gateway's own check on the orchestration admin routes (stands in for its real auth). */
export class AdminKeyGuard implements CanActivate {
  constructor(private readonly adminKey: string) {}

  canActivate(context: ExecutionContext): boolean {
    const { headers } = context.switchToHttp().getRequest<FastifyRequest>();
    if (headers[ADMIN_KEY_HEADER] !== this.adminKey) {
      throw new UnauthorizedException(`the gateway's ${ADMIN_KEY_HEADER} header is required`);
    }
    return true;
  }
}
