import type { FastifyRequest } from 'fastify';

/** The name of the admin key that let each request in, set by the guard that checked it. */
const actors = new WeakMap<object, string>();

/**
 * Names the operator key of a request: the actor of its audit entries, and its operator when
 * the request sends no `user` header. The service's own key guard calls it; a
 * host's guard may too, so its operators show up by name.
 */
export function setAuditActor(request: FastifyRequest, actor: string): void {
  actors.set(request, actor);
}

/** The name a guard gave the request's key, or null. */
export const requestActor = (request: FastifyRequest): string | null => actors.get(request) ?? null;
