import { CREATE_EXAMPLE } from '../api-docs/flow-examples';
import type { ChangeOrigin } from '../audit/audit.types';
import { ErrorCode } from '../common/error-code';
import { DEFAULT_PAGE_SIZE } from '../common/page-query.dto';
import { refusal, unitTestModule, type UnitTestModule } from '../../test/unit-test-module';
import { CtaListingService } from './cta-listing.service';
import { CtasModule } from './ctas.module';
import { CtasService } from './ctas.service';
import type { CreateCtaDto } from './dto/cta-body.dto';
import { TestCtasService } from './test-ctas.service';

const origin: ChangeOrigin = { actor: 'ops-key', user: 'alice@example.com', requestId: null };
const NO_COUNTS = { draft: 0, scheduled: 0, live: 0, paused: 0, concluded: 0, terminated: 0 };

describe('CtaListingService', () => {
  let app: UnitTestModule;
  let listing: CtaListingService;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    app = await unitTestModule([CtasModule]);
    listing = app.get(CtaListingService);
    const ctas = app.get(CtasService);
    const create = (tenantId: string, user: string, name: string, team: string, tags: string[]) =>
      ctas.create(tenantId, user, { ...structuredClone(CREATE_EXAMPLE), experiment: null, name, team, tags } as CreateCtaDto, origin);
    ids.welcome = await create('t1', 'alice', 'Welcome_100%', 'growth', ['onboarding']);
    ids.welcomeBack = await create('t1', 'bob', 'welcome-back', 'retention', ['onboarding', 'winback']);
    ids.sale = await create('t1', 'alice', 'summer sale', 'growth', ['store']);
    ids.other = await create('t2', 'carol', 'welcome', 'growth', ['onboarding']);
    await app.setCtaStatus(ids.sale, 'live');
    // Never listed, counted or offered as filter values.
    await app
      .get(TestCtasService)
      .create('t1', 'qa', { rule: structuredClone(CREATE_EXAMPLE.rule) as never, userIds: [1], expiresInMinutes: 5 }, origin);
  });
  afterAll(() => app.close());

  const names = (page: { ctas: { name: string }[] }) => page.ctas.map((cta) => cta.name);

  it("lists the tenant's CTAs newest first, with the counts of each status and the paging", async () => {
    const page = await listing.list('t1', {});
    expect(names(page)).toEqual(['summer sale', 'welcome-back', 'Welcome_100%']);
    expect(page).toMatchObject({
      totalEntries: 3,
      totalPages: 1,
      pageNumber: 0,
      pageSize: DEFAULT_PAGE_SIZE,
      statusWiseCount: { ...NO_COUNTS, draft: 2, live: 1 },
    });
    expect(page.ctas[1]).toMatchObject({ id: ids.welcomeBack, tags: ['onboarding', 'winback'], ctaStatus: 'draft', createdBy: 'bob' });
  });

  it('filters by status (any case), teams, tags, creator and a name search taking %, _ and ! literally', async () => {
    const live = await listing.list('t1', { status: 'LIVE' });
    expect([names(live), live.totalEntries, live.statusWiseCount]).toEqual([['summer sale'], 1, { ...NO_COUNTS, draft: 2, live: 1 }]);
    expect(names(await listing.list('t1', { teams: 'retention, ,growth', tags: 'winback' }))).toEqual(['welcome-back']);
    expect(names(await listing.list('t1', { createdBy: 'alice', searchName: 'WELCOME' }))).toEqual(['Welcome_100%']);
    expect(names(await listing.list('t1', { searchName: '_100%' }))).toEqual(['Welcome_100%']);
    expect(names(await listing.list('t1', { searchName: 'e_b' }))).toEqual([]);
    expect(names(await listing.list('t1', { name: 'welcome-back', teams: '' }))).toEqual(['welcome-back']);
  });

  it('pages by pageSize and pageNumber, and answers an empty page past the end', async () => {
    const second = await listing.list('t1', { pageSize: '2', pageNumber: '1' });
    expect([names(second), second.totalEntries, second.totalPages, second.pageNumber, second.pageSize]).toEqual([
      ['Welcome_100%'],
      3,
      2,
      1,
      2,
    ]);
    expect(names(await listing.list('t1', { pageSize: '2', pageNumber: '5' }))).toEqual([]);
  });

  it('refuses an unknown status (CTA_STATUS_INVALID)', async () => {
    expect(await refusal(listing.list('t1', { status: 'archived' }))).toEqual({
      code: ErrorCode.CTA_STATUS_INVALID,
      message: 'status must be one of draft, paused, live, scheduled, concluded, terminated',
    });
  });

  it("offers the tenant's names, teams, tags and creators as filter values, sorted, without test CTAs", async () => {
    expect(await listing.filterValues('t1')).toEqual({
      names: ['Welcome_100%', 'summer sale', 'welcome-back'],
      teams: ['growth', 'retention'],
      tags: ['onboarding', 'store', 'winback'],
      createdBy: ['alice', 'bob'],
    });
    expect(await listing.filterValues('t3')).toEqual({ names: [], teams: [], tags: [], createdBy: [] });
  });
});
