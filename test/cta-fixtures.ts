import type { TestApp, TestResponse } from './harness';
import { examples } from './sdk-fixtures';

let sequence = 0;

/** A valid create body (the shared example), with a fresh name unless given. */
export const ctaBody = (fields: Record<string, unknown> = {}): Record<string, any> => ({
  name: `cta-${++sequence}`,
  description: 'e2e',
  tags: ['onboarding', 'store'],
  team: 'growth',
  startTime: null,
  endTime: null,
  rule: examples.rule(),
  ...fields,
});

/** The CTA admin API of one tenant, as an operator calls it. */
export class CtaClient {
  constructor(
    private readonly api: TestApp,
    readonly tenantId: string,
    readonly user = 'ops@example.com',
  ) {}

  headers(): Record<string, string> {
    return { 'x-tenant-id': this.tenantId, user: this.user };
  }

  /** Creates a CTA and answers its id; fails the test on anything but 200. */
  async create(fields: Record<string, unknown> = {}): Promise<number> {
    const res = await this.api.post('/engine/ctas/', ctaBody(fields), this.headers());
    if (res.status !== 200) {
      throw new Error(`create answered ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body.data;
  }

  async get(id: number): Promise<Record<string, any>> {
    const res = await this.api.get(`/engine/ctas/${id}`, this.headers());
    if (res.status !== 200) {
      throw new Error(`get answered ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body.data;
  }

  /** PUT with the create body's fields (minus name) overridden by `fields`. */
  update(id: number, fields: Record<string, unknown> = {}): Promise<TestResponse> {
    const { name: _name, ...body } = ctaBody(fields);
    return this.api.put(`/engine/ctas/${id}`, body, this.headers());
  }

  status(id: number, action: string): Promise<TestResponse> {
    return this.api.put(`/engine/ctas/${id}/${action}`, undefined, { 'x-tenant-id': this.tenantId });
  }

  list(query = ''): Promise<TestResponse> {
    return this.api.get(`/engine/ctas/${query}`, { 'x-tenant-id': this.tenantId });
  }
}
