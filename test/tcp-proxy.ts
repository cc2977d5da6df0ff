import { createServer, connect, Server, Socket } from 'node:net';

/**
 * A TCP proxy a test controls, between the app and its database: `cut()`
 * drops every connection and refuses new ones (an outage), `restore()` lets
 * them through again.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

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
    if (this.server) {
      return;
    }
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.sockets.forEach((socket) => socket.destroy());
    if (server) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
}
