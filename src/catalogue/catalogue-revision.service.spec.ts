import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { CatalogueRevisionService } from './catalogue-revision.service';

type Dependencies = ConstructorParameters<typeof CatalogueRevisionService>;

/**
 * A revision service whose transactions log `commit` when their work (the bump included) is done;
 * every revision row exists, so each UPDATE affects one row per tenant named.
 */
function revisions() {
  const log: string[] = [];
  // Any query builder chain; `execute` answers one affected row per tenant of the statement.
  const statement = (tenants = 1): unknown =>
    new Proxy(
      {},
      {
        get: (_target, key) =>
          key === 'execute'
            ? async () => ({ affected: tenants })
            : (_sql?: unknown, params?: { tenants?: string[] }) => statement(params?.tenants?.length ?? tenants),
      },
    );
  const manager = { createQueryBuilder: () => statement() } as unknown as EntityManager;
  const transactions = {
    run: async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
      const result = await work(manager);
      log.push('commit');
      return result;
    },
  } as unknown as Dependencies[1];
  const service = new CatalogueRevisionService({} as Dependencies[0], transactions, new Clock());
  service.onChange((tenantId) => log.push(`changed ${tenantId}`));
  return { service, log };
}

describe('CatalogueRevisionService', () => {
  it("tells this instance's listeners of a write once it has committed, and answers the work's result", async () => {
    const { service, log } = revisions();
    await expect(service.write('t1', async () => 'created')).resolves.toBe('created');
    expect(log).toEqual(['commit', 'changed t1']);
  });

  it('tells no one of a write whose work failed (it rolled back)', async () => {
    const { service, log } = revisions();
    await expect(
      service.write('t1', async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(log).toEqual([]);
  });

  it("tells of a batch's tenants once each, in order, after its one commit", async () => {
    const { service, log } = revisions();
    await expect(service.writeMany(['b', 'a', 'b', 'c', 'a'], async () => 3)).resolves.toBe(3);
    expect(log).toEqual(['commit', 'changed a', 'changed b', 'changed c']);
  });
});
