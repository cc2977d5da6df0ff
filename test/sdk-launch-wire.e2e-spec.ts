import { connect, type AddressInfo, type Socket } from 'node:net';
import { AdminClient } from './admin-client';
import { examples, runClockAfterExamples, sdkHeaders } from './fixtures';
import { eachDatabase, TestApp } from './harness';

const LAUNCH = '/cta/active/state-machines/';

interface WireAnswer {
  statusLine: string;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * One connection kept alive, read as bytes: each answer is its head and exactly `content-length`
 * bytes after it, so a length that is off, or a part written twice or not at all, breaks the next one.
 */
class KeptAliveConnection {
  private buffered = Buffer.alloc(0);
  private waiting: (() => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.waiting?.();
    });
  }

  static open(port: number): Promise<KeptAliveConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new KeptAliveConnection(socket)));
      socket.once('error', reject);
    });
  }

  async post(path: string, headers: Record<string, string>): Promise<WireAnswer> {
    const lines = Object.entries({ host: 'localhost', 'content-length': '0', ...headers }).map(([name, value]) => `${name}: ${value}`);
    this.socket.write(`POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    const headEnd = await this.until(() => this.buffered.indexOf('\r\n\r\n'));
    const [statusLine, ...headerLines] = this.buffered.subarray(0, headEnd).toString('latin1').split('\r\n');
    const answerHeaders = Object.fromEntries(
      headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(answerHeaders['content-length']);
    await this.until(() => (this.buffered.length >= headEnd + 4 + length ? 0 : -1));
    const body = this.buffered.subarray(headEnd + 4, headEnd + 4 + length);
    this.buffered = this.buffered.subarray(headEnd + 4 + length);
    return { statusLine, headers: answerHeaders, body };
  }

  /** Nothing more came after the last answer. */
  leftover(): number {
    return this.buffered.length;
  }

  close(): void {
    this.socket.destroy();
  }

  private async until(found: () => number): Promise<number> {
    for (;;) {
      const at = found();
      if (at >= 0) return at;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}

/**
 * The launch answer is assembled from the catalogue's bytes around the user's own JSON, or is the
 * catalogue's whole answer as it is: over a real connection (the suites' injector has no socket), each
 * must be one well-framed response with the headers every answer carries, counted like any other.
 */
eachDatabase('SDK launch on the wire', (database) => {
  let api: TestApp;
  let port: number;

  beforeAll(async () => {
    api = await TestApp.start(database);
    runClockAfterExamples(api);
    await api.app.listen(0, '127.0.0.1');
    port = (api.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => api.close());

  const launchCount = async (): Promise<number> => {
    const text = (await api.get('/metrics')).body as string;
    const line = text
      .split('\n')
      .find(
        (entry) => entry.startsWith('cta_http_request_duration_seconds_count{') && entry.includes(`route="/cta/active/state-machines"`),
      );
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };

  it('sends answers with and without user state, and the one for old SDKs, framed by their exact length on one connection', async () => {
    const catalogue = new AdminClient(api, 'wire');
    const id = await catalogue.exampleCta();
    const withState = sdkHeaders(catalogue.tenantId, '42');
    expect((await api.post('/cta/state-machines/snapshot/delta/', examples.delta(id), withState)).status).toBe(200);
    const cases = [
      ['a user with state (the answer assembled)', withState],
      ['a user without state (the whole answer)', sdkHeaders(catalogue.tenantId, '43')],
      ['an SDK without api_version', sdkHeaders(catalogue.tenantId, '42', null)],
    ] as const;
    // The injector's answers, byte for byte: what each answer on the wire must be, no more and no less.
    const expected = await Promise.all(
      cases.map(async ([, headers]) => (await api.app.inject({ method: 'POST', url: LAUNCH, headers })).payload),
    );
    expect(JSON.parse(expected[0])).toEqual(examples.launch(id));
    const countedBefore = await launchCount();

    const connection = await KeptAliveConnection.open(port);
    try {
      for (const [index, [name, headers]] of cases.entries()) {
        const answer = await connection.post(LAUNCH, headers);
        expect({ name, statusLine: answer.statusLine }).toEqual({ name, statusLine: 'HTTP/1.1 200 OK' });
        expect(answer.headers).toMatchObject({
          'content-type': 'application/json; charset=utf-8',
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'SAMEORIGIN',
          connection: 'keep-alive',
        });
        expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect({ name, body: answer.body.toString('utf8') }).toEqual({ name, body: expected[index] });
      }
      expect(connection.leftover()).toBe(0);
    } finally {
      connection.close();
    }
    expect((await launchCount()) - countedBefore).toBe(cases.length);
  });
});
