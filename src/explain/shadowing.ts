/**
 * Which served CTAs the device tries before another on the events they share (docs/support-tools.md):
 * for an app event, the device tries the CTAs whose `stateTransition` names it (its trigger events,
 * the top-level keys) by `priority` ascending, sorting the launch answer's list stably — CTAs of one
 * priority keep the answer's order (id ascending). Once one of them performs an action for the event,
 * the ones tried after it pass over conditions leading to a state with an action.
 */

/** A CTA entry of the launch answer, as far as shadowing reads it. */
export interface ServedRuleEntry {
  ctaId: string;
  rule: { priority: number; stateTransition: Record<string, unknown> };
}

/** A CTA the device tries first, and the trigger events on which it does. */
export interface Shadow {
  ctaId: string;
  priority: number;
  events: string[];
}

/**
 * By CTA id, for the CTAs of a launch answer (in its order): for each CTA, the CTA tried first on
 * each of its trigger events when that is another one, one `Shadow` per such CTA with the events it
 * goes first on, in the device's order. CTAs tried first on all their events have none.
 */
export function shadowsOf(served: readonly ServedRuleEntry[]): Map<string, Shadow[]> {
  const deviceOrder = [...served].sort((a, b) => a.rule.priority - b.rule.priority);
  const firstOn = new Map<string, ServedRuleEntry>();
  for (const entry of deviceOrder) {
    for (const event of Object.keys(entry.rule.stateTransition)) {
      if (!firstOn.has(event)) firstOn.set(event, entry);
    }
  }
  const rank = new Map(deviceOrder.map((entry, index) => [entry.ctaId, index]));
  const shadows = new Map<string, Shadow[]>();
  for (const entry of served) {
    const byCta = new Map<string, Shadow>();
    for (const event of Object.keys(entry.rule.stateTransition)) {
      const first = firstOn.get(event) as ServedRuleEntry;
      if (first === entry) continue;
      let shadow = byCta.get(first.ctaId);
      if (!shadow) byCta.set(first.ctaId, (shadow = { ctaId: first.ctaId, priority: first.rule.priority, events: [] }));
      shadow.events.push(event);
    }
    if (byCta.size > 0) {
      shadows.set(
        entry.ctaId,
        [...byCta.values()].sort((a, b) => (rank.get(a.ctaId) as number) - (rank.get(b.ctaId) as number)),
      );
    }
  }
  return shadows;
}
