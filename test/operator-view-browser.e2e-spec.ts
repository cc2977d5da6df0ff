import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { armOf } from '../src/serving/experiment-arm';
import { AdminClient } from './admin-client';
import { describeInBrowser, startConsoleSession, type ConsoleSession } from './console-browser';
import { examples, machine } from './fixtures';
import { snapshot } from './insights';
import { SdkClient } from './sdk-client';
import { DAY } from './test-clock';

/**
 * The operator view (/{admin}/ui/) in Chromium, as operators on another machine use it, with approvals required
 * and four named keys: every page; the chart's numbers and totals are the API's for seeded data, and so are an
 * experiment's arms and uplift; approve with a second key; restore; explain, export and erase a user behind a typed
 * confirmation; a viewer offered no writes. Then an open admin API, at the root alias: restore asks who restores.
 * Screenshots go to a temporary folder, or to docs/ with UPDATE_SCREENSHOTS=true (the README shows them).
 */

const KEYS = { eddie: 'k-eddie', paula: 'k-paula', ada: 'k-ada', vera: 'k-vera' };
const ADMIN_API_KEYS = 'eddie:editor:k-eddie,paula:publisher:k-paula,ada:admin:k-ada,vera:viewer:k-vera';
const TENANT = 'default';
const USER_ID = '4242';
/** Users of the experiment's CTA; the first acted twice today, which the exposure policy caps. */
const TRIAL_USERS = Array.from({ length: 12 }, (_, index) => String(5001 + index));
const CAPPED_USER = TRIAL_USERS[0];
const POLICY = { maxActions: 2, window: { value: 1, unit: 'days' } };
/** A browser on a loaded 2-core machine: this bounds a hang, it times nothing. */
const SUITE_TIMEOUT_MS = 300_000;
jest.setTimeout(SUITE_TIMEOUT_MS);
const SCREENSHOTS =
  process.env.UPDATE_SCREENSHOTS === 'true' ? join(__dirname, '..', 'docs') : mkdtempSync(join(tmpdir(), 'operator-view-'));

const utcDay = (at: number): string => new Date(at).toISOString().slice(0, 10);

describeInBrowser('The operator view in Chromium', () => {
  /**
   * What the page logged, but the 401s of its first request: it asks `whoami` without a key to learn whether
   * the admin API needs one (the sign-in box) or is open, and Chromium logs every 4xx answer as an error.
   */
  const pageErrors = () => session.consoleErrors.filter((error) => !error.includes('status of 401'));
  let session: ConsoleSession;
  let page: Page;
  let eddie: AdminClient;
  let paula: AdminClient;
  /** A live CTA with actions, resets and machines; a draft waiting for approval; a live CTA with an experiment. */
  let running: string;
  let waiting: string;
  let trial: string;

  const as = (name: keyof typeof KEYS) =>
    new AdminClient(session.api, TENANT, `${name}@example.com`, { headers: { 'x-api-key': KEYS[name] } });

  async function signIn(name: keyof typeof KEYS, person: string): Promise<void> {
    await page.goto(`${session.origin}/engine/ui/`);
    await page.getByLabel('Admin key').fill(KEYS[name]);
    await page.getByLabel(/Your name/).fill(person);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
  }

  async function signOut(): Promise<void> {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  }

  beforeAll(async () => {
    session = await startConsoleSession({ ADMIN_API_KEYS, APPROVALS_REQUIRED: 'true' });
    page = session.page;
    eddie = as('eddie');
    paula = as('paula');
    const now = session.api.clock.now();
    // Running: written by eddie, approved and taken live by paula; a lifetime cap of 2.
    running = String(
      await eddie.create({
        name: 'summer-banner',
        team: 'growth',
        tags: ['summer'],
        rule: {
          ...examples.rule(),
          cohortEligibility: { includes: ['all'], excludes: [] },
          frequency: { ...examples.rule().frequency, lifeSpan: { limit: 2 } },
        },
      }),
    );
    expect((await paula.approve(running)).status).toBe(200);
    expect((await paula.status(running, 'live')).status).toBe(200);
    // Devices report actions and resets on days of this period and of the one before.
    const days = [0, 1, 3, 12, 33, 40].map((ago) => now - ago * DAY - 60_000);
    const send = (user: string, body: ReturnType<typeof snapshot>) => new SdkClient(session.api, TENANT, user).delta(body);
    expect(
      (await send(USER_ID, snapshot(running, { actionDoneAt: [days[0], days[2]], resetAt: [days[1], days[2]] }, { m1: machine('2', now) })))
        .status,
    ).toBe(200);
    expect(
      (await send('77', snapshot(running, { actionDoneAt: [days[3], days[4]], resetAt: [days[5]] }, { m2: machine('1', now) }))).status,
    ).toBe(200);
    expect((await send('78', snapshot(running, { actionDoneAt: [days[1]] }, { m3: machine('1', now) }))).status).toBe(200);
    // Waiting: eddie wrote it, then changed its description: nobody has approved it.
    waiting = String(await eddie.create({ name: 'winter-popup', team: 'store', tags: ['winter'], startTime: null, endTime: null }));
    await eddie.edit(waiting, {
      team: 'store',
      tags: ['winter'],
      description: 'Colder days, warmer offers',
      startTime: undefined,
      endTime: undefined,
    });
    // Trial: half its users held out; each exposed two hours ago, every third one bought an hour later.
    trial = String(
      await eddie.create({ name: 'checkout-trial', team: 'growth', experiment: { holdoutPercent: 50, goal: { state: '3' } } }),
    );
    expect((await paula.approve(trial)).status).toBe(200);
    expect((await paula.status(trial, 'live')).status).toBe(200);
    const [exposedAt, boughtAt] = [now - 2 * 3_600_000, now - 3_600_000];
    for (const [index, user] of TRIAL_USERS.entries()) {
      const actionDoneAt = user === CAPPED_USER ? [exposedAt, boughtAt] : [exposedAt];
      const body =
        index % 3 === 0
          ? snapshot(
              trial,
              { actionDoneAt, resetAt: [boughtAt] },
              { s1: { ...machine('3', boughtAt, { createdAt: exposedAt }), reset: true } },
            )
          : snapshot(trial, { actionDoneAt }, { s1: machine('1', exposedAt) });
      expect((await send(user, body)).status).toBe(200);
    }
    expect(new Set(TRIAL_USERS.map((user) => armOf(TENANT, trial, user, 50))).size).toBe(2);
    // At most 2 actions a day: CAPPED_USER is at the cap, USER_ID (one action today) is not.
    expect((await as('ada').exposurePolicy.put(POLICY)).status).toBe(200);
  }, SUITE_TIMEOUT_MS);
  afterAll(() => session?.close());

  it('signs in with a key (kept for the tab, never shown again) and lists every campaign with its 7-day sparkline as the API counts it', async () => {
    // By keyboard alone: the key field has the focus, Tab moves on, Enter signs in.
    await page.goto(`${session.origin}/engine/ui/`);
    await page.getByLabel('Admin key').waitFor();
    await page.keyboard.type(KEYS.paula);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Paula P.');
    await page.keyboard.press('Tab');
    await page.keyboard.type(TENANT);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    expect(await page.locator('.who').innerText()).toMatch(/^paula · publisher · tenant default/);
    expect(await page.locator('body').innerText()).not.toContain('k-paula');
    expect(await page.locator('input[type="password"]').count()).toBe(0);
    const rows = page.locator('table.campaigns tbody tr');
    await expectCount(rows, 3);
    expect(await page.locator('p.policy').innerText()).toBe(
      'Exposure policy: at most 2 actions per user in the last day (rolling), across all campaigns; over it, a launch serves only exempt campaigns and test CTAs.',
    );
    const row = page.locator(`tr[data-cta-id="${running}"]`);
    await row.locator('svg.sparkline').waitFor();
    const week = (
      await eddie.insights.ofCta(running, { from: utcDay(session.api.clock.now() - 6 * DAY), to: utcDay(session.api.clock.now()) })
    ).body.data;
    expect(await row.locator('svg.sparkline').getAttribute('data-values')).toBe(week.daily.map((day: any) => day.actions).join(','));
    expect(await row.innerText()).toMatch(/summer-banner\s+live\s+summer\s+growth\s+approved/);
    expect(await page.locator(`tr[data-cta-id="${waiting}"]`).innerText()).toMatch(
      /winter-popup\s+draft\s+winter\s+store\s+needs approval/,
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'operator-view-campaigns.png') });
    // Filters: by status, then back to all.
    await page.getByLabel('Status').selectOption('draft');
    await expectCount(rows, 1);
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Name contains').fill('summer');
    await page.getByLabel('Name contains').press('Enter');
    await expectCount(rows, 1);
    expect(pageErrors()).toEqual([]);
  });

  it("shows a campaign's daily actions, resets and new users for 30 days beside the 30 before, with the API's numbers", async () => {
    await page.goto(`${session.origin}/engine/ui/#/campaigns/${running}`);
    await page.locator('table.totals').waitFor();
    await page.locator('.chart canvas').waitFor();
    const to = utcDay(session.api.clock.now());
    const from = utcDay(session.api.clock.now() - 29 * DAY);
    const current = (await eddie.insights.ofCta(running, { from, to })).body.data;
    const previous = (
      await eddie.insights.ofCta(running, {
        from: utcDay(session.api.clock.now() - 59 * DAY),
        to: utcDay(session.api.clock.now() - 30 * DAY),
      })
    ).body.data;
    const sum = (insights: any, count: string) => insights.daily.reduce((total: number, day: any) => total + day[count], 0);
    for (const count of ['actions', 'resets', 'newUsers']) {
      const cells = page.locator(`table.totals tr[data-count="${count}"] td`);
      expect({ count, shown: await cells.allInnerTexts() }).toEqual({
        count,
        shown: [String(sum(current, count)), String(sum(previous, count))],
      });
    }
    expect(sum(current, 'actions')).toBe(4);
    expect(sum(previous, 'actions')).toBe(1);
    expect(await page.locator('tr[data-count="usersReached"] td').innerText()).toBe(String(current.totals.usersReached));
    await page.screenshot({ path: join(SCREENSHOTS, 'operator-view-campaign.png'), fullPage: true });
    // The chart's numbers, day by day, as the table beside it shows them.
    await page.getByText("The chart's numbers, day by day").click();
    const shownDays = await cellsOf(page.locator('table.daily tbody tr'));
    expect(shownDays).toEqual(current.daily.map((day: any) => [day.day, String(day.actions), String(day.resets), String(day.newUsers)]));
    // Machines by state now.
    const states = await cellsOf(page.locator('table.machines tbody tr'));
    expect(Object.fromEntries(states.map(([state, machines]) => [state, Number(machines)]))).toEqual(current.now.byState);
  });

  it("shows a campaign's experiment: both arms as the API counts them, the sentence, the uplift's interval drawn", async () => {
    await page.goto(`${session.origin}/engine/ui/#/campaigns/${trial}`);
    await page.locator('table.arms').waitFor();
    const report = (await eddie.insights.experiment(trial)).body.data;
    expect(report.arms.treatment.exposed + report.arms.holdout.exposed).toBe(TRIAL_USERS.length);
    const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)}%`);
    expect(await cellsOf(page.locator('table.arms tbody tr'))).toEqual(
      (['treatment', 'holdout'] as const).map((arm) => {
        const { entered, exposed, converted, rate } = report.arms[arm];
        return [expect.stringMatching(new RegExp(`^${arm}`, 'i')), String(entered), String(exposed), String(converted), percent(rate)];
      }),
    );
    expect(report.status).toBe('collecting');
    expect(await page.locator('p.verdict').innerText()).toBe(
      `Not significant yet: ${report.arms.treatment.exposed} of 100 exposed users in the treatment, ${report.arms.holdout.exposed} of 100 exposed users in the holdout.`,
    );
    const interval = page.locator('svg.interval');
    expect(await Promise.all(['data-low', 'data-high', 'data-estimate'].map((name) => interval.getAttribute(name).then(Number)))).toEqual([
      ...report.uplift.ci95!,
      report.uplift.absolute,
    ]);
    expect(await page.locator('section.experiment').innerText()).toContain('50% held out');
    await page.locator('section.experiment').screenshot({ path: join(SCREENSHOTS, 'operator-view-experiment.png') });
  });

  it("approves with a second key: the approver's name and local time (UTC on hover), then the history with its field diffs", async () => {
    await page.goto(`${session.origin}/engine/ui/#/campaigns/${waiting}`);
    await page.getByText('Its current content is not approved').waitFor();
    await page.getByRole('button', { name: 'Approve' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Approved by').waitFor();
    const approval = (await eddie.get(waiting)).approval as { by: string; at: number };
    expect(approval.by).toBe('paula');
    expect(await page.locator('p.approval').innerText()).toBe(
      `Approved by Paula P. (key paula) at ${await page.evaluate((at) => new Date(at).toLocaleString(), approval.at)}`,
    );
    expect(await page.locator('p.approval time').getAttribute('title')).toBe(
      `${new Date(approval.at).toISOString().replace('T', ' ').slice(0, 19)} UTC`,
    );
    const timeline = page.locator('ol.timeline > li');
    await expectCount(timeline, 3);
    expect(await timeline.nth(0).innerText()).toMatch(/^approve by Paula P\. \(key paula\)/);
    // Instants in a diff are local times too, not epoch milliseconds.
    const localAt = await page.evaluate((at) => new Date(at).toLocaleString(), approval.at);
    expect(await timeline.nth(0).locator('td.after').innerText()).toBe(JSON.stringify({ by: 'paula', at: localAt }));
    const update = timeline.nth(1);
    expect(await update.innerText()).toMatch(/^update by eddie@example\.com \(key eddie\)/);
    expect(await update.locator('table.diff tr', { hasText: 'description' }).locator('td').allInnerTexts()).toEqual([
      '"e2e"',
      '"Colder days, warmer offers"',
    ]);
  });

  it('restores an earlier version for a publisher, after a confirmation', async () => {
    const created = page.locator('ol.timeline > li').last();
    page.once('dialog', (dialog) => void dialog.accept());
    await created.getByRole('button', { name: 'Restore this version' }).click();
    await page.locator('ol.timeline > li', { hasText: /^restore/ }).waitFor();
    expect((await eddie.get(waiting)).description).toBe('e2e');
  });

  it('explains a user: reasons first, in words, with the device view; exports as a download; erases after the id is typed', async () => {
    await signOut();
    await signIn('ada', 'Ada A.');
    await page.getByRole('link', { name: 'A user' }).click();
    await page.getByLabel('App user id').fill(USER_ID);
    await page.getByRole('button', { name: 'Explain' }).click();
    const served = page.locator(`ul.explanations > li[data-cta-id="${running}"]`);
    await served.waitFor();
    expect(await served.locator('ul.reasons li').first().getAttribute('data-code')).toBe('SERVED');
    expect(await served.locator('ul.device').innerText()).toContain('lifetime cap reached: 2 of 2');
    await page.screenshot({ path: join(SCREENSHOTS, 'operator-view-user.png'), fullPage: true });
    // Every CTA of the tenant: the draft too, not served, the reason first.
    await page.getByLabel(/every CTA of the tenant/).check();
    expect(await page.locator(`ul.explanations > li[data-cta-id="${waiting}"] ul.reasons li`).first().getAttribute('data-code')).toBe(
      'NOT_LIVE',
    );

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as JSON' }).click()]);
    expect(download.suggestedFilename()).toBe(`app-user-${USER_ID}.json`);

    await page.getByRole('button', { name: "Erase this user's data…" }).click();
    const confirm = page.getByRole('button', { name: 'Erase for good' });
    await page.getByLabel(/Type the user id/).fill('4243');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel(/Type the user id/).fill(USER_ID);
    await confirm.click();
    await page.getByRole('status').filter({ hasText: 'Erased' }).waitFor();
    const left = (await as('ada').appUsers.export(USER_ID)).body.data;
    expect(left.state.ctas).toEqual([]);
  });

  it("says on a user's page when the exposure policy withholds campaigns, the slot freeing in local time", async () => {
    await page.goto(`${session.origin}/engine/ui/#/users/${CAPPED_USER}`);
    const notice = page.locator('p.capped');
    await notice.waitFor();
    const explained = (await session.api.get(`/engine/app-users/${CAPPED_USER}/launch`, as('ada').headers())).body.data;
    const cap = explained.ctas[0].reasons.find((reason: any) => reason.code === 'EXPOSURE_CAP_REACHED');
    expect(cap).toMatchObject({ count: 2, limit: 2 });
    const freesAt = Date.parse(cap.freesAt);
    expect(await notice.innerText()).toBe(
      "The exposure policy's cap is reached: the user acted 2 times in its window, at most 2 allowed. Until a slot frees at " +
        `${await page.evaluate((at) => new Date(at).toLocaleString(), freesAt)}, only exempt campaigns and test CTAs are served: ` +
        '2 campaigns are withheld that would be served otherwise.',
    );
    expect(await notice.locator('time').getAttribute('datetime')).toBe(cap.freesAt);
    await page.screenshot({ path: join(SCREENSHOTS, 'operator-view-user-capped.png') });
    for (const id of [running, trial]) {
      expect(await page.locator(`ul.explanations > li[data-cta-id="${id}"] ul.reasons li`).first().getAttribute('data-code')).toBe(
        'EXPOSURE_CAP_REACHED',
      );
    }
  });

  it('filters the audit by person, action, entity and local days', async () => {
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByLabel('Action').selectOption('approve');
    const entries = page.locator('ol.timeline > li');
    await expectCount(entries, 3);
    await page.getByLabel('Person (user)').fill('Paula P.');
    await page.getByLabel('Person (user)').press('Enter');
    await expectCount(entries, 1);
    await page.getByLabel('Person (user)').fill('');
    await page.getByLabel('Person (user)').press('Enter');
    await page.getByLabel('Action').selectOption('');
    await page.getByRole('combobox', { name: /^Entity/ }).selectOption('appUser');
    await expectCount(entries, 1);
    await page.getByRole('combobox', { name: /^Entity/ }).selectOption('');
    const today = await page.evaluate(() => new Date().toLocaleDateString('sv'));
    await page.getByLabel('To (local day)').fill(await page.evaluate(() => new Date(Date.now() - 2 * 86_400_000).toLocaleDateString('sv')));
    await expectCount(entries, 0);
    await page.getByLabel('To (local day)').fill(today);
    await page.getByLabel('From (local day)').fill(today);
    const total = (await as('vera').audit.search({})).body.data.totalEntries;
    await expectCount(entries, Math.min(total, 50));
    await page.screenshot({ path: join(SCREENSHOTS, 'operator-view-audit.png') });
  });

  it('offers a viewer every page and no write', async () => {
    await signOut();
    await signIn('vera', 'Vera V.');
    const writes = page.getByRole('button', { name: /Approve|Restore|Export|Erase/ });
    await page.goto(`${session.origin}/engine/ui/#/campaigns/${running}`);
    await page.locator('ol.timeline > li').first().waitFor();
    await page.goto(`${session.origin}/engine/ui/#/campaigns/${waiting}`);
    await page
      .getByText('Approved by')
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    await page.locator('ol.timeline > li').first().waitFor();
    expect(await writes.count()).toBe(0);
    await page.goto(`${session.origin}/engine/ui/#/users/77`);
    await page.locator('ul.explanations > li').first().waitFor();
    expect(await writes.count()).toBe(0);
    expect(pageErrors()).toEqual([]);
  });
});

/** The texts of each row's header and data cells. */
async function cellsOf(rows: Locator): Promise<string[][]> {
  const texts: string[][] = [];
  for (let index = 0; index < (await rows.count()); index++) texts.push(await rows.nth(index).locator('th, td').allInnerTexts());
  return texts;
}

/** Waits until the locator matches `count` elements (a page draws after its reads answer), then checks it. */
async function expectCount(locator: Locator, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let seen = await locator.count();
  while (seen !== count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = await locator.count();
  }
  expect(seen).toBe(count);
}

describeInBrowser('The operator view of an open admin API (no ADMIN_API_KEYS) in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    // At the root alias too: the view finds the admin API beside /ui/ wherever it is served.
    session = await startConsoleSession({ ADMIN_PREFIX_ALIASES: '/' });
  }, SUITE_TIMEOUT_MS);
  afterAll(() => session?.close());

  it('opens straight away at /ui/, with no sign-in box, offers every write, and asks for a name where a write must name one', async () => {
    const { page, origin, api } = session;
    const client = new AdminClient(api, TENANT);
    const id = await client.create({ name: 'open-door' });
    await client.edit(id, { description: 'changed', startTime: undefined, endTime: undefined });
    await page.goto(`${origin}/ui/#/campaigns/${id}`);
    await page.getByRole('heading', { name: /open-door/ }).waitFor();
    expect(await page.getByText('open admin API (no keys configured)').count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Sign in' }).count()).toBe(0);
    // No key names the operator and no ADMIN_DEFAULT_USER is set: a restore asks who restores (the API needs a user).
    const created = page.locator('ol.timeline > li').last();
    page.once('dialog', (dialog) => void (dialog.type() === 'prompt' ? dialog.accept('Olga O.') : dialog.dismiss()));
    await created.getByRole('button', { name: 'Restore this version' }).click();
    await page.locator('ol.timeline > li', { hasText: /^restore by Olga O\./ }).waitFor();
    expect((await client.get(id)).description).toBe('e2e');
    expect(session.consoleErrors).toEqual([]);
  });
});
