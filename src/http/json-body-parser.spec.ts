import Fastify from 'fastify';
import { registerJsonBodyParser } from './json-body-parser';

describe('registerJsonBodyParser', () => {
  const app = Fastify();
  registerJsonBodyParser(app);
  app.post('/', async (request) => ({ body: request.body ?? null }));
  afterAll(() => app.close());

  const echo = async (payload: Buffer): Promise<unknown> =>
    (await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload })).json();

  it('reads ASCII and UTF-8 bodies as UTF-8 text', async () => {
    expect(await echo(Buffer.from('{"name":"store nudges"}'))).toEqual({ body: { name: 'store nudges' } });
    expect(await echo(Buffer.from('{"name":"Été ✓ ニュース 😀"}'))).toEqual({ body: { name: 'Été ✓ ニュース 😀' } });
  });

  it('reads bytes that are not UTF-8 as the replacement character, as UTF-8 decoding does', async () => {
    const payload = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff, 0xe9]), Buffer.from('b"}')]);
    expect(await echo(payload)).toEqual({ body: { name: 'a\ufffd\ufffdb' } });
  });
});

describe('a body that is not JSON', () => {
  const app = Fastify();
  registerJsonBodyParser(app);
  app.post('/', async () => ({}));
  afterAll(() => app.close());

  const refusal = async (payload: string): Promise<string> =>
    (await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload })).json().message;

  it.each([
    ['{\n  "name": "a",\n  "team": growth\n}', 'the body is not valid JSON: at line 3, column 11, an unexpected character'],
    ['{"name": "a",}', 'the body is not valid JSON: at line 1, column 14, a property name in double quotes expected (no trailing comma)'],
    ['{"events": [', "the body is not valid JSON: at line 1, column 13, ']' expected"],
    ['{"a": 1}\n{"b": 2}', 'the body is not valid JSON: at line 2, column 1, more text after the JSON value'],
    [
      '{"a": "two\nlines"}',
      'the body is not valid JSON: at line 1, column 7, an unterminated string (a line break inside a string must be written \\n)',
    ],
  ])('names the line and column of the first problem: %j', async (payload, message) => {
    expect(await refusal(payload)).toBe(message);
  });
});
