import type { AppUserData, ErasedCounts } from '../src/app-users/app-users.service';
import type { AuditPage } from '../src/audit/audit.types';
import type { AuditPageQueryDto, AuditQueryDto } from '../src/audit/dto/audit-query.dto';
import type { CreateBehaviourTagDto, UpdateBehaviourTagDto } from '../src/behaviour-tags/dto/behaviour-tag-body.dto';
import type { BehaviourTagListDto } from '../src/behaviour-tags/dto/behaviour-tag-record.dto';
import type { MemberChange } from '../src/cohorts/cohort-members.service';
import type { CohortRecord } from '../src/cohorts/cohort-record';
import type { CreateCohortDto, UpdateCohortDto } from '../src/cohorts/dto/cohort-body.dto';
import type { CohortListDto, MembershipDto } from '../src/cohorts/dto/cohort-record.dto';
import type { DataEnvelope, EventEnvelope } from '../src/common/envelope';
import type { CtaPage, FilterValues } from '../src/ctas/cta-listing.service';
import type { CtaRecord } from '../src/ctas/cta-record';
import type { CtaValidationReport } from '../src/ctas/cta-validation.service';
import type { CreateCtaDto, UpdateCtaDto, ValidateCtaDto } from '../src/ctas/dto/cta-body.dto';
import type { ListCtasQueryDto } from '../src/ctas/dto/list-ctas-query.dto';
import type { CreateTestCtaDto } from '../src/ctas/dto/test-cta-body.dto';
import type { EventListDto, EventNamesDto, EventsProcessedDto } from '../src/events/dto/event-definition-record.dto';
import type { UpdateEventPropertiesDto, UpsertEventsDto } from '../src/events/dto/event-definition.dto';
import type { ExposurePolicy } from '../src/exposure-policy/exposure-policy';
import type { EventDefinition } from '../src/events/event-definition.types';
import type { ExperimentReport } from '../src/experiments/experiment-report';
import type { InsightsQueryDto } from '../src/insights/dto/insights.dto';
import type { CtaInsights, InsightsOverview } from '../src/insights/insights.types';
import type { WriteNudgePreviewDto } from '../src/nudge-preview/dto/nudge-preview.dto';
import { type Answer, ApiClient, type Headers, type Query, queryText, segment } from './api-client';
import { ctaBody, examples, runClockAfterExamples, type StatusAction, tagBody, tagUpdateBody } from './fixtures';
import { TestApp, type TestDatabase, type TestResponse } from './harness';

/** The headers an admin request may carry. */
export type AdminHeaders = Headers<'x-tenant-id' | 'user' | 'x-source' | 'x-request-id' | 'x-api-key' | 'authorization' | 'content-type'>;

/** A rule as a test sends it: any object (the services check rules, not the DTOs). */
type RuleAsSent<Dto extends { rule: unknown }> = Omit<Dto, 'rule'> & { rule: object };

/** The admin bodies, typed by their DTOs. */
export type CtaCreateBody = RuleAsSent<CreateCtaDto>;
export type CtaUpdateBody = RuleAsSent<UpdateCtaDto>;
export type CtaValidateBody = RuleAsSent<ValidateCtaDto>;
export type TestCtaBody = RuleAsSent<CreateTestCtaDto>;
/** Cohort members: JSON ids, or CSV/plain text (one id a line). */
export type MemberUpload = { userIds: (number | string)[] } | string;

/** `{}`: the envelope of a route that answers nothing. */
type Empty = Record<string, unknown>;
type Data<T> = DataEnvelope<T>;
type Event<T> = EventEnvelope<T>;

/** Fails the test unless the admin API answered 200. */
function expectOk(response: TestResponse, what: string): void {
  if (response.status !== 200) {
    throw new Error(`${what} answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
}

/**
 * The admin API of one tenant, as an operator calls it: one typed method per route, in groups
 * (`ctas`, `testCtas`, `tags`, `events`, `cohorts`, `audit`, `insights`, `exposurePolicy`, `appUsers`, `previews`), answering the response
 * for the test to check; `raw` for malformed requests. Every request carries `x-tenant-id` and, when
 * the client has one, `user`; a method's `headers` add to or (with `undefined`) remove them.
 * The methods outside the groups build a catalogue and fail the test on anything but 200.
 */
export class AdminClient extends ApiClient<keyof AdminHeaders & string> {
  constructor(
    api: TestApp,
    readonly tenantId: string,
    /** The `user` header; null sends none. */
    readonly user: string | null = 'ops@example.com',
    /** Another prefix (an alias, a gateway's mount), and headers every request carries (e.g. an admin key). */
    private readonly options: { prefix?: string; headers?: Record<string, string> } = {},
  ) {
    super(api, options.prefix ?? '/engine');
  }

  headers(): Record<string, string> {
    return { 'x-tenant-id': this.tenantId, ...(this.user === null ? {} : { user: this.user }), ...this.options.headers };
  }

  readonly ctas = {
    create: (body: CtaCreateBody, headers?: AdminHeaders): Answer<Data<number>> => this.send('POST', '/ctas/', body, headers),
    validate: (body: CtaValidateBody, headers?: AdminHeaders): Answer<Data<CtaValidationReport>> =>
      this.send('POST', '/ctas/validate', body, headers),
    list: (query: Query<ListCtasQueryDto> = {}, headers?: AdminHeaders): Answer<Data<CtaPage>> =>
      this.send('GET', `/ctas/${queryText(query)}`, undefined, headers),
    get: (id: number | string, headers?: AdminHeaders): Answer<Data<CtaRecord>> =>
      this.send('GET', `/ctas/${segment(id)}`, undefined, headers),
    update: (id: number | string, body: CtaUpdateBody, headers?: AdminHeaders): Answer<Empty> =>
      this.send('PUT', `/ctas/${segment(id)}`, body, headers),
    /** A status change: `live`, `pause`, `schedule`, `conclude`, `terminate` (or anything else, to be refused). */
    status: (id: number | string, action: StatusAction | string, headers?: AdminHeaders): Answer<Empty> =>
      this.send('PUT', `/ctas/${segment(id)}/${segment(action)}`, undefined, headers),
    /** Approves the CTA's current content (with approvals required) as the key the client sends. */
    approve: (id: number | string, headers?: AdminHeaders): Answer<Empty> =>
      this.send('POST', `/ctas/${segment(id)}/approve`, undefined, headers),
    history: (id: number | string, query: Query<AuditPageQueryDto> = {}, headers?: AdminHeaders): Answer<Data<AuditPage>> =>
      this.send('GET', `/ctas/${segment(id)}/history${queryText(query)}`, undefined, headers),
    restore: (id: number | string, auditId: number | string, headers?: AdminHeaders): Answer<Empty> =>
      this.send('POST', `/ctas/${segment(id)}/restore/${segment(auditId)}`, undefined, headers),
    filters: (headers?: AdminHeaders): Answer<Data<FilterValues>> => this.send('GET', '/filters/', undefined, headers),
  };

  readonly testCtas = {
    create: (body: TestCtaBody, headers?: AdminHeaders): Answer<Data<number>> => this.send('POST', '/ctas/test/create', body, headers),
    delete: (id: number | string, headers?: AdminHeaders): Answer<Data<null>> =>
      this.send('DELETE', `/ctas/test/${segment(id)}`, undefined, headers),
  };

  readonly tags = {
    create: (body: CreateBehaviourTagDto, headers?: AdminHeaders): Answer<Empty> => this.send('POST', '/behaviour-tags/', body, headers),
    update: (name: string, body: UpdateBehaviourTagDto, headers?: AdminHeaders): Answer<Empty> =>
      this.send('PUT', `/behaviour-tags/${segment(name)}`, body, headers),
    list: (headers?: AdminHeaders): Answer<Data<BehaviourTagListDto>> => this.send('GET', '/behaviour-tags/', undefined, headers),
    history: (name: string, query: Query<AuditPageQueryDto> = {}, headers?: AdminHeaders): Answer<Data<AuditPage>> =>
      this.send('GET', `/behaviour-tags/${segment(name)}/history${queryText(query)}`, undefined, headers),
  };

  readonly events = {
    upsert: (body: UpsertEventsDto, headers?: AdminHeaders): Answer<Event<EventsProcessedDto>> =>
      this.send('POST', '/events', body, headers),
    list: (headers?: AdminHeaders): Answer<Event<EventListDto>> => this.send('GET', '/events', undefined, headers),
    names: (headers?: AdminHeaders): Answer<Event<EventNamesDto>> => this.send('GET', '/events/list/names', undefined, headers),
    get: (name: string, headers?: AdminHeaders): Answer<Event<EventDefinition>> =>
      this.send('GET', `/events/${segment(name)}`, undefined, headers),
    replace: (name: string, body: UpdateEventPropertiesDto, headers?: AdminHeaders): Answer<Event<null>> =>
      this.send('PUT', `/events/${segment(name)}`, body, headers),
    delete: (name: string, headers?: AdminHeaders): Answer<Event<null>> =>
      this.send('DELETE', `/events/${segment(name)}`, undefined, headers),
  };

  readonly cohorts = {
    create: (body: CreateCohortDto, headers?: AdminHeaders): Answer<Data<CohortRecord>> => this.send('POST', '/cohorts', body, headers),
    list: (headers?: AdminHeaders): Answer<Data<CohortListDto>> => this.send('GET', '/cohorts', undefined, headers),
    /** `all`, then every cohort by name; `query` as a cohort picker sends it (e.g. `?userId=…`). */
    names: (query = '', headers?: AdminHeaders): Answer<Data<string[]>> => this.send('GET', `/cohort-names${query}`, undefined, headers),
    get: (name: string, headers?: AdminHeaders): Answer<Data<CohortRecord>> =>
      this.send('GET', `/cohorts/${segment(name)}`, undefined, headers),
    update: (name: string, body: UpdateCohortDto, headers?: AdminHeaders): Answer<Data<CohortRecord>> =>
      this.send('PUT', `/cohorts/${segment(name)}`, body, headers),
    delete: (name: string, headers?: AdminHeaders): Answer<Data<null>> =>
      this.send('DELETE', `/cohorts/${segment(name)}`, undefined, headers),
    /** Adds (POST), replaces (PUT) or removes (DELETE) members: JSON ids, or CSV text. */
    members: (method: 'POST' | 'PUT' | 'DELETE', name: string, upload: MemberUpload, headers?: AdminHeaders): Answer<Data<MemberChange>> =>
      this.send(method, `/cohorts/${segment(name)}/members`, upload, {
        'content-type': typeof upload === 'string' ? 'text/csv' : 'application/json',
        ...headers,
      }),
    member: (name: string, userId: number | string, headers?: AdminHeaders): Answer<Data<MembershipDto>> =>
      this.send('GET', `/cohorts/${segment(name)}/members/${segment(userId)}`, undefined, headers),
  };

  readonly audit = {
    search: (query: Query<AuditQueryDto> = {}, headers?: AdminHeaders): Answer<Data<AuditPage>> =>
      this.send('GET', `/audit${queryText(query)}`, undefined, headers),
  };

  readonly insights = {
    ofCta: (id: number | string, query: Query<InsightsQueryDto> = {}, headers?: AdminHeaders): Answer<Data<CtaInsights>> =>
      this.send('GET', `/ctas/${segment(id)}/insights${queryText(query)}`, undefined, headers),
    experiment: (id: number | string, headers?: AdminHeaders): Answer<Data<ExperimentReport>> =>
      this.send('GET', `/ctas/${segment(id)}/experiment`, undefined, headers),
    overview: (query: Query<InsightsQueryDto> = {}, headers?: AdminHeaders): Answer<Data<InsightsOverview>> =>
      this.send('GET', `/insights${queryText(query)}`, undefined, headers),
  };

  readonly exposurePolicy = {
    get: (headers?: AdminHeaders): Answer<Data<ExposurePolicy>> => this.send('GET', '/exposure-policy', undefined, headers),
    /** Any body: the route names what is wrong with it. */
    put: (body: ExposurePolicy | Record<string, unknown>, headers?: AdminHeaders): Answer<Data<ExposurePolicy>> =>
      this.send('PUT', '/exposure-policy', body, headers),
  };

  readonly appUsers = {
    export: (userId: number | string, headers?: AdminHeaders): Answer<Data<AppUserData>> =>
      this.send('GET', `/app-users/${segment(userId)}`, undefined, headers),
    erase: (userId: number | string, headers?: AdminHeaders): Answer<Data<ErasedCounts>> =>
      this.send('DELETE', `/app-users/${segment(userId)}`, undefined, headers),
  };

  readonly previews = {
    write: (body: WriteNudgePreviewDto, headers?: AdminHeaders): Answer<Data<null>> => this.send('POST', '/nudge/preview', body, headers),
  };

  /** Creates a draft CTA from `ctaBody(fields)` and answers its id. */
  async create(fields: Partial<CtaCreateBody> & Record<string, unknown> = {}): Promise<number> {
    const res = await this.ctas.create(ctaBody(fields));
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

  async get(id: number | string): Promise<CtaRecord> {
    const res = await this.ctas.get(id);
    expectOk(res, `get ${id}`);
    return res.body.data;
  }

  /** PUT with the create body's fields (minus name) overridden by `fields`. */
  update(id: number | string, fields: Record<string, unknown> = {}, headers?: AdminHeaders): Answer<Empty> {
    const { name: _name, ...body } = ctaBody(fields);
    return this.ctas.update(id, body, headers);
  }

  /** The same, failing the test unless it is accepted. */
  async edit(id: number | string, fields: Record<string, unknown>): Promise<void> {
    expectOk(await this.update(id, fields), `update ${id}`);
  }

  /** A status change without the (optional) user header: its audit entry names no user. */
  status(id: number | string, action: string): Answer<Empty> {
    return this.ctas.status(id, action, { user: undefined });
  }

  /** Approves the CTA's current content as this client's key. */
  approve(id: number | string): Answer<Empty> {
    return this.ctas.approve(id);
  }

  /** Applies each status change in turn, failing the test at the first refused. */
  async move(id: number | string, ...actions: StatusAction[]): Promise<void> {
    for (const action of actions) {
      expectOk(await this.status(id, action), `${action} ${id}`);
    }
  }

  /** The CTA list; `query` as text (`?status=live`) or typed. */
  list(query: Query<ListCtasQueryDto> = ''): Answer<Data<CtaPage>> {
    return this.ctas.list(query, { user: undefined });
  }

  /** The example tag (any one of its CTAs shows, the rest hide) named `name`, linking `linkedCtas`. */
  async tag(name: string, linkedCtas: string[]): Promise<void> {
    expectOk(await this.tags.create(tagBody(name, linkedCtas)), 'create tag');
  }

  async updateTag(name: string, linkedCtas: string[]): Promise<void> {
    expectOk(await this.tags.update(name, tagUpdateBody(linkedCtas)), 'update tag');
  }

  async testCta(userIds: number[], expiresInMinutes: number, rule: Record<string, unknown> = {}): Promise<string> {
    const response = await this.testCtas.create({ userIds, expiresInMinutes, rule: { ...examples.rule(), ...rule } });
    expectOk(response, 'create test CTA');
    return String(response.body.data);
  }
}

/** A suite's app on `database`, its clock just after the examples, and one CTA of the tenant `tenantId` made by `catalogue.cta()`. */
export async function startWithCta(
  database: TestDatabase,
  tenantId: string,
): Promise<{ api: TestApp; catalogue: AdminClient; ctaId: string }> {
  const api = await TestApp.start(database);
  runClockAfterExamples(api);
  const catalogue = new AdminClient(api, tenantId);
  return { api, catalogue, ctaId: await catalogue.cta() };
}
