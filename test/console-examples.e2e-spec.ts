import { consoleExamples, exampleFailure, runExample, type ConsoleExample } from './console-examples';
import { eachDatabase, TestApp } from './harness';

type Json = Record<string, any>;

/** Runs `examples` in order on `api`; answers what went wrong (nothing when every one worked). */
async function failuresOf(api: TestApp, examples: ConsoleExample[]): Promise<string[]> {
  const failures: string[] = [];
  for (const example of examples) {
    const response = await runExample(api, example);
    const failure = exampleFailure(example, response.status, response.body);
    if (failure !== null) failures.push(failure);
  }
  return failures;
}

eachDatabase('The admin console examples', (database) => {
  let document: Json;
  let examples: ConsoleExample[];

  beforeAll(async () => {
    const api = await TestApp.start(database);
    document = (await api.get('/docs-json')).body;
    await api.close();
    examples = consoleExamples(document);
  });

  it('run top to bottom as the page lists them on an empty database, every one answering 200', async () => {
    const api = await TestApp.start(database);
    try {
      // Those that need a setting the default service lacks (approvals) are left to the test of that setting.
      const runnable = examples.filter((example) => !example.needsSetting);
      expect(examples.filter((example) => example.needsSetting).map((example) => example.label)).toEqual([
        'POST /engine/ctas/{ctaId}/approve',
      ]);
      expect(await failuresOf(api, runnable)).toEqual([]);
      // The page's order is the flow: CTA 1 linked to its tag, live, served at launch (beside the example test CTA left for the user).
      const launch = examples.find((example) => example.label === 'POST /cta/active/state-machines [first launch]') as ConsoleExample;
      const served = (await runExample(api, launch)).body.data;
      expect(served.ctas.map((cta: Json) => [cta.ctaId, cta.behaviourTagName])).toContainEqual(['1', 'store-nudges']);
      expect((await api.get('/engine/ctas/1')).body.data).toMatchObject({ ctaStatus: 'live', behaviourTags: ['store-nudges'] });
    } finally {
      await api.close();
    }
  });

  it('that say nothing of what they need run on their own on an empty database, in reverse order', async () => {
    const api = await TestApp.start(database);
    try {
      const independent = examples.filter((example) => !example.needsSomething);
      // The creates, reads of lists, validate, previews and the SDK routes at least.
      expect(independent.length).toBeGreaterThanOrEqual(20);
      expect(await failuresOf(api, [...independent].reverse())).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('that need something say so, and do need it: alone on an empty database they are refused', async () => {
    const api = await TestApp.start(database);
    try {
      const dependent = examples.filter((example) => example.needsSomething);
      const worked: string[] = [];
      for (const example of dependent) {
        const response = await runExample(api, example);
        if (exampleFailure(example, response.status, response.body) === null) worked.push(example.label);
      }
      // Each of them fails without what it names: a needless "example needs" would hide an example that runs.
      expect(worked).toEqual([]);
      expect(dependent.map((example) => example.label)).toEqual(
        expect.arrayContaining([
          'GET /engine/ctas/{ctaId}',
          'POST /engine/behaviour-tags [store-nudges]',
          'PUT /engine/ctas/{ctaId}/{action}',
          'DELETE /engine/cohorts/{name}',
          'DELETE /engine/events/{eventName}',
        ]),
      );
    } finally {
      await api.close();
    }
  });
});
