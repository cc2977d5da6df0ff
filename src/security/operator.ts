import { createParamDecorator, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { parseOperatorUser } from '../common/request-headers';
import type { AdminRole } from './admin-roles';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';

/*
 * Who the operator of an admin request is: the `user` header, else the name of the key that let the
 * request in, else the configured default user (docs/decisions/0001-wire-rules-and-errors.md).
 */

/** The name (and role, when known) of the admin key that let each request in, set by the guard that checked it. */
const actors = new WeakMap<object, { actor: string; role: AdminRole | null }>();

/**
 * Names the operator key of a request: the actor of its audit entries, and its operator when
 * the request sends no `user` header. The service's own key guard calls it; a
 * host's guard may too, so its operators show up by name — and, with `role`, the operator's view
 * offers them only what that role may do (`GET /{admin}/whoami`).
 */
export function setAuditActor(request: FastifyRequest, actor: string, role?: AdminRole): void {
  actors.set(request, { actor, role: role ?? null });
}

/** The name a guard gave the request's key, or null. */
export const requestActor = (request: FastifyRequest): string | null => actors.get(request)?.actor ?? null;

/** The role a guard gave the request's key, or null (no guard, or a host's guard that names no role). */
export const requestRole = (request: FastifyRequest): AdminRole | null => actors.get(request)?.role ?? null;

/** The request as `OperatorUserPipe` needs it: its headers and the name of the key that let it in. */
interface OperatorSources {
  headers: FastifyRequest['headers'];
  actor: string | null;
}

const OperatorSources = createParamDecorator((_: unknown, context: ExecutionContext): OperatorSources => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return { headers: request.headers, actor: requestActor(request) };
});

/** Who a write without a `user` header is recorded as: the key's name, else `adminDefaultUser`; null: no one. */
export const defaultOperator = (actor: string | null, settings: Pick<OrchestrationSettings, 'adminDefaultUser'>): string | null =>
  actor ?? settings.adminDefaultUser;

/** `parseOperatorUser` with the fallbacks of the running service (`defaultOperator`). */
@Injectable()
export class OperatorUserPipe implements PipeTransform<OperatorSources, string> {
  constructor(@InjectSettings() private readonly settings: OrchestrationSettings) {}

  transform({ headers, actor }: OperatorSources): string {
    return parseOperatorUser(headers, defaultOperator(actor, this.settings));
  }
}

/** The operator named by the required `user` header, or by default the admin key's name or the configured default user. */
export const OperatorUser = (): ParameterDecorator => OperatorSources(undefined, OperatorUserPipe);
