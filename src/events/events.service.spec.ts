import { DataSource } from 'typeorm';
import { AuditLog } from '../audit/audit-log.service';
import type { ChangeOrigin } from '../audit/audit.types';
import { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { TransactionRunner } from '../database/transaction-runner';
import { resolveSettings } from '../orchestration-options';
import { dataSourceOptions } from '../orchestration-schema';
import type { PeriodicJobsService } from '../scheduling/periodic-jobs.service';
import { EventCtas } from './event-ctas';
import { EventsService } from './events.service';

const NOW = 1_800_000_000_000;
const origin: ChangeOrigin = { actor: 'ops-key', user: 'alice@example.com', requestId: 'req-1' };

class FixedClock extends Clock {
  override now(): number {
    return NOW;
  }
}

/** The CTAs in play that react to each event name (the ctas feature answers this in the app). */
class StubEventCtas extends EventCtas {
  readonly running = new Map<string, number[]>();
  async reactingTo(_manager: unknown, _tenantId: string, eventName: string): Promise<number[]> {
    return this.running.get(eventName) ?? [];
  }
}

const property = (propertyName: string, isMandatory = true) => ({ propertyName, type: 'String', isMandatory });

describe('EventsService', () => {
  let dataSource: DataSource;
  let ctas: StubEventCtas;
  let events: EventsService;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions('sqlite::memory:')).initialize();
  });
  afterAll(() => dataSource.destroy());

  beforeEach(async () => {
    await dataSource.query('DELETE FROM event_definitions');
    await dataSource.query('DELETE FROM audit_entries');
    const clock = new FixedClock();
    const transactions = new TransactionRunner(dataSource);
    const audit = new AuditLog(dataSource, resolveSettings({}), transactions, clock, {} as PeriodicJobsService);
    ctas = new StubEventCtas();
    events = new EventsService(dataSource, transactions, clock, audit, ctas);
  });

  /** The audit entries written, oldest first. */
  const auditEntries = async () => {
    const rows = (await dataSource.query(
      'SELECT entity_type, entity_id, action, record_before, record_after, user_name, at FROM audit_entries ORDER BY id',
    )) as Record<string, string>[];
    return rows.map((row) => ({
      entity: `${row.entity_type}:${row.entity_id}`,
      action: row.action,
      before: JSON.parse(row.record_before),
      after: JSON.parse(row.record_after),
      user: row.user_name,
      at: Number(row.at),
    }));
  };

  it('upserts events, answers how many, and lists them by name with absent optional fields as null', async () => {
    await expect(
      events.upsert('t1', 'app', [{ eventName: 'b_event' }, { eventName: 'a_event', properties: [property('screen')] }], origin),
    ).resolves.toBe(2);
    await events.upsert('t2', 'app', [{ eventName: 'other' }], origin);
    expect(await events.list('t1')).toEqual([
      {
        eventName: 'a_event',
        properties: [{ propertyName: 'screen', type: 'String', isMandatory: true, expectedValue: null, description: null }],
      },
      { eventName: 'b_event', properties: [] },
    ]);
    expect(await events.names('t1')).toEqual(['a_event', 'b_event']);
  });

  it('audits a create with nothing before, and a second upsert as an update replacing the properties whole', async () => {
    await events.upsert('t1', 'app', [{ eventName: 'open', properties: [property('screen')] }], origin);
    await events.upsert('t1', 'admin', [{ eventName: 'open', properties: [property('tab', false)] }], origin);
    const stored = { propertyName: 'tab', type: 'String', isMandatory: false, expectedValue: null, description: null };
    expect(await events.get('t1', 'open')).toEqual({ eventName: 'open', properties: [stored] });
    const entries = await auditEntries();
    expect(entries.map(({ entity, action, user, at }) => ({ entity, action, user, at }))).toEqual([
      { entity: 'event:open', action: 'create', user: 'alice@example.com', at: NOW },
      { entity: 'event:open', action: 'update', user: 'alice@example.com', at: NOW },
    ]);
    expect(entries[0].before).toBeNull();
    expect(entries[1].before.properties[0].propertyName).toBe('screen');
    expect(entries[1].after).toEqual({ eventName: 'open', properties: [stored] });
  });

  it('writes nothing of a body that names an event twice (INVALID_REQUEST)', async () => {
    await expect(events.upsert('t1', 'app', [{ eventName: 'x' }, { eventName: 'y' }, { eventName: 'x' }], origin)).rejects.toMatchObject({
      code: ErrorCode.INVALID_REQUEST,
      message: "event 'x' appears more than once in events",
    });
    expect(await events.list('t1')).toEqual([]);
    expect(await auditEntries()).toEqual([]);
  });

  it("answers EVENT_NOT_FOUND for another tenant's or an unknown event, on read, property replace and delete", async () => {
    await events.upsert('t1', 'app', [{ eventName: 'open' }], origin);
    const notFound = { code: ErrorCode.EVENT_NOT_FOUND, message: "event 'open' does not exist" };
    await expect(events.get('t2', 'open')).rejects.toMatchObject(notFound);
    await expect(events.replaceProperties('t2', 'app', 'open', [property('a')], origin)).rejects.toMatchObject(notFound);
    await expect(events.delete('t2', 'open', origin)).rejects.toMatchObject(notFound);
    // Names are compared exactly.
    await expect(events.get('t1', 'Open')).rejects.toMatchObject({ code: ErrorCode.EVENT_NOT_FOUND });
  });

  it('replaces the properties of one event and audits the change; a repeated property name is INVALID_REQUEST', async () => {
    await events.upsert('t1', 'app', [{ eventName: 'open', properties: [property('screen')] }], origin);
    await events.replaceProperties('t1', 'admin', 'open', [property('tab'), property('slot', false)], origin);
    expect((await events.get('t1', 'open')).properties.map((p) => [p.propertyName, p.isMandatory])).toEqual([
      ['tab', true],
      ['slot', false],
    ]);
    await expect(events.replaceProperties('t1', 'admin', 'open', [property('a'), property('a')], origin)).rejects.toMatchObject({
      code: ErrorCode.INVALID_REQUEST,
      message: "event 'open' has the property 'a' more than once",
    });
    expect((await auditEntries()).map(({ action }) => action)).toEqual(['create', 'update']);
  });

  it('refuses to delete an event that CTAs in play react to (EVENT_IN_USE, naming them), and deletes it once none does', async () => {
    await events.upsert('t1', 'app', [{ eventName: 'open' }], origin);
    ctas.running.set('open', [3, 9]);
    await expect(events.delete('t1', 'open', origin)).rejects.toMatchObject({
      code: ErrorCode.EVENT_IN_USE,
      message: "event 'open' is used by the rules of live, scheduled or paused CTAs 3, 9; conclude, terminate or edit them first",
    });
    expect(await events.names('t1')).toEqual(['open']);
    ctas.running.clear();
    await events.delete('t1', 'open', origin);
    expect(await events.names('t1')).toEqual([]);
    const entries = await auditEntries();
    expect(entries.map(({ action }) => action)).toEqual(['create', 'delete']);
    expect(entries[1]).toMatchObject({ before: { eventName: 'open', properties: [] }, after: null });
  });
});
