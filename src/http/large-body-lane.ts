import { availableParallelism } from 'node:os';
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { SlotGate, type SlotGateOptions } from '../common/slot-gate';
import type { MetricsService } from '../metrics/metrics.service';

/** A body over this many bytes, announced or counted while it is read, takes the large-body lane. */
export const LARGE_BODY_BYTES = 64 * 1024;
/** The cores of this machine: the lane never has more slots, since a slot keeps a core busy. */
export const CORES = availableParallelism();
/**
 * Requests in the lane at a time by default (LARGE_BODY_SLOTS): one. A Node process runs a request's
 * JavaScript on one thread, so a second large body handled at once adds little throughput (the pace
 * below bounds it anyway) but stacks its parse and merge on the first one's: the stall another
 * tenant's launch can meet doubles (measured in docs/running-several-instances.md).
 */
export const DEFAULT_LARGE_BODY_SLOTS = 1;
/** Large-body requests waiting for the lane at most by default (LARGE_BODY_MAX_WAITING); one more → 503. */
export const DEFAULT_LARGE_BODY_MAX_WAITING = 64;
/** How long a large-body request waits for the lane at most by default (LARGE_BODY_MAX_WAIT_MS), then 503. */
export const DEFAULT_LARGE_BODY_MAX_WAIT_MS = 10_000;
/**
 * The pace at which one instance takes large bodies in, all slots together: a slot is handed on
 * after a pause of its body's size at this rate's share per slot (1 MiB with one slot: 1 s). Parsing a
 * 1 MB body holds the one JavaScript thread for 4–11 ms at a stretch, and every launch that arrives
 * meanwhile waits it out: at about one large body a second, fewer than 1% of another tenant's
 * launches meet such a stall, so its p99 stays near quiet (at 4 MiB/s and a third of the time, a third
 * of them did: p99 3.4–4.7× quiet; docs/running-several-instances.md).
 */
export const LARGE_BODY_BYTES_PER_SECOND = 1024 * 1024;
/**
 * The share of the time the lane's slots together are taken at most: a slot is also handed on no
 * sooner than its request's own time × (slots / this − 1) after it ends. The byte pace alone assumes a
 * cost per byte; a body dearer than that (a rule validated field by field), or a machine busy with
 * other work, makes each request take longer, and the lane slows down with it.
 */
export const LARGE_BODY_LANE_SHARE = 1 / 8;
/** The longest pause before a slot is handed on: a request slow on the database (a member list) holds its slot no longer. */
export const LARGE_BODY_MAX_PAUSE_MS = 2000;

export type LargeBodyLaneOptions = SlotGateOptions;

export const DEFAULT_LARGE_BODY_LANE: LargeBodyLaneOptions = {
  slots: DEFAULT_LARGE_BODY_SLOTS,
  maxWaiting: DEFAULT_LARGE_BODY_MAX_WAITING,
  maxWaitMs: DEFAULT_LARGE_BODY_MAX_WAIT_MS,
};

/**
 * A lane of their own for large bodies, on every route of `fastify` (admin and SDK alike): a request
 * whose body is over LARGE_BODY_BYTES — announced by `content-length`, or counted while a chunked body
 * is read — is read, parsed and handled only while fewer than `slots` such requests are, and at most
 * one per tenant (`x-tenant-id`); the others wait with their bodies unread (a chunked one from its
 * first LARGE_BODY_BYTES on), up to `maxWaiting` of them and `maxWaitMs` each, then are answered 503
 * SERVICE_UNAVAILABLE with `Retry-After`. Smaller requests never enter the lane, so a device's
 * launches and deltas (a few KB) never wait behind large ones; /health has no body. A request's slot
 * is handed on when its response is sent or its connection closes, after a pause paced by
 * LARGE_BODY_BYTES_PER_SECOND and LARGE_BODY_LANE_SHARE (at most LARGE_BODY_MAX_PAUSE_MS). A waiting request's
 * socket is not read, so a client that went away meanwhile is seen when its turn comes (its request
 * fails at once) or when its wait runs out. Runs after the request hooks (the SDK routes' per-user
 * turn comes first); call it before `app.init()`. With `metrics`, the lane's requests are reported
 * (`cta_large_body_lane_requests{state}`).
 */
export function registerLargeBodyLane(
  fastify: FastifyInstance,
  options: LargeBodyLaneOptions = DEFAULT_LARGE_BODY_LANE,
  metrics?: Pick<MetricsService, 'watchLargeBodyLane'>,
): void {
  const gate = new SlotGate(options);
  metrics?.watchLargeBodyLane(() => ({ holding: gate.holding, waiting: gate.waiting }));
  const retryAfter = String(Math.max(1, Math.ceil(options.maxWaitMs / 1000)));
  const busy = (): DomainError =>
    new DomainError(
      ErrorCode.SERVICE_UNAVAILABLE,
      `too many requests with large bodies (over ${LARGE_BODY_BYTES / 1024} KiB) are waiting to be read; retry after ${retryAfter} s`,
      { 'retry-after': retryAfter },
    );
  const msPerByte = (options.slots * 1000) / LARGE_BODY_BYTES_PER_SECOND;
  const pausePerMs = options.slots / LARGE_BODY_LANE_SHARE - 1;

  /** Takes `reply`'s request into the lane once its body is known to be large; false when refused at once. */
  const enter = (reply: FastifyReply, tenantId: string, bytes: () => number, onTurn: () => void, onRefused: () => void): boolean => {
    let admittedAt = performance.now();
    const ticket = gate.enter(
      tenantId,
      () => {
        admittedAt = performance.now();
        onTurn();
      },
      onRefused,
    );
    if (!ticket) return false;
    reply.raw.once('close', () => {
      if (ticket.state !== 'holding') {
        gate.leave(ticket);
        return;
      }
      const pauseMs = Math.max(bytes() * msPerByte, (performance.now() - admittedAt) * pausePerMs);
      setTimeout(() => gate.leave(ticket), Math.min(pauseMs, LARGE_BODY_MAX_PAUSE_MS)).unref();
    });
    if (ticket.state === 'holding') onTurn();
    return true;
  };

  fastify.addHook('preParsing', (request, reply, payload, done) => {
    const tenantId = String(request.headers['x-tenant-id'] ?? '');
    const announced = Number(request.headers['content-length']);
    if (announced > LARGE_BODY_BYTES) {
      const admitted = enter(
        reply,
        tenantId,
        () => announced,
        () => done(null, payload),
        () => done(busy()),
      );
      if (!admitted) done(busy());
      return;
    }
    if (!Number.isNaN(announced) || request.headers['transfer-encoding'] === undefined) {
      done(null, payload);
      return;
    }
    const meter = new LargeBodyMeter((bytes, onTurn, onRefused) => {
      if (!enter(reply, tenantId, bytes, onTurn, onRefused)) onRefused();
    }, busy);
    // A failure of the request's stream (the client gone) fails the meter's, and so the parsing.
    done(
      null,
      pipeline(payload, meter, () => undefined),
    );
  });
}

/**
 * A chunked body passed on as it is read, counted: the chunk that takes it past LARGE_BODY_BYTES is
 * held (and so the rest of the body, unread) until `enter` admits it to the lane; refused, the body
 * fails with the lane's 503.
 */
class LargeBodyMeter extends Transform {
  private bytes = 0;

  constructor(
    private readonly enter: (bytes: () => number, onTurn: () => void, onRefused: () => void) => void,
    private readonly busy: () => Error,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const before = this.bytes;
    this.bytes += chunk.length;
    if (before > LARGE_BODY_BYTES || this.bytes <= LARGE_BODY_BYTES) {
      callback(null, chunk);
      return;
    }
    this.enter(
      () => this.bytes,
      () => callback(null, chunk),
      () => callback(this.busy()),
    );
  }
}
