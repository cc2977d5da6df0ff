import { pipeline, Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply, onRequestHookHandler, preParsingHookHandler } from 'fastify';
import { errorEnvelope } from '../common/envelope';
import { ErrorCode, HTTP_STATUS_OF } from '../common/error-code';
import { KeyedGate } from '../common/keyed-gate';
import { sdkUserOf } from '../common/request-headers';
import { sdkUserLog } from '../sdk/sdk-user-log';
import { SDK_USER_REQUEST, type SdkUserRequestConfig } from '../sdk/sdk-user-request';
import type { MetricsService } from '../metrics/metrics.service';

/**
 * The SDK routes' own body limit by default. A device's real deltas are a few KB, but the body of
 * its launch is its pending snapshot, which grows while its deltas fail (614 KB measured with the
 * real SDK); a launch over the limit is answered without its body anyway (`oversizedBody: 'ignore'`).
 */
export const DEFAULT_SDK_BODY_LIMIT_BYTES = 1024 * 1024;
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
 * - their own body limit, `bodyLimitBytes`, or the server's when that is smaller: a larger body
 *   is answered 413 PAYLOAD_TOO_LARGE on a route that refuses it (the delta), and on one that
 *   ignores it (the launch) the route answers as without a body, the body dropped as soon as it
 *   passes the limit and the rest read and discarded (a device writes its whole body before it
 *   reads the answer); counted in `metrics` (`cta_sdk_oversized_bodies_total`) and logged;
 * - one request per (tenant, `auth-userid`) read, parsed and handled at a time: the user is taken
 *   from the headers before the body is read, so four connections sending large bodies for one
 *   user cost what one does, and other users never wait on them. Later requests of the user wait
 *   in arrival order (their bodies stay unread), up to MAX_WAITING_PER_USER; one more is answered
 *   429 RATE_LIMITED with `Retry-After: 1`. A request's turn ends when its response is sent or its
 *   connection closes, whatever the outcome, and passes on after a pause as long as its bytes take
 *   at SDK_USER_BYTES_PER_SECOND.
 * Refusals (413, 429) and ignored bodies are logged per user with counts, at most one line every few seconds.
 */
export function registerSdkRequestLimits(
  fastify: FastifyInstance,
  bodyLimitBytes = DEFAULT_SDK_BODY_LIMIT_BYTES,
  metrics?: Pick<MetricsService, 'sdkBodyOversized'>,
): void {
  const limit = Math.min(bodyLimitBytes, fastify.initialConfig.bodyLimit ?? bodyLimitBytes);
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
  const bodyOrNothing: preParsingHookHandler = (request, _reply, payload, done) => {
    const declared = Number(request.headers['content-length']);
    // A body of a declared length within the limit is read as it is: HTTP framing holds it to that
    // length, and a stream per launch would cost every device (docs/benchmarks.md).
    if (declared <= limit) {
      done(null, payload);
      return;
    }
    const onOversized = () => {
      metrics?.sdkBodyOversized(request.routeOptions.url ?? 'unmatched');
      const user = sdkUserOf(request.headers);
      if (user) sdkUserLog.bodyIgnored(user.tenantId, user.userId);
    };
    const body = new BodyOrNothing(limit, declared > limit, onOversized);
    // A failure of the request's stream (the client gone) fails the body's, and so the parsing.
    done(
      null,
      pipeline(payload, body, () => undefined),
    );
  };
  fastify.addHook('onRoute', (route) => {
    const config = (route.config as Record<string, SdkUserRequestConfig | undefined> | undefined)?.[SDK_USER_REQUEST];
    if (!config) return;
    // Before the route's own hooks: the turn is taken before anything else of the route runs.
    route.onRequest = [takeTurn, ...[route.onRequest ?? []].flat()];
    if (config.oversizedBody === 'refuse') {
      route.bodyLimit = limit;
      return;
    }
    // BodyOrNothing keeps the limit; Fastify's reader, which would refuse a body announced over its
    // limit before reading it, gets one it never reaches.
    route.bodyLimit = Number.MAX_SAFE_INTEGER;
    route.preParsing = [...[route.preParsing ?? []].flat(), bodyOrNothing];
  });
}

/**
 * A body as read when it is at most `limit` bytes, else nothing (an empty body reads as no body): held
 * until its end, as Fastify's reader holds it, dropped as soon as it passes the limit (or at once when
 * `announcedOver`), the rest read and discarded as it comes. `receivedEncodedLength` is the bytes read,
 * which Fastify checks against the announced length in place of the bytes passed on.
 */
class BodyOrNothing extends Transform {
  receivedEncodedLength = 0;
  private held: Buffer[] | null = [];

  constructor(
    private readonly limit: number,
    announcedOver: boolean,
    private readonly onOversized: () => void,
  ) {
    super();
    if (announcedOver) this.discardBody();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.receivedEncodedLength += chunk.length;
    if (this.held) {
      if (this.receivedEncodedLength > this.limit) this.discardBody();
      else this.held.push(chunk);
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.held && this.held.length > 0) this.push(Buffer.concat(this.held));
    callback();
  }

  private discardBody(): void {
    this.held = null;
    this.onOversized();
  }
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
