import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_CONTRACT_FILE, renderApiContract } from '../src/api-contract';
import { ErrorCode, HTTP_STATUS_OF } from '../src/common/error-code';
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
    .flatMap(([path, operations]) => Object.entries(operations as Json).map(([method, operation]): [string, Json] => [`${method.toUpperCase()} ${path}`, operation]));

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
      const headers = (operation.parameters ?? []).filter((parameter: Json) => parameter.in === 'header').map((parameter: Json) => parameter.name);
      const required = /state-machines/.test(name) ? SDK_STATE_HEADERS : ['x-tenant-id'];
      const missingHeaders = required.filter((header) => !headers.includes(header));
      if (!operation.summary) problems.push(`${name}: no summary`);
      if (missingHeaders.length > 0) problems.push(`${name}: headers ${missingHeaders.join(', ')} undocumented`);
      // Status changes and restores take no body.
      if (/^(POST|PUT) /.test(name) && !/\/(\{action\}|restore\/\{auditId\})$/.test(name)) {
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
      const expected = ['400', ...COMMON_ERRORS, ...(operation.requestBody ? BODY_ERRORS : [])];
      const missing = expected.filter((status) => !operation.responses[status]);
      if (missing.length > 0) problems.push(`${name}: no ${missing.join(', ')} response`);
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        if (status === '200') continue;
        const codes = codesIn(response.description);
        if (codes.length === 0) problems.push(`${name} ${status}: names no error code`);
        for (const code of codes) {
          if (!(code in ErrorCode)) problems.push(`${name} ${status}: unknown code ${code}`);
          else if (String(HTTP_STATUS_OF[code as ErrorCode]) !== status) problems.push(`${name} ${status}: ${code} answers ${HTTP_STATUS_OF[code as ErrorCode]}`);
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
      moduleOperations().flatMap(([, operation]) => Object.values(operation.responses as Json).flatMap((response) => codesIn(response.description))),
    );
    expect(Object.values(ErrorCode).filter((code) => code !== ErrorCode.NOT_FOUND && !documented.has(code))).toEqual([]);
  });
});
