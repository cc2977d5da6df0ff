import { AdminClient } from './admin-client';
import { examples, machine, runClockAfterExamples } from './fixtures';
import { describeOnMysql, onServer, SERVERS } from './cluster';
import { createDatabase, TestApp } from './harness';
import { daysAgo, dayOf, snapshot, TODAY } from './insights';
import { SdkClient } from './sdk-client';

const TAG = examples.tag.behaviourTagName;
/** Instance A re-checks revisions every second (the default); B is the stale one. */
const A_REVALIDATE_MS = 1000;
const B_REVALIDATE_MS = 600_000;

/**
 * What issue 37 drops with a CTA that ended — its id from a tag's `activeCtas`
 * (docs/decisions/0004-behaviour-tags.md) and the insights' marks of it
 * (docs/decisions/0018-campaign-insights.md) — is dropped by the rule of launch step 4, never on the
 * word of a stale catalogue alone (docs/decisions/0006-user-state-merge.md).
 */
describeOnMysql('a stale instance releases no tag and forgets no counted entry of a CTA it does not know yet', () => {
  let a: TestApp;
  let b: TestApp;
  let dropDatabase: () => Promise<void>;
  let tenantCount = 0;

  beforeAll(async () => {
    const { url, drop } = await createDatabase('mysql', SERVERS[0]);
    dropDatabase = drop;
    a = await TestApp.join('mysql', url, { CACHE_REVALIDATE_MS: String(A_REVALIDATE_MS) });
    b = await TestApp.join('mysql', onServer(url, SERVERS[1] ?? SERVERS[0]), { CACHE_REVALIDATE_MS: String(B_REVALIDATE_MS) });
    runClockAfterExamples(a);
    runClockAfterExamples(b);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await dropDatabase?.();
  });

  const ctaIdsOf = (response: { body: { data: { ctas: { ctaId: string }[] } } }) => response.body.data.ctas.map((cta) => cta.ctaId);

  /** A fresh tenant: `known` live and `fresh` a draft when B caches the catalogue, then `fresh` goes live through A. */
  const setUp = async (tagged: boolean) => {
    const admin = new AdminClient(a, `stale-release-${++tenantCount}`);
    const known = await admin.cta({ actions: [] });
    const fresh = await admin.cta({ actions: [] });
    if (tagged) await admin.tag(TAG, [known, fresh]);
    await admin.move(known, 'live');
    const device = (api: TestApp, userId: string) => new SdkClient(api, admin.tenantId, userId);
    // B caches the tenant's catalogue now (a snapshot makes it read the tenant even when its directory is older).
    expect((await device(b, '1').delta(snapshot(known, {}, { m: machine('1', TODAY) }))).status).toBe(200);
    await admin.move(fresh, 'live');
    expect(ctaIdsOf(await device(b, '1').launch())).toEqual([known]);
    return { admin, known, fresh, device };
  };

  it("keeps a tag's active CTA that went live through another instance", async () => {
    const { admin, fresh, device } = await setUp(true);
    const acted = { behaviourTags: [{ behaviourTagName: TAG, ctaRelation: { activeCtas: [fresh] } }] };
    expect((await device(a, '7').delta(acted)).status).toBe(200);
    const launched = await device(b, '7').launch();
    expect(launched.status).toBe(200);
    expect(launched.body.data.behaviourTags.map((tag) => (tag.ctaRelation as { activeCtas: string[] }).activeCtas)).toEqual([[fresh]]);
    // A merge through B of the same list stores it too.
    expect((await device(b, '8').delta(acted)).status).toBe(200);
    const stored = await admin.appUsers.export('8');
    expect(stored.body.data.state.behaviourTags.map((tag) => tag.activeCtas)).toEqual([[fresh]]);
  });

  it('keeps the marks of a CTA it does not know, so a re-sent list counts once', async () => {
    const { admin, known, fresh, device } = await setUp(false);
    const at = daysAgo(2);
    expect((await device(a, '9').delta(snapshot(fresh, { actionDoneAt: [at] }))).status).toBe(200);
    // A reinstalled device empties the list: the user keeps no state for `fresh`, only its marks.
    expect((await device(a, '9').delta(snapshot(fresh, { actionDoneAt: [] }))).status).toBe(200);
    // A merge through B, whose catalogue does not keep `fresh`.
    expect((await device(b, '9').delta(snapshot(known, {}, { m: machine('1', TODAY) }))).status).toBe(200);
    // The other device sends its old list again.
    expect((await device(a, '9').delta(snapshot(fresh, { actionDoneAt: [at] }))).status).toBe(200);
    const insights = await admin.insights.ofCta(fresh, { from: dayOf(daysAgo(7)), to: dayOf(TODAY) });
    expect(insights.body.data.totals).toEqual({ actions: 1, resets: 0, usersReached: 1 });
  });
});
