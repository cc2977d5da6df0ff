import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_CONTRACT_FILE, renderApiContract } from '../src/api-contract';
import { API_TAGS } from '../src/api-docs/api-tags';
import { KEY_SCHEMES } from '../src/security/key-schemes';
import { ErrorCode, HTTP_STATUS_OF } from '../src/common/error-code';
import { APP_USER_TOKEN_SCHEME } from '../src/security/key-schemes';
import { TestApp } from './harness';

type Json = Record<string, any>;

const committed = readFileSync(join(__dirname, '..', API_CONTRACT_FILE), 'utf8');
const document: Json = JSON.parse(committed);

const MODULE_PATH = /^\/(engine|cta)\//;
const SDK_STATE_HEADERS = ['x-tenant-id', 'auth-userid', 'api_version', 'app_version', 'package_name', 'hotpatch_version'];
const COMMON_ERRORS = ['401', '429', '500', '503'];
const BODY_ERRORS = ['413', '415'];
const ERROR_SCHEMA = { $ref: '#/components/schemas/ErrorEnvelopeDto' };

/** Every operation of the module's routes, named like `POST /engine/ctas`. */
const moduleOperations = (): [string, Json][] =>
  Object.entries(document.paths as Json)
    .filter(([path]) => MODULE_PATH.test(path))
    .flatMap(([path, operations]) =>
      Object.entries(operations as Json).map(([method, operation]): [string, Json] => [`${method.toUpperCase()} ${path}`, operation]),
    );

const hasExample = (media: Json): boolean =>
  media.example !== undefined || media.examples !== undefined || media.schema?.example !== undefined;

/** `CODE: …; OTHER_CODE: …` → the codes an error response names. */
const codesIn = (description: string): string[] => [...description.matchAll(/\b([A-Z][A-Z_]+[A-Z]):/g)].map((match) => match[1]);

describe('OpenAPI contract (openapi.json)', () => {
  it('is current: `npm run openapi` writes exactly the committed file', async () => {
    const current = await renderApiContract();
    if (current !== committed) {
      throw new Error('openapi.json is stale: run `npm run openapi` and commit the result');
    }
  });

  it('is the document the app serves at /docs-json', async () => {
    const api = await TestApp.start('sqlite');
    try {
      const served = await api.get('/docs-json');
      expect(served.status).toBe(200);
      expect(served.body).toEqual(document);
    } finally {
      await api.close();
    }
  });

  it('gives every module route a summary, its headers, a JSON body schema with examples, and a typed 200 with an example', () => {
    const operations = moduleOperations();
    expect(operations.length).toBeGreaterThanOrEqual(20);
    const problems: string[] = [];
    for (const [name, operation] of operations) {
      const headers = (operation.parameters ?? [])
        .filter((parameter: Json) => parameter.in === 'header')
        .map((parameter: Json) => parameter.name);
      const required = /state-machines/.test(name) ? SDK_STATE_HEADERS : ['x-tenant-id'];
      const missingHeaders = required.filter((header) => !headers.includes(header));
      if (!operation.summary) problems.push(`${name}: no summary`);
      if (missingHeaders.length > 0) problems.push(`${name}: headers ${missingHeaders.join(', ')} undocumented`);
      // Status changes, restores and approvals take no body.
      if (/^(POST|PUT) /.test(name) && !/\/(\{action\}|restore\/\{auditId\}|approve)$/.test(name)) {
        const body = operation.requestBody?.content?.['application/json'];
        if (!body?.schema) problems.push(`${name}: no request body schema`);
        else if (!hasExample(body)) problems.push(`${name}: no request body example`);
      }
      const ok = operation.responses['200']?.content?.['application/json'];
      const typed = ok?.schema && (ok.schema.type || ok.schema.$ref || ok.schema.allOf);
      if (!typed) problems.push(`${name}: 200 without a typed schema`);
      else if (!hasExample(ok)) problems.push(`${name}: 200 without an example`);
    }
    expect(problems).toEqual([]);
  });

  it('documents each error response as the error envelope naming its codes, with the status each code has', () => {
    const problems: string[] = [];
    for (const [name, operation] of moduleOperations()) {
      const bodyErrors = BODY_ERRORS.filter((status) => status !== '413' || !operation['x-oversized-body-ignored']);
      const expected = ['400', ...COMMON_ERRORS, ...(operation.requestBody ? bodyErrors : [])];
      const missing = expected.filter((status) => !operation.responses[status]);
      if (missing.length > 0) problems.push(`${name}: no ${missing.join(', ')} response`);
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        if (status === '200') continue;
        const codes = codesIn(response.description);
        if (codes.length === 0) problems.push(`${name} ${status}: names no error code`);
        for (const code of codes) {
          if (!(code in ErrorCode)) problems.push(`${name} ${status}: unknown code ${code}`);
          else if (String(HTTP_STATUS_OF[code as ErrorCode]) !== status)
            problems.push(`${name} ${status}: ${code} answers ${HTTP_STATUS_OF[code as ErrorCode]}`);
        }
        if (JSON.stringify(response.content?.['application/json']?.schema) !== JSON.stringify(ERROR_SCHEMA)) {
          problems.push(`${name} ${status}: not the error envelope`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('names every error code on some route (NOT_FOUND answers unknown routes only)', () => {
    const documented = new Set(
      moduleOperations().flatMap(([, operation]) =>
        Object.values(operation.responses as Json).flatMap((response) => codesIn(response.description)),
      ),
    );
    expect(Object.values(ErrorCode).filter((code) => code !== ErrorCode.NOT_FOUND && !documented.has(code))).toEqual([]);
  });

  it('gives every error response examples, each with a code the response names and its status', () => {
    const problems: string[] = [];
    for (const [name, operation] of moduleOperations()) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        if (status === '200') continue;
        const examples = Object.values((response.content?.['application/json']?.examples ?? {}) as Json);
        if (examples.length === 0) problems.push(`${name} ${status}: no example`);
        const named = codesIn(response.description);
        for (const example of examples) {
          const { code, message } = example.value?.error ?? {};
          if (!named.includes(code)) problems.push(`${name} ${status}: example code ${code} is not one the response names`);
          if (String(HTTP_STATUS_OF[code as ErrorCode]) !== status)
            problems.push(`${name} ${status}: example code ${code} answers ${HTTP_STATUS_OF[code as ErrorCode]}`);
          if (typeof message !== 'string' || message.length === 0) problems.push(`${name} ${status}: example without a message`);
        }
      }
      // Every code a response names has an example of its own.
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        const shown = Object.values((response.content?.['application/json']?.examples ?? {}) as Json).map(
          (example) => example.value?.error?.code,
        );
        const unshown = status === '200' ? [] : codesIn(response.description).filter((code) => !shown.includes(code));
        if (unshown.length > 0) problems.push(`${name} ${status}: no example of ${unshown.join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has a title, a five-step quick start, and the tags in working order, each described', () => {
    expect(document.info.title).toMatch(/admin console/);
    const steps = [...(document.info.description as string).matchAll(/^(\d)\. \*\*/gm)].map((match) => match[1]);
    expect(steps).toEqual(['1', '2', '3', '4', '5']);
    const order = API_TAGS.map((tag) => tag.name);
    expect(order).toEqual([
      'CTAs',
      'Behaviour tags',
      'CTA status',
      'Cohorts',
      'Exposure policy',
      'Event definitions',
      'Nudge previews',
      'SDK',
      'Insights',
      'Audit',
      'App users',
      'Support tools',
      'Operator view',
      'Operations',
    ]);
    const used = new Set(
      Object.values(document.paths as Json).flatMap((operations) =>
        Object.values(operations as Json).flatMap((operation) => operation.tags ?? []),
      ),
    );
    const listed = (document.tags as Json[]).map((tag) => tag.name);
    // Those with routes, in working order; no route outside them.
    expect(listed).toEqual(order.filter((name) => used.has(name)));
    expect([...used].filter((name) => !listed.includes(name))).toEqual([]);
    for (const tag of document.tags as Json[]) expect(tag.description).toEqual(expect.stringMatching(/\w{4,}.*\w{4,}/));
  });

  it('names and describes the key schemes; admin routes take an admin key, SDK routes an SDK key', () => {
    const schemes = document.components.securitySchemes as Json;
    expect(schemes['admin-key']).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description: expect.stringMatching(/^\*\*Admin key\*\*.*ADMIN_API_KEYS/),
    });
    expect(schemes['admin-key-bearer']).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      description: expect.stringContaining('Admin key as a bearer token'),
    });
    expect(schemes['sdk-key']).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description: expect.stringMatching(/^\*\*SDK key\*\*.*SDK_API_KEYS/),
    });
    for (const [name, operation] of moduleOperations()) {
      const expected = (name.includes(' /engine/') ? KEY_SCHEMES.admin : KEY_SCHEMES.sdk).map((scheme) => ({ [scheme]: [] }));
      // Launch and delta take the app user's token beside the SDK key (issue 21).
      const withToken = /state-machines/.test(name) ? [{ ...expected[0], [APP_USER_TOKEN_SCHEME]: [] }] : expected;
      expect({ name, security: operation.security }).toEqual({ name, security: withToken });
    }
  });

  it("pre-fills no filter of the CTA list (Swagger UI would send it), describing each one's format instead", () => {
    const filters = (document.paths['/engine/ctas'].get.parameters as Json[]).filter(
      (parameter) => parameter.in === 'query' && !/^page/.test(parameter.name),
    );
    expect(filters.map((parameter) => parameter.name)).toEqual([
      'name',
      'searchName',
      'teams',
      'tags',
      'status',
      'behaviourTag',
      'createdBy',
    ]);
    for (const parameter of filters) {
      expect({ name: parameter.name, example: parameter.example ?? parameter.schema?.example, default: parameter.schema?.default }).toEqual(
        { name: parameter.name, example: undefined, default: undefined },
      );
      expect(parameter.description).toEqual(expect.any(String));
    }
    expect(filters.find((parameter) => parameter.name === 'teams')?.description).toContain('`growth,store`');
  });

  it('shows the SDK routes with api_version 1, what happens without it, and an auth-userid', () => {
    for (const [name, operation] of moduleOperations().filter(([name]) => /state-machines/.test(name))) {
      const header = (headerName: string): Json =>
        (operation.parameters as Json[]).find((parameter) => parameter.in === 'header' && parameter.name === headerName) as Json;
      expect({ name, example: header('api_version').schema.example }).toEqual({ name, example: '1' });
      expect(header('api_version').description).toContain('{"data":{"ctas":null,"behaviourTags":null}}');
      expect(header('auth-userid').schema.example).toMatch(/^\d+$/);
    }
  });
});
