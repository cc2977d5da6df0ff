import type { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Clock } from '../common/clock';
import { MAX_UNKNOWN_TENANT_WAIT_MS, TenantDirectory } from './tenant-directory';

/** A directory over `tenants` (the revision rows), its checks counted and answered by hand. */
function directoryOver(tenants: string[], maxAgeMs: number) {
  const checks: { known: number; startedAt: number; answer: () => void }[] = [];
  const revisions = {
    tenantsUnlessCount: (known: number) =>
      new Promise((resolve) =>
        checks.push({
          known,
          startedAt: performance.now(),
          answer: () => resolve({ count: tenants.length, tenantIds: known === tenants.length ? null : [...tenants] }),
        }),
      ),
  } as unknown as CatalogueRevisionService;
  let reads = 0;
  const directory = new TenantDirectory(revisions, new Clock(), maxAgeMs, () => ++reads);
  return { directory, checks, mark: () => reads };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('TenantDirectory', () => {
  it('answers any number of unknown tenant ids with one check per maxAgeMs', async () => {
    const tenants = ['a', 'b'];
    const { directory, checks } = directoryOver(tenants, 60_000);
    const answers = Array.from({ length: 10_000 }, (_, index) => directory.exists(index % 2 === 0 ? `random-${index}` : 'a'));
    await settle();
    expect(checks.map((check) => check.known)).toEqual([-1]);
    checks.shift()!.answer();
    const found = await Promise.all(answers);
    expect(found.filter(Boolean)).toHaveLength(5000);
    // Fresh for maxAgeMs: no more checks; a listed tenant needs none ever.
    expect(await directory.exists('random-x')).toBe(false);
    expect(directory.has('b')).toBe(true);
    expect(checks).toHaveLength(0);
  });

  it('checks again for a request about to ignore snapshots, after it arrived, at most every MAX_UNKNOWN_TENANT_WAIT_MS', async () => {
    const tenants = ['a'];
    const { directory, checks, mark } = directoryOver(tenants, 600_000);
    const first = directory.exists('new');
    await settle();
    const firstCheck = checks.shift()!;
    firstCheck.answer();
    expect(await first).toBe(false);
    // Created meanwhile through another instance; 100 requests for it (and other ids) arrive.
    tenants.push('new');
    const marks = Array.from({ length: 100 }, () => mark());
    const waiting = marks.map((taken, index) => directory.existsAfter(index === 0 ? 'new' : `other-${index}`, taken));
    while (checks.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(checks[0].startedAt - firstCheck.startedAt).toBeGreaterThanOrEqual(MAX_UNKNOWN_TENANT_WAIT_MS - 1);
    expect(checks.map((check) => check.known)).toEqual([1]);
    checks.shift()!.answer();
    const answers = await Promise.all(waiting);
    expect([answers[0], answers.slice(1).some(Boolean)]).toEqual([true, false]);
    expect(checks).toHaveLength(0);
    // Older requests are answered by that check too.
    expect(await directory.existsAfter('other', marks[0])).toBe(false);
    expect(checks).toHaveLength(0);
  });
});
