import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';

/** A strong validator of a payload: its SHA-1, as a quoted entity tag. */
const entityTag = (payload: string | Buffer): string => `"${createHash('sha1').update(payload).digest('base64url')}"`;

/** Whether `If-None-Match` names `tag` (a list of tags, or `*`; a weak `W/` prefix compares as the same tag). */
export function ifNoneMatchNames(ifNoneMatch: string | undefined, tag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .map((candidate) => candidate.trim().replace(/^W\//, ''))
    .some((candidate) => candidate === '*' || candidate === tag);
}

/**
 * An ETag on a buffered 200 answer, and 304 with no body when the request's `If-None-Match` names it. The
 * console's page and its init script (with the whole document inside, half a megabyte) are built once but
 * served by plain routes, unlike the static assets (whose ETags @fastify/static sets). The last tag is kept:
 * these routes answer the same string every time, so it is hashed once.
 */
function validatorHook(): onSendHookHandler<unknown> {
  let last: { payload: unknown; tag: string } | undefined;
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    // The static assets' own 304s come as empty streams, which the compression hook would encode: a 304 has no body.
    if (reply.statusCode === 304) {
      done(null, '');
      return;
    }
    if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
      done(null, payload);
      return;
    }
    if (last?.payload !== payload) last = { payload, tag: entityTag(payload) };
    reply.header('etag', last.tag);
    if (ifNoneMatchNames(request.headers['if-none-match'], last.tag)) {
      reply.code(304);
      done(null, '');
      return;
    }
    done(null, payload);
  };
}

/**
 * Adds validators to the routes for which `validated(url)` holds, as a hook of those routes alone (no other
 * route pays for it). Its hook runs before the compression hook, so the tag is the uncompressed answer's and
 * a 304 is never compressed. Call it before the routes are registered and before `registerCompression`.
 */
export function registerResponseValidators(fastify: FastifyInstance, validated: (url: string) => boolean): void {
  fastify.addHook('onRoute', (route) => {
    if (!validated(route.url)) return;
    const hook = validatorHook();
    route.onSend = route.onSend === undefined ? [hook] : [hook, ...(Array.isArray(route.onSend) ? route.onSend : [route.onSend])];
  });
}
