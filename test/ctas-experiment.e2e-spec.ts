import { AdminClient } from './admin-client';
import { auditSuite } from './audit';
import { examples } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';
import { SdkClient } from './sdk-client';

/** The `experiment` field of a CTA (docs/experiments.md): checks, defaults, edits, audit. */

const EXPERIMENT = { holdoutPercent: 10, goal: { state: '3' } };
const WITH_DEFAULTS = { ...EXPERIMENT, windowDays: 7, holdoutEvent: 'cta_holdout' };

eachDatabase('CTA experiments', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  it('is read back with its defaults, null when absent or null, and never sent to devices', async () => {
    const ctas = new AdminClient(api, 'experiment-read');
    const withOne = await ctas.create({ experiment: EXPERIMENT });
    const without = await ctas.create();
    const explicitNull = await ctas.create({ experiment: null });
    expect((await ctas.get(withOne)).experiment).toEqual(WITH_DEFAULTS);
    expect((await ctas.get(without)).experiment).toBeNull();
    expect((await ctas.get(explicitNull)).experiment).toBeNull();
    // A state sent as an integer, as transitionTo may be, is stored as its string.
    const full = await ctas.create({
      experiment: { holdoutPercent: 50, goal: { state: 2 }, windowDays: 30, holdoutEvent: 'held' } as never,
    });
    expect((await ctas.get(full)).experiment).toEqual({ holdoutPercent: 50, goal: { state: '2' }, windowDays: 30, holdoutEvent: 'held' });
    const listed = await ctas.list();
    expect(listed.body.data.ctas.find((cta) => cta.id === withOne)?.experiment).toEqual(WITH_DEFAULTS);
    await ctas.move(withOne, 'live');
    const launch = await new SdkClient(api, 'experiment-read', '5').launch();
    expect(launch.status).toBe(200);
    expect(launch.body.data.ctas).toHaveLength(1);
    expect(JSON.stringify(launch.body)).not.toMatch(/experiment|holdoutPercent/);
  });

  it('names each bad field', async () => {
    const ctas = new AdminClient(api, 'experiment-checks');
    const refused = async (experiment: unknown, ...parts: string[]): Promise<void> => {
      const res = await ctas.ctas.create({ ...ctasBody(), experiment } as never);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('INVALID_REQUEST'));
      for (const part of parts) expect(res.body.error.message).toContain(part);
    };
    await refused({ ...EXPERIMENT, holdoutPercent: 0 }, 'experiment.holdoutPercent: must be an integer from 1 to 50, not 0');
    await refused({ ...EXPERIMENT, holdoutPercent: 51 }, 'experiment.holdoutPercent');
    await refused({ ...EXPERIMENT, holdoutPercent: 10.5 }, 'experiment.holdoutPercent');
    await refused({ goal: EXPERIMENT.goal }, 'experiment.holdoutPercent: must be an integer from 1 to 50, not nothing');
    await refused({ ...EXPERIMENT, goal: { state: '0' } }, 'experiment.goal.state: must not be "0"');
    await refused(
      { ...EXPERIMENT, goal: { state: '9' } },
      'experiment.goal.state: "9" is not a state of the rule (its states besides "0": "1", "2", "3")',
    );
    await refused({ ...EXPERIMENT, goal: '3' }, 'experiment.goal: must be an object');
    await refused({ ...EXPERIMENT, windowDays: 31 }, 'experiment.windowDays: must be an integer from 1 to 30');
    await refused({ ...EXPERIMENT, windowDays: 0 }, 'experiment.windowDays');
    await refused({ ...EXPERIMENT, holdoutEvent: '' }, 'experiment.holdoutEvent');
    await refused({ ...EXPERIMENT, extra: 1 }, 'experiment.extra: is not a field of an experiment');
    await refused(10, 'experiment: must be an object');
    // Every problem of the body in one answer, the DTO's too.
    await refused({ ...EXPERIMENT, holdoutPercent: 0, windowDays: 0 }, 'experiment.holdoutPercent', 'experiment.windowDays');
    const mixed = await ctas.ctas.create({ ...ctasBody(), team: 5, experiment: { holdoutPercent: 0, goal: { state: '3' } } } as never);
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.message).toMatch(/team.*experiment\.holdoutPercent/);
    // A test CTA has none: its body's fields are its own, others ignored; it is served as written.
    const testCta = await ctas.testCtas.create({
      userIds: [1],
      expiresInMinutes: 60,
      rule: examples.rule(),
      experiment: EXPERIMENT,
    } as never);
    expect(testCta.status).toBe(200);
    const served = (await new SdkClient(api, 'experiment-checks', '1').launch()).body.data.ctas;
    expect(served.map((cta) => cta.ctaId)).toEqual([String(testCta.body.data)]);
    expect(JSON.stringify(served)).not.toContain('NUDGE_ACTION');
    // The validate endpoint says the same without saving.
    const validated = await ctas.ctas.validate({ ...ctasBody(), experiment: { holdoutPercent: 10, goal: { state: '7' } } } as never);
    expect(validated.body.data.errors).toEqual([expect.objectContaining({ path: 'experiment.goal.state' })]);
  });

  it('may change while draft; once the CTA left draft it is fixed, other edits still taken', async () => {
    const ctas = new AdminClient(api, 'experiment-edits');
    const id = await ctas.create({ experiment: EXPERIMENT });
    await ctas.edit(id, { experiment: { ...EXPERIMENT, holdoutPercent: 20 } });
    expect((await ctas.get(id)).experiment).toEqual({ ...WITH_DEFAULTS, holdoutPercent: 20 });
    // Absent keeps it; null removes it, and a draft takes one again.
    await ctas.edit(id, {});
    expect((await ctas.get(id)).experiment).toEqual({ ...WITH_DEFAULTS, holdoutPercent: 20 });
    await ctas.edit(id, { experiment: null });
    expect((await ctas.get(id)).experiment).toBeNull();
    await ctas.edit(id, { experiment: EXPERIMENT });
    await ctas.move(id, 'live');
    for (const experiment of [{ ...EXPERIMENT, holdoutPercent: 20 }, null, { ...EXPERIMENT, windowDays: 8 }]) {
      const res = await ctas.update(id, { experiment });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(
          'CTA_STATUS_UPDATE_INVALID',
          expect.stringContaining(`experiment: CTA ${id} is live and has been served, so its experiment is fixed`),
        ),
      );
      expect(res.body.error.message).toContain('would mix two experiments');
    }
    // The same experiment (its defaults spelled out or not), or none sent, is not a change.
    await ctas.edit(id, { experiment: WITH_DEFAULTS, description: 'same experiment' });
    await ctas.edit(id, { description: 'left out' });
    await ctas.move(id, 'pause');
    const paused = await ctas.update(id, { experiment: null });
    expect(paused.body).toEqual(errorBody('CTA_STATUS_UPDATE_INVALID', expect.stringContaining('is paused and has been served')));
    expect((await ctas.get(id)).experiment).toEqual(WITH_DEFAULTS);
    // A CTA that never had one cannot take one once live either.
    const plain = await ctas.create();
    await ctas.move(plain, 'live');
    expect((await ctas.update(plain, { experiment: EXPERIMENT })).body).toEqual(errorBody('CTA_STATUS_UPDATE_INVALID'));
  });

  it('is audited like any field, and a restore brings back a draft one', async () => {
    const { entriesOf } = auditSuite(() => api);
    const ctas = new AdminClient(api, 'experiment-audit');
    const id = await ctas.create({ experiment: EXPERIMENT });
    await ctas.edit(id, { experiment: { ...EXPERIMENT, holdoutPercent: 30 } });
    const [update, create] = await entriesOf('experiment-audit');
    expect(create.after.experiment).toEqual(WITH_DEFAULTS);
    expect(update.changes).toContainEqual({ op: 'replace', path: '/experiment/holdoutPercent', value: 30 });
    expect((await ctas.ctas.restore(id, create.id)).status).toBe(200);
    expect((await ctas.get(id)).experiment).toEqual(WITH_DEFAULTS);
  });
});

const ctasBody = (): Record<string, unknown> => ({ name: `experiment-${Math.random()}`, tags: [], team: 'growth', rule: examples.rule() });
