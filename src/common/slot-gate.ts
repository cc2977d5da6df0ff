/** One request's place at a `SlotGate`. */
export interface SlotTicket {
  readonly key: string;
  /** `waiting` until its turn, `holding` from then until `leave`; `refused` when its wait ran out. */
  state: 'waiting' | 'holding' | 'left' | 'refused';
}

export interface SlotGateOptions {
  /** Holders at a time, whatever their keys. */
  slots: number;
  /** Tickets waiting at most; one more is refused at once. */
  maxWaiting: number;
  /** A ticket that waited this long is refused. */
  maxWaitMs: number;
}

interface Waiter {
  ticket: SlotTicket;
  onTurn: () => void;
  timer: NodeJS.Timeout;
}

/**
 * Lets `slots` holders through at a time, at most one per key (a tenant); the others wait,
 * bounded in number and in time. A waiting ticket gets the first slot freed whose key is not
 * held, in arrival order among those that can take it: a key with a holder does not hold up the
 * keys behind it. (`KeyedGate` is one holder per key and no bound across keys.)
 */
export class SlotGate {
  private readonly held = new Set<string>();
  private readonly waiters: Waiter[] = [];

  constructor(private readonly options: SlotGateOptions) {}

  /**
   * A ticket that holds a slot at once (its `state` is `holding`, `onTurn` not called), or waits
   * for `onTurn`, or for `onRefused` once it waited `maxWaitMs`; null when `maxWaiting` tickets
   * already wait. Every ticket must `leave` when its request ends (a second leave is ignored).
   */
  enter(key: string, onTurn: () => void, onRefused: () => void): SlotTicket | null {
    if (this.canHold(key)) {
      this.held.add(key);
      return { key, state: 'holding' };
    }
    if (this.waiters.length >= this.options.maxWaiting) return null;
    const ticket: SlotTicket = { key, state: 'waiting' };
    const timer = setTimeout(() => {
      this.remove(ticket);
      ticket.state = 'refused';
      onRefused();
    }, this.options.maxWaitMs);
    timer.unref();
    this.waiters.push({ ticket, onTurn, timer });
    return ticket;
  }

  /** Ends a ticket: a waiting one leaves the line; a holding one frees its slot for those waiting. */
  leave(ticket: SlotTicket): void {
    const was = ticket.state;
    if (was === 'left' || was === 'refused') return;
    ticket.state = 'left';
    if (was === 'waiting') {
      this.remove(ticket);
      return;
    }
    this.held.delete(ticket.key);
    for (let index = 0; index < this.waiters.length && this.held.size < this.options.slots;) {
      const waiter = this.waiters[index];
      if (this.held.has(waiter.ticket.key)) {
        index++;
        continue;
      }
      this.waiters.splice(index, 1);
      clearTimeout(waiter.timer);
      this.held.add(waiter.ticket.key);
      waiter.ticket.state = 'holding';
      waiter.onTurn();
    }
  }

  /** Slots held now. */
  get holding(): number {
    return this.held.size;
  }

  /** Tickets waiting now. */
  get waiting(): number {
    return this.waiters.length;
  }

  private canHold(key: string): boolean {
    return this.held.size < this.options.slots && !this.held.has(key);
  }

  private remove(ticket: SlotTicket): void {
    const index = this.waiters.findIndex((waiter) => waiter.ticket === ticket);
    if (index < 0) return;
    clearTimeout(this.waiters[index].timer);
    this.waiters.splice(index, 1);
  }
}
