import { request as httpRequest } from 'node:http';

export interface SocketAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** When the answer came (monotonic ms). */
  at: number;
}

export interface OpenRequest {
  answer: Promise<SocketAnswer>;
  settled: () => boolean;
  /** Sends the rest of the body and ends the request. */
  finish: () => void;
  /** Cuts the connection. */
  abort: () => void;
}

/** Bodies are written in pieces of this size, as a device's HTTP client writes them. */
const PIECE_BYTES = 64 * 1024;

/**
 * A request over a real socket to 127.0.0.1:`port`, its body announced (`content-length`) or chunked,
 * sent but for its last byte until `finish()`: a test can hold a request open half sent, or cut it off.
 */
export function openRequest(
  port: number,
  options: { method?: string; path: string; headers: Record<string, string>; body: string; chunked?: boolean },
): OpenRequest {
  const bytes = Buffer.from(options.body);
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    method: options.method ?? 'POST',
    path: options.path,
    agent: false,
    headers: {
      'content-type': 'application/json',
      ...(options.chunked ? {} : { 'content-length': String(bytes.length) }),
      ...options.headers,
    },
  });
  let settled = false;
  const answer = new Promise<SocketAnswer>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => {
        settled = true;
        resolve({ status: response.statusCode!, headers: response.headers, body: text, at: performance.now() });
      });
    });
    request.on('error', (error) => {
      settled = true;
      reject(error);
    });
  });
  const allButLast = bytes.subarray(0, -1);
  for (let offset = 0; offset < allButLast.length; offset += PIECE_BYTES) request.write(allButLast.subarray(offset, offset + PIECE_BYTES));
  return {
    answer,
    settled: () => settled,
    finish: () => request.end(bytes.subarray(-1)),
    abort: () => {
      answer.catch(() => undefined);
      request.destroy();
    },
  };
}

/** A whole request over a real socket (see `openRequest`). */
export function sendRequest(port: number, options: Parameters<typeof openRequest>[1]): Promise<SocketAnswer> {
  const pending = openRequest(port, options);
  pending.finish();
  return pending.answer;
}
