import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requestActor } from '../security/operator';
import { parseOptionalOperatorUser } from '../common/request-headers';
import type { ChangeOrigin as Origin } from './audit.types';

/** Who made this request's changes: the key's name, the optional `user` header, the request id. */
export function changeOriginOf(request: FastifyRequest): Origin {
  return { actor: requestActor(request), user: parseOptionalOperatorUser(request.headers), requestId: request.id ?? null };
}

/** `changeOriginOf` as a parameter decorator. */
export const ChangeOrigin = createParamDecorator((_: unknown, context: ExecutionContext): Origin =>
  changeOriginOf(context.switchToHttp().getRequest<FastifyRequest>()),
);

/** The decorator's value: `@ChangeOrigin() origin: ChangeOrigin`. */
export type ChangeOrigin = Origin;
