import { CONSOLE_OPERATOR, consoleExamples, exampleFailure } from './console-examples';
import { authorize, describeInBrowser, execute, openConsole, startConsoleSession, tryOut, type ConsoleSession } from './console-browser';

const ADMIN_KEY = 'console-admin-key';
const SDK_KEY = 'console-sdk-key';
/** Some 50 examples, each a few clicks and a request, on a shared 2-core machine: this bounds a hang, it times nothing. */
const RUN_TIMEOUT_MS = 300_000;

const asJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

describeInBrowser('The admin console examples in Chromium', () => {
  let session: ConsoleSession;

  beforeAll(async () => {
    session = await startConsoleSession({ ADMIN_API_KEYS: ADMIN_KEY, SDK_API_KEYS: SDK_KEY });
  }, RUN_TIMEOUT_MS);
  afterAll(() => session?.close());

  it(
    'run top to bottom on an empty database with "Try it out" → "Execute", every example of every route answering 200',
    async () => {
      const { page } = session;
      await openConsole(session);
      await authorize(page, { 'admin-key': ADMIN_KEY, 'sdk-key': SDK_KEY });
      const examples = consoleExamples((await session.api.get('/docs-json')).body);
      // An example that needs a setting the service runs without here (approvals) is left to the test of that setting.
      const needingSettings = new Set(examples.filter((example) => example.needsSetting).map((example) => example.label));
      const failures: string[] = [];
      const run: string[] = [];
      // Every operation the page shows, top to bottom; each body example in its list, in order.
      for (const id of await page.locator('.opblock').evaluateAll((blocks) => blocks.map((block) => block.id))) {
        const operation = page.locator(`[id="${id}"]`);
        await tryOut(operation, CONSOLE_OPERATOR.user);
        const label = `${await operation.locator('.opblock-summary-method').innerText()} ${await operation.locator('.opblock-summary-path').getAttribute('data-path')}`;
        const path = label.split(' ')[1];
        const choices = operation.locator('.opblock-section-request-body select.examples-select-element');
        const bodyNames =
          (await choices.count()) > 0
            ? await choices.locator('option').evaluateAll((options) => options.map((option) => option.getAttribute('value') ?? ''))
            : [undefined];
        for (const bodyName of bodyNames) {
          if (needingSettings.has(bodyName === undefined ? label : `${label} [${bodyName}]`)) continue;
          if (bodyName !== undefined) await choices.selectOption(bodyName);
          const { status, body } = await execute(operation);
          const example = { label: bodyName === undefined ? label : `${label} [${bodyName}]`, path, bodyName };
          run.push(example.label);
          const failure = exampleFailure(example, Number(status), asJson(body));
          if (failure !== null) failures.push(failure);
        }
        // Folded again: the page stays as light as an operator's.
        await operation.locator('.opblock-summary').click();
      }
      expect(failures).toEqual([]);
      // Every example of the document ran, in the order test/console-examples.ts derives from it (and runs over HTTP).
      expect(run).toEqual(examples.filter((example) => !example.needsSetting).map((example) => example.label));
      expect(session.consoleErrors).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );
});
