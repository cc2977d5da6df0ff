import fastifyCompress from '@fastify/compress';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** Which routes compress how. */
export interface CompressedRoutes {
  /** Routes that get no compression hook at all. */
  uncompressed: (url: string) => boolean;
  /**
   * Routes whose answers are compressed in one piece, whatever their size: their handlers (@nestjs/swagger's)
   * send from an async function without returning the reply, which Fastify then answers a second time,
   * empty, when the compressed answer is a stream still being written.
   */
  inOnePiece: (url: string) => boolean;
}

/**
 * Compresses the answers of clients that accept it (`Accept-Encoding`: br, gzip or deflate), from 1 KB up:
 * the console's page and assets, the document, admin lists. The `uncompressed` routes are the SDK's: launch
 * and delta are most of the traffic, and compressing them cost the launch throughput (docs/benchmarks.md).
 * Call it before the routes are registered (before `app.init()`).
 */
export async function registerCompression(app: NestFastifyApplication, routes: CompressedRoutes): Promise<void> {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      if (routes.uncompressed(route.url)) route.compress = false;
      else if (routes.inOnePiece(route.url)) route.compress = { syncThreshold: Number.POSITIVE_INFINITY };
    });
  // Clients of this API send no compressed bodies: no decompression hook on any route.
  await app.register(fastifyCompress, { globalDecompression: false });
}
