import { ALL_USERS_COHORT, CohortClient } from './cohort-provider';
import type { CohortEntity } from './cohort.entity';
import { cohortsNamedBy, compileCohortRule, RulePredicate } from './cohort-rule';

export type CohortDefinitionRow = Pick<CohortEntity, 'id' | 'name' | 'kind' | 'rule'>;

/**
 * The cohort part of a tenant's catalogue (docs/decisions/0008-cohorts.md), built with it once per revision:
 * the rule cohorts that its CTAs name, compiled, and the static cohorts whose membership
 * a launch must look up (named by a CTA, or by one of those rules).
 */
export class CohortTargeting {
  /** Ids of the static cohorts to look the user up in; empty → no membership query at all. */
  readonly staticIds: number[];
  private readonly staticNames = new Map<number, string>();
  private readonly rules: { name: string; holds: RulePredicate }[] = [];

  /** `named`: the cohort names of the catalogue's servable CTAs (includes and excludes). */
  constructor(definitions: CohortDefinitionRow[], named: ReadonlySet<string>) {
    const byName = new Map(definitions.map((definition) => [definition.name, definition]));
    const lookedUp = new Set<string>();
    for (const name of named) {
      const definition = byName.get(name);
      if (definition?.kind === 'static') {
        lookedUp.add(name);
      } else if (definition?.kind === 'rule' && definition.rule) {
        this.rules.push({ name, holds: compileCohortRule(definition.rule, name) });
        cohortsNamedBy(definition.rule).forEach((member) => lookedUp.add(member));
      }
    }
    for (const name of lookedUp) {
      const definition = byName.get(name);
      if (definition?.kind === 'static') this.staticNames.set(definition.id, name);
    }
    this.staticIds = [...this.staticNames.keys()];
  }

  /**
   * The user's cohorts at this launch (docs/decisions/0008-cohorts.md): `all`, the static cohorts among
   * `memberOf` (ids), the rule cohorts that hold, and the host provider's.
   */
  cohortsOf(tenantId: string, userId: string, client: CohortClient, memberOf: ReadonlySet<number>, provided: readonly string[]): string[] {
    const cohorts = [ALL_USERS_COHORT];
    const members = new Set<string>();
    for (const id of memberOf) {
      const name = this.staticNames.get(id);
      if (name !== undefined) members.add(name);
    }
    cohorts.push(...members);
    if (this.rules.length > 0) {
      const input = { tenantId, userId, client, isMember: (name: string) => members.has(name) };
      for (const rule of this.rules) {
        if (rule.holds(input)) cohorts.push(rule.name);
      }
    }
    for (const name of provided) {
      if (name !== ALL_USERS_COHORT) cohorts.push(name);
    }
    return cohorts;
  }
}
