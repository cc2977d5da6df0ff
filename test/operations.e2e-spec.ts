import { eachDatabase, errorBody, TestApp } from './harness';

eachDatabase('operations', (database) => {
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  it('answers liveness and readiness', async () => {
    expect(await api.get('/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await api.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
  });

  it('answers an unknown route with the NOT_FOUND envelope', async () => {
    const response = await api.get('/engine/no-such-thing');
    expect(response.status).toBe(404);
    expect(response.body).toEqual(errorBody('NOT_FOUND', 'no such route'));
  });

  it('serves the Swagger UI and the OpenAPI document', async () => {
    const ui = await api.get('/docs');
    expect(ui.status).toBe(200);
    expect(String(ui.body)).toContain('swagger');
    const document = await api.get('/docs-json');
    expect(document.status).toBe(200);
    expect(document.body.openapi).toMatch(/^3\./);
    expect(Object.keys(document.body.paths)).toEqual(expect.arrayContaining(['/health', '/health/ready']));
  });

  it('returns the caller request id, or a new one', async () => {
    const given = await api.get('/health', { 'x-request-id': 'abc-123' });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const generated = await api.get('/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends the security headers on every response', async () => {
    const response = await api.get('/health');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('exposes Prometheus metrics with request counts by route and status', async () => {
    await api.get('/health');
    await api.get('/engine/no-such-thing');
    const response = await api.get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    const text = String(response.body);
    expect(text).toMatch(/cta_http_request_duration_seconds_count\{method="GET",route="\/health",status="200"\} [1-9]/);
    expect(text).toMatch(/cta_http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} [1-9]/);
    expect(text).toContain('process_cpu_seconds_total');
  });
});
