import { createServer, connect, Server, Socket } from 'node:net';

interface Pair {
  client: Socket;
  upstream: Socket;
}

/**
 * A TCP proxy a test controls, between the app and its database. Two kinds of
 * outage: `cut()` drops every connection and refuses new ones (the server is
 * down: errors come at once), `stall()` keeps the connections open but moves no
 * byte either way, and accepts new ones without answering (a network partition:
 * nothing fails, everything waits). `restore()` ends either: after a stall, what
 * was held back flows again, as when a partition heals.
 */
export class TcpProxy {
  private server: Server | null = null;
  private stalled = false;
  private readonly pairs = new Set<Pair>();

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
    readonly port: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const proxy = new TcpProxy(targetHost, targetPort, port);
    await proxy.restore();
    return proxy;
  }

  async restore(): Promise<void> {
    if (this.stalled) {
      this.stalled = false;
      this.pairs.forEach((pair) => this.forward(pair));
    }
    if (this.server) {
      return;
    }
    const server = createServer((client) => {
      const pair = { client, upstream: connect(this.targetPort, this.targetHost) };
      this.pairs.add(pair);
      for (const socket of [pair.client, pair.upstream]) {
        socket.on('error', () => socket.destroy());
        socket.on('close', () => {
          pair.client.destroy();
          pair.upstream.destroy();
          this.pairs.delete(pair);
        });
      }
      if (!this.stalled) {
        this.forward(pair);
      }
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.pairs.forEach(({ client, upstream }) => {
      client.destroy();
      upstream.destroy();
    });
    if (server) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  stall(): void {
    this.stalled = true;
    this.pairs.forEach(({ client, upstream }) => {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    });
  }

  private forward({ client, upstream }: Pair): void {
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
