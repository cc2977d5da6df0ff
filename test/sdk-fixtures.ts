import createCtaExample from './fixtures/create-cta.json';
import createTagExample from './fixtures/create-behaviour-tag.json';
import deltaExample from './fixtures/delta-request.json';
import launchExample from './fixtures/launch-response.json';
import type { TestApp } from './harness';

/** The shared examples, with the example's CTA id `12` replaced by a real one. */
export const examples = {
  rule: (): Record<string, any> => JSON.parse(JSON.stringify(createCtaExample.rule)),
  delta: (ctaId: string): any => JSON.parse(JSON.stringify(deltaExample).replace(/"12"/g, JSON.stringify(ctaId))),
  launch: (ctaId: string): any => JSON.parse(JSON.stringify(launchExample).replace(/"12"/g, JSON.stringify(ctaId))),
  tag: createTagExample,
};

/** When the example's state machines were written: tests run the clock there (TTL 7 days). */
export const EXAMPLE_TIME = 1795372967296;

/** Moves the app's clock to a minute after EXAMPLE_TIME, where the examples' state machines are fresh. */
export function runClockAfterExamples(api: TestApp): void {
  api.clock.advance(EXAMPLE_TIME + 60_000 - api.clock.now());
}

export const sdkHeaders = (tenantId: string, userId: string, apiVersion: string | null = '1'): Record<string, string> => ({
  'x-tenant-id': tenantId,
  'auth-userid': userId,
  ...(apiVersion === null ? {} : { api_version: apiVersion }),
  app_version: '5.2.0',
  package_name: 'com.example.app',
  codepush_version: 'v7',
});

type StatusAction = 'live' | 'pause' | 'schedule' | 'conclude' | 'terminate';

/** A tenant's catalogue built through the admin API, as an operator would. */
export class AdminCatalogue {
  private created = 0;

  constructor(
    private readonly api: TestApp,
    readonly tenantId: string,
  ) {}

  private headers(): Record<string, string> {
    return { 'x-tenant-id': this.tenantId, user: 'ops@example.com' };
  }

  private expectOk(response: { status: number; body: unknown }, what: string): void {
    if (response.status !== 200) {
      throw new Error(`${what} answered ${response.status}: ${JSON.stringify(response.body)}`);
    }
  }

  /** A CTA with the example's rule (changed by `rule`), moved through `actions` (default: live). Answers its id. */
  async cta(
    options: { rule?: Record<string, unknown>; startTime?: number | null; endTime?: number | null; actions?: StatusAction[] } = {},
  ): Promise<string> {
    const response = await this.api.post(
      '/engine/ctas/',
      {
        name: `cta-${this.tenantId}-${++this.created}`,
        description: 'e2e',
        tags: ['store'],
        team: 'growth',
        startTime: options.startTime ?? null,
        endTime: options.endTime ?? null,
        rule: { ...examples.rule(), ...options.rule },
      },
      this.headers(),
    );
    this.expectOk(response, 'create CTA');
    const id = String(response.body.data);
    for (const action of options.actions ?? ['live']) {
      await this.status(id, action);
    }
    return id;
  }

  /** Replaces the CTA's fields (allowed in draft and paused) with the example's and `fields`. */
  async update(id: string, fields: { startTime?: number | null; endTime?: number | null }): Promise<void> {
    const body = { description: 'e2e', tags: ['store'], team: 'growth', rule: examples.rule(), ...fields };
    this.expectOk(await this.api.put(`/engine/ctas/${id}`, body, this.headers()), `update ${id}`);
  }

  async status(id: string, action: StatusAction): Promise<void> {
    this.expectOk(await this.api.put(`/engine/ctas/${id}/${action}`, undefined, { 'x-tenant-id': this.tenantId }), `${action} ${id}`);
  }

  /** The example tag (any one of its CTAs shows, the rest hide) linking `linkedCtas`. */
  async tag(name: string, linkedCtas: string[]): Promise<void> {
    this.expectOk(
      await this.api.post('/engine/behaviour-tags/', { ...this.tagBody(linkedCtas), behaviourTagName: name }, this.headers()),
      'create tag',
    );
  }

  async updateTag(name: string, linkedCtas: string[]): Promise<void> {
    this.expectOk(
      await this.api.put(`/engine/behaviour-tags/${encodeURIComponent(name)}`, this.tagBody(linkedCtas), this.headers()),
      'update tag',
    );
  }

  async testCta(userIds: number[], expiresInMinutes: number, rule: Record<string, unknown> = {}): Promise<string> {
    const response = await this.api.post(
      '/engine/ctas/test/create',
      { userIds, expiresInMinutes, rule: { ...examples.rule(), ...rule } },
      this.headers(),
    );
    this.expectOk(response, 'create test CTA');
    return String(response.body.data);
  }

  private tagBody(linkedCtas: string[]): Record<string, unknown> {
    return {
      description: examples.tag.description,
      exposureRule: examples.tag.exposureRule,
      ctaRelation: examples.tag.ctaRelation,
      linkedCtas,
    };
  }
}
