import { Injectable } from '@nestjs/common';
import { BehaviourTagReader } from '../behaviour-tags/behaviour-tag.reader';
import type { CohortClient } from '../cohorts/cohort-provider';
import { invalidRequest } from '../common/domain-error';
import { canonicalUserId } from '../common/user-id';
import { CatalogueCtaRow, CtaCatalogueReader } from '../ctas/cta-catalogue.reader';
import { CTA_STATUSES } from '../cta-lifecycle/cta-statuses';
import { CatalogueCta, catalogueCta, launchOrder } from '../sdk/sdk-catalogue';
import { SdkStateService } from '../sdk/sdk-state.service';
import { SERVING_BLOCKS, ServingAudience, servingBlocks } from '../serving/serving-decision';
import { deviceView, LaunchCtaEntry, LaunchTagEntry } from './device-view';
import { CtaExplanation, LaunchExplanation, reasonsOf } from './launch-explanation';
import { ServedRuleEntry, shadowsOf } from './shadowing';

/** A test CTA that does not concern the user: left out unless every CTA is asked for. */
const NOT_FOR_THE_USER = SERVING_BLOCKS.TEST_CTA_EXPIRED | SERVING_BLOCKS.TEST_CTA_NOT_LISTED;

interface LaunchData {
  ctas: (LaunchCtaEntry & ServedRuleEntry)[];
  behaviourTags: LaunchTagEntry[];
}

/** The CTAs of the tenant a launch's catalogue does not hold (draft, concluded, terminated), for `all=true`. */
interface OtherCtas {
  ctas: CatalogueCta[];
  /** Those of them that are test CTAs listing the user. */
  listing: number[];
}

/**
 * `GET /app-users/{userId}/launch`: what a launch without a body would answer the user now, and per
 * CTA whether it is served and why, decided by the launch's own decision (`servingBlocks`) on the
 * launch's own catalogue, cohorts and state (`SdkStateService.preview`). Writes nothing.
 */
@Injectable()
export class LaunchExplainService {
  constructor(
    private readonly sdkState: SdkStateService,
    private readonly ctas: CtaCatalogueReader,
    private readonly tags: BehaviourTagReader,
  ) {}

  async explain(tenantId: string, rawUserId: string, client: CohortClient, all: boolean): Promise<LaunchExplanation> {
    const userId = canonicalUserId(rawUserId);
    if (userId === null) {
      throw invalidRequest(`userId must be a signed 64-bit decimal integer, not ${JSON.stringify(rawUserId)}`);
    }
    const [tenantCtas, preview] = await Promise.all([
      all ? this.ctas.ctasOf(tenantId, CTA_STATUSES) : [],
      this.sdkState.preview(tenantId, userId, client),
    ]);
    const { catalogue, now } = preview;
    const cohorts = [...new Set(preview.cohorts)].sort();
    const held = catalogue.heldCtas();
    const heldIds = new Set(held.map((cta) => cta.id));
    const others = await this.others(
      tenantId,
      userId,
      tenantCtas.filter((cta) => !heldIds.has(Number(cta.id))),
    );
    const launched = catalogue.audienceOf(userId, cohorts, preview.exposureCap !== null);
    const audience: ServingAudience = { ...launched, testCtas: new Set([...(launched.testCtas ?? []), ...others.listing]) };
    const explained = [...held, ...others.ctas]
      .sort(launchOrder)
      .map((cta) => ({ cta, blocks: servingBlocks(cta, audience, now) }))
      .filter(({ cta, blocks }) => all || !cta.isTest || (blocks & NOT_FOR_THE_USER) === 0);

    const launch = JSON.parse(preview.answer.toString('utf8')) as { data: LaunchData };
    const entries = new Map(launch.data.ctas.map((entry) => [entry.ctaId, entry]));
    const tags = new Map(launch.data.behaviourTags.map((tag) => [tag.behaviourTagName, tag]));
    const shadows = shadowsOf(launch.data.ctas);
    const names = await this.ctas.namesOf(
      tenantId,
      explained.map(({ cta }) => cta.id),
    );
    const nameOf = (ctaId: string): string | null => names.get(Number(ctaId)) ?? null;
    const ctas = explained.map(({ cta, blocks }): CtaExplanation => {
      const ctaId = String(cta.id);
      const entry = blocks === 0 ? entries.get(ctaId) : undefined;
      const tag = entry?.behaviourTagName == null ? undefined : tags.get(entry.behaviourTagName);
      const device = entry ? deviceView(entry, tag, preview.expiredMachines.get(ctaId) ?? 0, now) : null;
      return {
        ctaId,
        name: nameOf(ctaId),
        ctaStatus: cta.status,
        served: blocks === 0,
        reasons: reasonsOf(blocks, cta, {
          userId,
          cohorts,
          device,
          shadows: shadows.get(ctaId) ?? [],
          holdout: blocks === 0 && catalogue.armOf(cta, userId) === 'holdout',
          nameOf,
          exposureCap: preview.exposureCap,
        }),
        behaviourTagName: cta.tagName,
        device,
      };
    });
    return { userId, cohorts, ctas, launch: launch.data };
  }

  private async others(tenantId: string, userId: string, rows: CatalogueCtaRow[]): Promise<OtherCtas> {
    if (rows.length === 0) {
      return { ctas: [], listing: [] };
    }
    const testIds = rows.filter((row) => row.isTest).map((row) => Number(row.id));
    const [links, testUsers] = await Promise.all([this.tags.linksOf(tenantId), this.ctas.testUsersOf(tenantId, testIds)]);
    const tagOf = new Map(links.map((link) => [Number(link.ctaId), link.tagName]));
    const ctas = rows.map((row) => catalogueCta(row, tagOf.get(Number(row.id)) ?? null));
    return { ctas, listing: testUsers.filter((row) => row.userId === userId).map((row) => Number(row.ctaId)) };
  }
}
