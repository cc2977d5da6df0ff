import type { FastifyInstance, FastifyReply, onRequestHookHandler } from 'fastify';
import { errorEnvelope } from '../common/envelope';
import { ErrorCode, HTTP_STATUS_OF } from '../common/error-code';
import { KeyedGate } from '../common/keyed-gate';
import { sdkUserOf } from '../common/request-headers';
import { sdkUserLog } from '../sdk/sdk-user-log';
import { SDK_USER_REQUEST } from '../sdk/sdk-user-request';

/** The SDK routes' own body limit by default: twice the stored-state cap; a device's real deltas are a few KB. */
export const DEFAULT_SDK_BODY_LIMIT_BYTES = 512 * 1024;
/**
 * Requests of one app user that wait while another of theirs is read and handled; one more is
 * answered 429. A device's overlapping requests (a launch and the deltas after it, a retry) all
 * wait their turn and are answered; only a pile-up no device makes is refused. A waiting request
 * costs its socket: its body stays unread.
 */
export const MAX_WAITING_PER_USER = 100;
/**
 * The pace at which one app user's bodies are taken in, on average: after a request of B bytes the
 * user's next one starts B / this later at the soonest (a 512 KiB body: 125 ms; a device's delta of
 * a few KB: well under a millisecond). Taking a body in costs the service a few ms per 100 KB, so
 * a user who sends nothing but the largest bodies, from any number of connections, keeps at most
 * about a third of one instance busy.
 */
export const SDK_USER_BYTES_PER_SECOND = 4 * 1024 * 1024;
/** A turn held back less than this is handed on at once. */
const MIN_HOLD_MS = 1;
/** All requests whose tenant or user header is malformed share one turn (they are answered 400). */
const MALFORMED_USER_KEY = '';
const REFUSAL_STATUSES = new Set([HTTP_STATUS_OF[ErrorCode.PAYLOAD_TOO_LARGE], HTTP_STATUS_OF[ErrorCode.RATE_LIMITED]]);

/**
 * Fair work on the SDK routes that carry an app user's snapshots (launch, delta), for
 * the standalone app and any host; call it before `app.init()`:
 * - their own body limit, `bodyLimitBytes`, or the server's when that is smaller (larger → 413
 *   PAYLOAD_TOO_LARGE);
 * - one request per (tenant, `auth-userid`) read, parsed and handled at a time: the user is taken
 *   from the headers before the body is read, so four connections sending large bodies for one
 *   user cost what one does, and other users never wait on them. Later requests of the user wait
 *   in arrival order (their bodies stay unread), up to MAX_WAITING_PER_USER; one more is answered
 *   429 RATE_LIMITED with `Retry-After: 1`. A request's turn ends when its response is sent or its
 *   connection closes, whatever the outcome, and passes on after a pause as long as its bytes take
 *   at SDK_USER_BYTES_PER_SECOND.
 * Refusals (413, 429) are logged per user with counts, at most one line every few seconds.
 */
export function registerSdkRequestLimits(fastify: FastifyInstance, bodyLimitBytes = DEFAULT_SDK_BODY_LIMIT_BYTES): void {
  const gate = new KeyedGate(MAX_WAITING_PER_USER);
  const takeTurn: onRequestHookHandler = (request, reply, done) => {
    const user = sdkUserOf(request.headers);
    const ticket = gate.enter(user ? `${user.tenantId}\u0000${user.userId}` : MALFORMED_USER_KEY, done);
    if (!ticket) {
      if (user) sdkUserLog.refused(user.tenantId, user.userId, HTTP_STATUS_OF[ErrorCode.RATE_LIMITED]);
      refuseBusy(reply);
      return;
    }
    // The body's size as announced; without one (chunked), what the socket read during the request.
    const announced = Number(request.headers['content-length']);
    const socket = request.raw.socket;
    const bytesBefore = socket.bytesRead;
    reply.raw.once('close', () => {
      const bytes = Number.isSafeInteger(announced) && announced >= 0 ? announced : socket.bytesRead - bytesBefore;
      const holdMs = (bytes * 1000) / SDK_USER_BYTES_PER_SECOND;
      if (holdMs < MIN_HOLD_MS) gate.leave(ticket);
      else setTimeout(() => gate.leave(ticket), holdMs).unref();
      if (user && REFUSAL_STATUSES.has(reply.statusCode)) sdkUserLog.refused(user.tenantId, user.userId, reply.statusCode);
    });
    if (ticket.state === 'holding') done();
  };
  fastify.addHook('onRoute', (route) => {
    if ((route.config as Record<string, unknown> | undefined)?.[SDK_USER_REQUEST] !== true) return;
    route.bodyLimit = Math.min(bodyLimitBytes, fastify.initialConfig.bodyLimit ?? bodyLimitBytes);
    // Before the route's own hooks: the turn is taken before anything else of the route runs.
    route.onRequest = [takeTurn, ...[route.onRequest ?? []].flat()];
  });
}

function refuseBusy(reply: FastifyReply): void {
  void reply
    .code(HTTP_STATUS_OF[ErrorCode.RATE_LIMITED])
    .header('retry-after', '1')
    .send(
      errorEnvelope(
        ErrorCode.RATE_LIMITED,
        `another request of this app user is in progress and ${MAX_WAITING_PER_USER} more are waiting; retry later`,
      ),
    );
}
