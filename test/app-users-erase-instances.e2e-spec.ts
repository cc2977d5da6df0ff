import { Logger } from '@nestjs/common';
import { ERASE_CONFLICT_PATIENCE } from '../src/app-users/app-users.service';
import { AdminClient } from './admin-client';
import { holdNextStateWrite, snapshot, storedMachines } from './app-users';
import { CLUSTER_KIND, describeOnMysql, twoInstancesPerSuite } from './cluster';
import { dataSourceOf } from './database-contents';
import { TestApp } from './harness';
import { SdkClient } from './sdk-client';

const USER = '7301234567891';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Erases sent while the user's deltas stream through the other instance (on Galera: through another node). */
const ERASES_UNDER_TRAFFIC = 20;

/** B is the stale instance: it re-reads the catalogue's revision only when something it does not know shows up. */
const B_REVALIDATE_MS = 600_000;

/**
 * An erase through one instance is final against requests another instance (a stale one) read
 * before it and writes after it (docs/decisions/0017-user-data-export-and-erase.md): on one
 * MariaDB database, and with `npm run test:galera` each instance on its own node of the cluster,
 * where the late write loses its certification instead of a version check on one server.
 */
describeOnMysql(`an erase racing requests on another instance [${CLUSTER_KIND}]`, () => {
  let a: TestApp;
  let b: TestApp;
  let tenantCount = 0;

  twoInstancesPerSuite([{}, { CACHE_REVALIDATE_MS: String(B_REVALIDATE_MS) }], (first, second) => {
    a = first;
    b = second;
  });

  const fresh = (api: TestApp, ctaId: string, key: string) => snapshot(ctaId, key, api.clock.now());

  /** A fresh tenant with a live CTA that B has cached; the user's device through each instance, with `old` stored. */
  async function userWithState(old: string[]) {
    const tenantId = `erase-instances-${++tenantCount}`;
    const admin = new AdminClient(a, tenantId);
    // Created through B, so that B, which checks for new tenants only every B_REVALIDATE_MS, knows this one.
    const ctaId = await new AdminClient(b, tenantId).cta();
    const viaA = new SdkClient(a, tenantId, USER);
    const viaB = new SdkClient(b, tenantId, USER);
    expect((await viaB.launch()).body.data.ctas.map((cta) => cta.ctaId)).toEqual([ctaId]);
    for (const key of old) {
      expect((await viaB.delta(fresh(b, ctaId, key))).body).toEqual({ data: true });
    }
    return { tenantId, admin, adminB: new AdminClient(b, tenantId), ctaId, viaA, viaB };
  }

  it("a delta through B that read before A's erase stores only its own snapshot", async () => {
    const { tenantId, admin, adminB, ctaId, viaB } = await userWithState(['old-1', 'old-2']);
    const held = holdNextStateWrite(b, tenantId, USER);
    const delta = viaB.delta(fresh(b, ctaId, 'in-flight'));
    await held.reached;
    expect((await admin.appUsers.erase(USER)).body.data.state).toBe(true);
    held.release();
    expect((await delta).body).toEqual({ data: true });
    expect(await storedMachines(admin, USER)).toEqual([`${ctaId}/in-flight`]);
    expect(await storedMachines(adminB, USER)).toEqual([`${ctaId}/in-flight`]);
  });

  it("a delta through B holding a version read before A's erase loses even once A's merges have counted past it", async () => {
    const { tenantId, admin, ctaId, viaA, viaB } = await userWithState(['old-1', 'old-2']);
    const held = holdNextStateWrite(b, tenantId, USER);
    const delta = viaB.delta(fresh(b, ctaId, 'in-flight'));
    await held.reached;
    expect((await admin.appUsers.erase(USER)).body.data.state).toBe(true);
    for (const key of ['next-1', 'next-2']) {
      expect((await viaA.delta(fresh(a, ctaId, key))).body).toEqual({ data: true });
    }
    held.release();
    expect((await delta).body).toEqual({ data: true });
    expect(await storedMachines(admin, USER)).toEqual([`${ctaId}/in-flight`, `${ctaId}/next-1`, `${ctaId}/next-2`]);
  });

  it('a first delta through B that found no state, inserting after A stored some and erased it, stores only its own', async () => {
    const { tenantId, admin, ctaId, viaA, viaB } = await userWithState([]);
    const held = holdNextStateWrite(b, tenantId, USER);
    const delta = viaB.delta(fresh(b, ctaId, 'first'));
    await held.reached;
    expect((await viaA.delta(fresh(a, ctaId, 'old'))).body).toEqual({ data: true });
    expect((await admin.appUsers.erase(USER)).body.data.state).toBe(true);
    held.release();
    expect((await delta).body).toEqual({ data: true });
    expect(await storedMachines(admin, USER)).toEqual([`${ctaId}/first`]);
  });

  it("a launch through B writing back what it pruned, having read before A's erase, writes nothing", async () => {
    const { tenantId, admin, ctaId, viaB } = await userWithState(['old-expiring']);
    b.clock.advance(4 * DAY_MS);
    expect((await viaB.delta(fresh(b, ctaId, 'old-kept'))).body).toEqual({ data: true });
    // Four more days on B: the first machine has outlived the rule's 7-day TTL there.
    b.clock.advance(4 * DAY_MS);
    const held = holdNextStateWrite(b, tenantId, USER);
    const launch = viaB.launch();
    await held.reached;
    expect((await admin.appUsers.erase(USER)).body.data.state).toBe(true);
    held.release();
    expect((await launch).status).toBe(200);
    expect(await storedMachines(admin, USER)).toEqual([]);
    a.clock.advance(b.clock.now() - a.clock.now());
  });

  it('never brings old state back while deltas stream in through both instances around an erase, and keeps every delta sent after it', async () => {
    const { admin, ctaId, viaA, viaB } = await userWithState(['old-1', 'old-2', 'old-3']);
    const device = (index: number) => (index % 2 === 0 ? viaA : viaB);
    const send = (name: string, count: number) =>
      Array.from({ length: count }, (_, index) => device(index).delta(fresh(index % 2 === 0 ? a : b, ctaId, `${name}-${index}`)));
    const before = send('before', 20);
    const erase = admin.appUsers.erase(USER);
    const around = send('around', 20);
    expect((await erase).body.data.state).toBe(true);
    const after = send('after', 10);
    const responses = await Promise.all([...before, ...around, ...after]);
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
    const stored = await storedMachines(admin, USER);
    expect(stored.filter((key) => key.includes('/old-'))).toEqual([]);
    expect(stored.filter((key) => key.includes('/after-'))).toHaveLength(10);
  });

  it('two erases of one user at once, through A and through B, add up to one erase', async () => {
    const zeros = { state: false, cohorts: 0, testCtas: 0, auditEntries: 0 };
    for (let round = 0; round < 5; round++) {
      const { admin, adminB } = await userWithState(['old-1']);
      expect((await admin.cohorts.create({ name: 'listed', kind: 'static' })).status).toBe(200);
      expect((await admin.cohorts.members('POST', 'listed', { userIds: [USER, '5'] })).status).toBe(200);
      await admin.testCta([Number(USER)], 60);
      await admin.testCta([Number(USER), 5], 60);
      const whole = { state: true, cohorts: 1, testCtas: 2, auditEntries: 2 };
      expect((await admin.appUsers.export(USER)).body.data.auditEntries).toHaveLength(whole.auditEntries);
      const answers = await Promise.all([admin.appUsers.erase(USER), adminB.appUsers.erase(USER)]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(answers.map((answer) => answer.body.data).sort((x, y) => Number(y.state) - Number(x.state))).toEqual([whole, zeros]);
      expect((await admin.cohorts.get('listed')).body.data.memberCount).toBe(1);
    }
  });

  it("an erase through A while the user's deltas stream through B succeeds without the caller retrying, try after try", async () => {
    const { admin, ctaId, viaB } = await userWithState([]);
    let sent = 0;
    let storedSinceErase = 0;
    let streaming = true;
    const refusedDeltas: number[] = [];
    // Two devices of the user, each sending its next delta as soon as the last one is answered.
    const stream = async () => {
      while (streaming) {
        const { status } = await viaB.delta(fresh(b, ctaId, `live-${sent++ % 5}`));
        if (status === 200) storedSinceErase++;
        else refusedDeltas.push(status);
      }
    };
    const warningSpy = jest.spyOn(Logger.prototype, 'warn');
    const errorSpy = jest.spyOn(Logger.prototype, 'error');
    let warnings: unknown[][] = [];
    let errors: unknown[][] = [];
    const streams = [stream(), stream()];
    const receipts: { status: number; state?: boolean }[] = [];
    try {
      for (let attempt = 0; attempt < ERASES_UNDER_TRAFFIC; attempt++) {
        storedSinceErase = 0;
        while (storedSinceErase < 3) await new Promise((resolve) => setTimeout(resolve, 5));
        const erased = await admin.appUsers.erase(USER);
        receipts.push({ status: erased.status, state: erased.body.data?.state });
      }
    } finally {
      streaming = false;
      await Promise.all(streams);
      [warnings, errors] = [[...warningSpy.mock.calls], [...errorSpy.mock.calls]];
      warningSpy.mockRestore();
      errorSpy.mockRestore();
    }
    // Every erase found the deltas stored since the last one and emptied them: 200, never a 503 to send again.
    expect(receipts).toEqual(receipts.map(() => ({ status: 200, state: true })));
    expect(refusedDeltas).toEqual([]);
    // The conflicts it retried (on Galera) are one warn line per erase that met some, never an error.
    const eraseLines = warnings.filter(([fields]) => (fields as { work?: string })?.work === ERASE_CONFLICT_PATIENCE.work);
    expect(eraseLines.length).toBeLessThanOrEqual(ERASES_UNDER_TRAFFIC);
    expect(eraseLines.map(([, message]) => message)).toEqual(eraseLines.map(() => 'conflicting writes retried, then committed'));
    expect(errors).toEqual([]);
  }, 300_000);

  it('keeps a static cohort’s member count exact when an erase through A races member uploads through B', async () => {
    const tenantId = `erase-instances-${++tenantCount}`;
    const admin = new AdminClient(a, tenantId);
    const adminB = new AdminClient(b, tenantId);
    expect((await admin.cohorts.create({ name: 'racing', kind: 'static' })).status).toBe(200);
    expect((await admin.cohorts.members('POST', 'racing', { userIds: [USER, '1', '2'] })).status).toBe(200);
    const uploads = Array.from({ length: 6 }, (_, index) =>
      adminB.cohorts.members('POST', 'racing', { userIds: Array.from({ length: 50 }, (_, n) => String(1000 * (index + 1) + n)) }),
    );
    // On Galera the erase can lose certification to the uploads: it runs again by itself.
    const [erased, ...uploaded] = await Promise.all([admin.appUsers.erase(USER), ...uploads]);
    expect(erased.body).toMatchObject({ data: { cohorts: 1 } });
    expect(uploaded.map((response) => response.status)).toEqual(uploads.map(() => 200));
    const cohort = (await admin.cohorts.get('racing')).body.data;
    const [{ members }] = await dataSourceOf(a).query(
      'SELECT COUNT(*) AS members FROM cohort_members m JOIN cohorts c ON c.id = m.cohort_id AND c.generation = m.generation WHERE c.tenant_id = ? AND c.name = ?',
      [tenantId, 'racing'],
    );
    expect([cohort.memberCount, Number(members)]).toEqual([2 + 6 * 50, 2 + 6 * 50]);
    expect((await admin.cohorts.member('racing', USER)).body.data).toEqual({ member: false });
  });
});
