import type { CreateBehaviourTagDto, UpdateBehaviourTagDto } from '../src/behaviour-tags/dto/behaviour-tag-body.dto';
import { AdminClient } from './admin-client';
import { type AsSent, type CtaId, tagBody, tagUpdateBody } from './fixtures';
import { TestApp, type TestDatabase } from './harness';

/** Shared by the behaviour tag suites (behaviour-tags-*.e2e-spec.ts). */

/** A LIST/LIST relation hiding `hide`. */
const hiding = (hide: CtaId[]) => ({ shownCta: { rule: 'LIST', ctaList: [] }, hideCta: { rule: 'LIST', ctaList: hide } });

/** The shared example tag with a name, linked CTAs, and a LIST/LIST relation hiding some of them. */
export const listTag = (name: string, linkedCtas: CtaId[], hide: CtaId[] = linkedCtas.slice(0, 1)): AsSent<CreateBehaviourTagDto> =>
  tagBody(name, linkedCtas, hiding(hide));

/** The same body for an update (no name). */
export const updateBody = (linkedCtas: CtaId[], fields: Record<string, unknown> = {}): AsSent<UpdateBehaviourTagDto> => ({
  ...tagUpdateBody(linkedCtas, hiding(linkedCtas.slice(0, 1))),
  ...fields,
});

/** The helpers of a behaviour tag suite on `database`, whose app (`api()`) it starts before the suite's tests and closes after. */
export function tagSuite(database: TestDatabase) {
  let app: TestApp;
  const api = (): TestApp => app;
  beforeAll(async () => {
    app = await TestApp.start(database);
  });
  afterAll(() => app.close());
  let sequence = 0;
  const unique = (prefix: string): string => `${prefix}-${++sequence}`;

  /** The tenant's admin API, as `user`. */
  const admin = (tenantId: string, user = 'alice@example.com'): AdminClient => new AdminClient(api(), tenantId, user);

  /** A draft CTA created through the admin API, as an operator would; returns its id. */
  async function createCta(tenantId: string): Promise<string> {
    return String(await admin(tenantId).create({ name: unique('cta') }));
  }

  async function createCtas(tenantId: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.push(await createCta(tenantId));
    }
    return ids;
  }

  async function listTags(tenantId: string): Promise<any[]> {
    const res = await admin(tenantId).tags.list();
    expect(res.status).toBe(200);
    return res.body.data.behaviourTags;
  }

  async function tagNamed(tenantId: string, name: string): Promise<any> {
    return (await listTags(tenantId)).find((tag) => tag.name === name);
  }

  async function createTag(tenantId: string, name: string, linkedCtas: CtaId[]): Promise<void> {
    const res = await admin(tenantId).tags.create(listTag(name, linkedCtas));
    expect(res.body).toEqual({});
    expect(res.status).toBe(200);
  }

  return { api, unique, admin, createCtas, listTags, tagNamed, createTag };
}
