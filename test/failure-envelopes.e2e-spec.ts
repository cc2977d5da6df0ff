import { EventsService } from '../src/events/events.service';
import { NudgePreviewService } from '../src/nudge-preview/nudge-preview.service';
import { eachDatabase, errorBody, TestApp, TestResponse } from './harness';

/**
 * Every kind of failure of docs/decisions/0001-wire-rules-and-errors.md answers `{"error": {"message", "code"}}` with its
 * status, the request id and the security headers — whether Fastify's router, its body
 * parser, the validation, a service or an unexpected exception refused the request.
 */
eachDatabase('failure envelopes', (database) => {
  const BODY_LIMIT_BYTES = 2048;
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start(database, { BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES) });
  });
  afterAll(() => api.close());
  afterEach(() => jest.restoreAllMocks());

  const expectEnvelope = (response: TestResponse, status: number, code: string, message: unknown = expect.any(String)): void => {
    expect(response.status).toBe(status);
    expect(response.body).toEqual(errorBody(code, message));
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  };

  it.each([
    ['an unknown admin route', 'GET', '/engine/no-such-thing'],
    ['an unknown SDK route', 'GET', '/cta/no-such-thing'],
    ['a path outside both prefixes', 'GET', '/nowhere'],
    ['a method the path does not serve', 'PATCH', '/engine/events'],
    ['the admin preview write under the SDK prefix', 'POST', '/cta/nudge/preview'],
    ['the SDK preview read under the admin prefix', 'GET', '/engine/nudge/preview/banner'],
  ])('answers %s with 404 NOT_FOUND', async (_case, method, url) => {
    expectEnvelope(await api.request(method, url, { body: method === 'GET' ? undefined : {} }), 404, 'NOT_FOUND', 'no such route');
  });

  it.each([
    ['an admin write', '/engine/events', {}],
    ['an SDK call', '/cta/active/state-machines', { 'auth-userid': '7', api_version: '1' }],
  ])('answers malformed JSON in %s with 400 INVALID_REQUEST', async (_case, url, headers) => {
    expectEnvelope(await api.post(url, '{"events": [', headers), 400, 'INVALID_REQUEST', expect.stringContaining('not valid JSON'));
  });

  it.each([
    ['text/plain', 'hello'],
    ['application/x-www-form-urlencoded', 'eventName=x'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('answers a %s body with 415 UNSUPPORTED_MEDIA_TYPE', async (contentType, body) => {
    const response = await api.request('POST', '/engine/events', { body, headers: { 'content-type': contentType } });
    expectEnvelope(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers a body without a content type with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const response = await api.app.inject({ method: 'POST', url: '/engine/nudge/preview', payload: '{"id": "p", "template": "t"}' });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual(errorBody('UNSUPPORTED_MEDIA_TYPE'));
  });

  it('answers a body over BODY_LIMIT_BYTES with 413 PAYLOAD_TOO_LARGE, writing nothing', async () => {
    const headers = { 'x-tenant-id': 'oversize' };
    const response = await api.post('/engine/nudge/preview', { id: 'big', template: 'x'.repeat(BODY_LIMIT_BYTES) }, headers);
    expectEnvelope(response, 413, 'PAYLOAD_TOO_LARGE', expect.stringContaining('too large'));
    expect(await api.get('/cta/nudge/preview/big', headers)).toMatchObject({ status: 200, body: { data: null } });
  });

  it('answers a URL with a broken percent-encoding with 400 INVALID_REQUEST', async () => {
    expectEnvelope(await api.get('/engine/events/%E0%A4%A'), 400, 'INVALID_REQUEST', 'the URL has a malformed percent-encoding');
    expectEnvelope(await api.get('/cta/nudge/preview/%zz'), 400, 'INVALID_REQUEST', 'the URL has a malformed percent-encoding');
  });

  it('answers an absurdly long path parameter with 400 INVALID_REQUEST', async () => {
    expectEnvelope(
      await api.get(`/engine/events/${'x'.repeat(5000)}`),
      400,
      'INVALID_REQUEST',
      'a path parameter is longer than 4096 characters',
    );
  });

  it('answers an unexpected failure with 500 INTERNAL_ERROR and no detail of it', async () => {
    jest.spyOn(api.service(EventsService), 'list').mockRejectedValueOnce(new Error("SELECT secret FROM credentials WHERE user = 'root'"));
    const response = await api.get('/engine/events');
    expectEnvelope(response, 500, 'INTERNAL_ERROR', 'internal error');
    expect(JSON.stringify(response.body)).not.toMatch(/secret|credentials|SELECT|at .*\.ts/);
    // The next request is served as usual.
    expect((await api.get('/engine/events')).status).toBe(200);
  });

  it('answers a thrown non-Error on an SDK route with 500 INTERNAL_ERROR too', async () => {
    jest.spyOn(api.service(NudgePreviewService), 'read').mockImplementationOnce(() => {
      throw 'a bare string';
    });
    const response = await api.get('/cta/nudge/preview/banner');
    expectEnvelope(response, 500, 'INTERNAL_ERROR', 'internal error');
    expect(JSON.stringify(response.body)).not.toContain('bare string');
  });
});
