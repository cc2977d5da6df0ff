/** One request's place at a `KeyedGate`. */
export interface GateTicket {
  readonly key: string;
  /** `waiting` until its turn, `holding` from then until `leave`. */
  state: 'waiting' | 'holding' | 'left';
  /** Called once when a waiting ticket's turn comes. */
  readonly onTurn: () => void;
}

/**
 * Lets one holder per key through at a time; the others wait in arrival order, at most
 * `maxWaiting` per key (one more is refused). A key is remembered only while a ticket holds
 * it, so the memory follows the requests in flight, whatever the number of keys.
 */
export class KeyedGate {
  /** Per key held: the tickets waiting, in arrival order. */
  private readonly waiting = new Map<string, GateTicket[]>();

  constructor(private readonly maxWaiting: number) {}

  /**
   * A ticket that holds the key at once, or waits for `onTurn`; null when `maxWaiting` tickets
   * already wait. Every ticket must `leave` exactly when its request ends (a second leave is ignored).
   */
  enter(key: string, onTurn: () => void): GateTicket | null {
    const queue = this.waiting.get(key);
    if (!queue) {
      this.waiting.set(key, []);
      return { key, state: 'holding', onTurn };
    }
    if (queue.length >= this.maxWaiting) {
      return null;
    }
    const ticket: GateTicket = { key, state: 'waiting', onTurn };
    queue.push(ticket);
    return ticket;
  }

  /** Ends a ticket: a waiting one leaves the queue; a holding one hands the key to the next in line. */
  leave(ticket: GateTicket): void {
    const was = ticket.state;
    if (was === 'left') {
      return;
    }
    ticket.state = 'left';
    const queue = this.waiting.get(ticket.key)!;
    if (was === 'waiting') {
      queue.splice(queue.indexOf(ticket), 1);
      return;
    }
    const next = queue.shift();
    if (!next) {
      this.waiting.delete(ticket.key);
      return;
    }
    next.state = 'holding';
    next.onTurn();
  }

  /** Keys held now. */
  get size(): number {
    return this.waiting.size;
  }

  /** Tickets waiting for `key`. */
  waitingFor(key: string): number {
    return this.waiting.get(key)?.length ?? 0;
  }
}
