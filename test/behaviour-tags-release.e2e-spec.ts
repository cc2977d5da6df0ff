import { AdminClient } from './admin-client';
import { examples, runClockAfterExamples } from './fixtures';
import { eachDatabase, TestApp } from './harness';
import { SdkClient } from './sdk-client';
import { DAY } from './test-clock';

type Json = Record<string, any>;

const TAG = examples.tag.behaviourTagName;

/**
 * A tag is released when its active CTA ends (docs/decisions/0004-behaviour-tags.md): devices never clear
 * a tag's `activeCtas`, so the launch leaves out the ids of CTAs that are concluded, terminated or gone,
 * keeps paused ones, and explain's device view agrees.
 */
eachDatabase('Behaviour tags: a tag is released when its active CTA ends', (database) => {
  let api: TestApp;
  let tenants = 0;

  beforeAll(async () => {
    api = await TestApp.start(database);
    runClockAfterExamples(api);
  });
  afterAll(() => api.close());

  /** A fresh tenant whose example tag (any one shows, the rest hide) links live CTAs A, B and C; user 7's device. */
  const setUp = async () => {
    const admin = new AdminClient(api, `tag-release-${++tenants}`);
    const [a, b, c] = [await admin.cta({ actions: [] }), await admin.cta({ actions: [] }), await admin.cta({ actions: [] })];
    await admin.tag(TAG, [a, b, c]);
    await admin.move(a, 'live');
    await admin.move(b, 'live');
    await admin.move(c, 'live');
    return { admin, a, b, c, device: new SdkClient(api, admin.tenantId, '7') };
  };

  /** The tag as the user's launch answers it. */
  const launchedTag = async (device: SdkClient): Promise<Json> => {
    const response = await device.launch();
    expect(response.status).toBe(200);
    return response.body.data.behaviourTags.find((tag) => tag.behaviourTagName === TAG) as Json;
  };
  /** Explain's device view of `ctaId`'s tag for user 7. */
  const tagBlockOf = async (admin: AdminClient, ctaId: string): Promise<Json> => {
    const response = await api.get('/engine/app-users/7/launch', admin.headers());
    expect(response.status).toBe(200);
    return response.body.data.ctas.find((cta: Json) => cta.ctaId === ctaId).device.tag;
  };
  /** The tag's lists as stored for user 7 (the export). */
  const storedTag = async (admin: AdminClient): Promise<Json> => {
    const response = await admin.appUsers.export('7');
    expect(response.status).toBe(200);
    return response.body.data.state.behaviourTags.find((tag) => tag.behaviourTagName === TAG) as Json;
  };
  const acted = (ctaId: string, resetAt: number) => ({
    behaviourTags: [{ behaviourTagName: TAG, exposureRule: { ctasResetAt: [{ ctaId, resetAt }] }, ctaRelation: { activeCtas: [ctaId] } }],
  });

  it('leaves a concluded CTA out of activeCtas, keeps its ctasResetAt, and the rest of the tag shows again', async () => {
    const { admin, a, b, device } = await setUp();
    const resetAt = api.clock.now() - 3 * DAY;
    expect((await device.delta(acted(a, resetAt))).status).toBe(200);
    expect((await launchedTag(device)).ctaRelation.activeCtas).toEqual([a]);
    expect(await tagBlockOf(admin, b)).toEqual({ blocked: true, by: [a], relation: 'ANY/REST' });

    await admin.move(a, 'conclude');
    // Explain releases the tag on its own, before any launch has stored the release (it writes nothing).
    expect(await tagBlockOf(admin, b)).toEqual({ blocked: false, by: [], relation: 'ANY/REST' });
    expect((await storedTag(admin)).activeCtas).toEqual([a]);
    const tag = await launchedTag(device);
    expect(tag.ctaRelation.activeCtas).toEqual([]);
    expect(tag.exposureRule.ctasResetAt).toEqual([{ ctaId: a, resetAt }]);
    // The stored list is released too (the launch stored what it answered) …
    expect(await storedTag(admin)).toEqual({ behaviourTagName: TAG, activeCtas: [], ctasResetAt: [{ ctaId: a, resetAt }] });
    // … and a device that sends its old list again before it launches does not block the tag again.
    expect((await device.delta(acted(a, resetAt))).status).toBe(200);
    expect((await storedTag(admin)).activeCtas).toEqual([]);
    expect((await launchedTag(device)).ctaRelation.activeCtas).toEqual([]);
  });

  it('keeps a paused CTA in activeCtas (it may resume) and drops a terminated one and ids the tenant does not know', async () => {
    const { admin, a, b, c, device } = await setUp();
    const body = acted(a, api.clock.now() - 3 * DAY);
    body.behaviourTags[0].ctaRelation.activeCtas = [a, c, '987654321'];
    expect((await device.delta(body)).status).toBe(200);
    await admin.move(a, 'pause');
    await admin.move(c, 'terminate');
    expect(await tagBlockOf(admin, b)).toEqual({ blocked: true, by: [a], relation: 'ANY/REST' });
    expect((await launchedTag(device)).ctaRelation.activeCtas).toEqual([a]);
    expect((await storedTag(admin)).activeCtas).toEqual([a]);

    await admin.move(a, 'live');
    expect((await launchedTag(device)).ctaRelation.activeCtas).toEqual([a]);
    await admin.move(a, 'terminate');
    expect(await tagBlockOf(admin, b)).toMatchObject({ blocked: false });
    expect((await launchedTag(device)).ctaRelation.activeCtas).toEqual([]);
  });
});
