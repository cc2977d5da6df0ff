import { runClockAfterExamples } from './fixtures';
import { TestApp, type TestDatabase, type TestResponse } from './harness';

type Json = Record<string, any>;

/** The operator's header the admin examples are run with (Swagger UI has no example of it: the operator types it). */
export const CONSOLE_OPERATOR = { user: 'ops@example.com' };

/**
 * A console suite's app on `database` and the API document it serves. The examples' machines are created at
 * EXAMPLE_TIME with a 7-day TTL: the clock starts just after it.
 */
export async function startConsoleApp(database: TestDatabase): Promise<{ api: TestApp; document: Json }> {
  const api = await TestApp.start(database);
  runClockAfterExamples(api);
  return { api, document: (await api.get('/docs-json')).body };
}

const NEEDS = /\(example needs [^)]+\)/;
/** A need no earlier example can meet: a setting of the service (`APPROVALS_REQUIRED=true`). */
const NEEDS_SETTING = /\(example needs [A-Z][A-Z_]+=/;

/** One example as the console lists it: an operation, and the body example chosen in its list (if it has a body). */
export interface ConsoleExample {
  /** "POST /engine/ctas [first-purchase-reminder]". */
  label: string;
  method: string;
  path: string;
  operation: Json;
  bodyName?: string;
  body?: unknown;
  /** Its summary (the route's, or its body example's) says what must exist first. */
  needsSomething: boolean;
  /** What it needs is a setting the default service does not have: top to bottom it is refused for that. */
  needsSetting: boolean;
}

/**
 * Every example of the document in the order of the console's page: the tags in order, each listing its
 * operations in the document's order (an operation with two tags appears under both); an operation with
 * several body examples once per example, in their order.
 */
export function consoleExamples(document: Json): ConsoleExample[] {
  const examples: ConsoleExample[] = [];
  for (const tag of document.tags as Json[]) {
    for (const [path, operations] of Object.entries(document.paths as Json)) {
      for (const [method, operation] of Object.entries(operations as Json)) {
        if (!(operation.tags ?? []).includes(tag.name)) continue;
        const label = `${method.toUpperCase()} ${path}`;
        const routeNeeds = NEEDS.test(operation.summary ?? '');
        const bodies = Object.entries((operation.requestBody?.content?.['application/json']?.examples ?? {}) as Json);
        if (bodies.length === 0) {
          examples.push({
            label,
            method,
            path,
            operation,
            needsSomething: routeNeeds,
            needsSetting: NEEDS_SETTING.test(operation.summary),
          });
        }
        for (const [bodyName, example] of bodies) {
          examples.push({
            label: `${label} [${bodyName}]`,
            method,
            path,
            operation,
            bodyName,
            body: example.value,
            needsSomething: routeNeeds || NEEDS.test(example.summary ?? ''),
            needsSetting: NEEDS_SETTING.test(`${operation.summary} ${example.summary ?? ''}`),
          });
        }
      }
    }
  }
  return examples;
}

const exampleOf = (parameter: Json): unknown => parameter.example ?? parameter.schema?.example;

/** The request "Try it out" sends for an example: path and header parameters from their examples, the operator's header. */
export function runExample(api: TestApp, example: ConsoleExample): Promise<TestResponse> {
  const parameters = (example.operation.parameters ?? []) as Json[];
  const url = example.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(exampleOf(parameters.find((parameter) => parameter.in === 'path' && parameter.name === name) as Json))),
  );
  const headers: Record<string, string> = {};
  for (const parameter of parameters.filter((candidate) => candidate.in === 'header')) {
    if (parameter.name === 'user') Object.assign(headers, CONSOLE_OPERATOR);
    else if (exampleOf(parameter) !== undefined) headers[parameter.name] = String(exampleOf(parameter));
  }
  return api.request(example.method.toUpperCase(), url, { body: example.body, headers });
}

/**
 * What an answer to an example must be for the example to have worked: 200, and for the validate examples
 * the verdict their name announces. Null when it did; else what went wrong. (An example that needs a setting
 * the service runs without is to be refused, not run, by the caller: `needsSetting`.)
 */
export function exampleFailure(example: Pick<ConsoleExample, 'label' | 'path' | 'bodyName'>, status: number, body: unknown): string | null {
  if (status !== 200) return `${example.label}: ${status} ${JSON.stringify(body)}`;
  const verdict = (body as Json | undefined)?.data?.valid;
  if (example.path.endsWith('/validate') && verdict !== (example.bodyName === 'valid')) {
    return `${example.label}: valid ${verdict} ${JSON.stringify(body)}`;
  }
  return null;
}
