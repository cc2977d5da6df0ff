import { ctaBody, examples, type StatusAction, tagBody, tagUpdateBody } from './fixtures';
import type { TestApp, TestResponse } from './harness';

/** Fails the test unless the admin API answered 200. */
function expectOk(response: TestResponse, what: string): void {
  if (response.status !== 200) {
    throw new Error(`${what} answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
}

/**
 * The admin API of one tenant, as an operator calls it. Methods answering a response leave the
 * checks to the test; the others build a catalogue and fail the test on anything but 200.
 */
export class AdminClient {
  constructor(
    private readonly api: TestApp,
    readonly tenantId: string,
    readonly user = 'ops@example.com',
    /** The admin key it sends, where ADMIN_API_KEYS is set. */
    readonly apiKey?: string,
  ) {}

  headers(): Record<string, string> {
    return { ...this.tenantAndKey(), user: this.user };
  }

  /** The tenant header, and the key when there is one (status changes and reads send no `user`). */
  private tenantAndKey(): Record<string, string> {
    return { 'x-tenant-id': this.tenantId, ...(this.apiKey === undefined ? {} : { 'x-api-key': this.apiKey }) };
  }

  /** Creates a draft CTA from `ctaBody(fields)` and answers its id. */
  async create(fields: Record<string, unknown> = {}): Promise<number> {
    const res = await this.api.post('/engine/ctas/', ctaBody(fields), this.headers());
    expectOk(res, 'create CTA');
    return res.body.data;
  }

  /** A CTA with the example's rule (changed by `rule`), moved through `actions` (default: live). Answers its id. */
  async cta(
    options: { rule?: Record<string, unknown>; startTime?: number | null; endTime?: number | null; actions?: StatusAction[] } = {},
  ): Promise<string> {
    const id = String(
      await this.create({
        startTime: options.startTime ?? null,
        endTime: options.endTime ?? null,
        rule: { ...examples.rule(), ...options.rule },
      }),
    );
    await this.move(id, ...(options.actions ?? ['live']));
    return id;
  }

  /** The example CTA linked by the example tag, then live: the catalogue `examples.delta` and `examples.launch` describe. */
  async exampleCta(): Promise<string> {
    const id = await this.cta({ actions: [] });
    await this.tag(examples.tag.behaviourTagName, [id]);
    await this.move(id, 'live');
    return id;
  }

  async get(id: number | string): Promise<Record<string, any>> {
    const res = await this.api.get(`/engine/ctas/${id}`, this.headers());
    expectOk(res, `get ${id}`);
    return res.body.data;
  }

  /** PUT with the create body's fields (minus name) overridden by `fields`. */
  update(id: number | string, fields: Record<string, unknown> = {}): Promise<TestResponse> {
    const { name: _name, ...body } = ctaBody(fields);
    return this.api.put(`/engine/ctas/${id}`, body, this.headers());
  }

  /** The same, failing the test unless it is accepted. */
  async edit(id: number | string, fields: Record<string, unknown>): Promise<void> {
    expectOk(await this.update(id, fields), `update ${id}`);
  }

  status(id: number | string, action: string): Promise<TestResponse> {
    return this.api.put(`/engine/ctas/${id}/${action}`, undefined, this.tenantAndKey());
  }

  /** Approves the CTA's current content as this client's key. */
  approve(id: number | string): Promise<TestResponse> {
    return this.api.post(`/engine/ctas/${id}/approve`, undefined, this.headers());
  }

  /** Applies each status change in turn, failing the test at the first refused. */
  async move(id: number | string, ...actions: StatusAction[]): Promise<void> {
    for (const action of actions) {
      expectOk(await this.status(id, action), `${action} ${id}`);
    }
  }

  list(query = ''): Promise<TestResponse> {
    return this.api.get(`/engine/ctas/${query}`, this.tenantAndKey());
  }

  /** The example tag (any one of its CTAs shows, the rest hide) named `name`, linking `linkedCtas`. */
  async tag(name: string, linkedCtas: string[]): Promise<void> {
    expectOk(await this.api.post('/engine/behaviour-tags/', tagBody(name, linkedCtas), this.headers()), 'create tag');
  }

  async updateTag(name: string, linkedCtas: string[]): Promise<void> {
    expectOk(
      await this.api.put(`/engine/behaviour-tags/${encodeURIComponent(name)}`, tagUpdateBody(linkedCtas), this.headers()),
      'update tag',
    );
  }

  async testCta(userIds: number[], expiresInMinutes: number, rule: Record<string, unknown> = {}): Promise<string> {
    const response = await this.api.post(
      '/engine/ctas/test/create',
      { userIds, expiresInMinutes, rule: { ...examples.rule(), ...rule } },
      this.headers(),
    );
    expectOk(response, 'create test CTA');
    return String(response.body.data);
  }
}
