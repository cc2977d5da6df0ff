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
