import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { parseOptionalOperatorUser } from '../common/request-headers';
import type { ChangeOrigin as Origin } from './audit.types';

/** The name of the admin key that let each request in, set by the guard that checked it. */
const actors = new WeakMap<object, string>();

/**
 * Names the operator key of a request for its audit entries (DESIGN §15, §20). The
 * service's own key guard calls it; a host's guard may too, so its operators show up by name.
 */
export function setAuditActor(request: FastifyRequest, actor: string): void {
  actors.set(request, actor);
}

/** Who made this request's changes: the key's name, the optional `user` header, the request id. */
export function changeOriginOf(request: FastifyRequest): Origin {
  return { actor: actors.get(request) ?? null, user: parseOptionalOperatorUser(request.headers), requestId: request.id ?? null };
}

/** `changeOriginOf` as a parameter decorator. */
export const ChangeOrigin = createParamDecorator((_: unknown, context: ExecutionContext): Origin =>
  changeOriginOf(context.switchToHttp().getRequest<FastifyRequest>()),
);

/** The decorator's value: `@ChangeOrigin() origin: ChangeOrigin`. */
export type ChangeOrigin = Origin;
