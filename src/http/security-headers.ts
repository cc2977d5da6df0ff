import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

/**
 * Helmet's defaults, widened just enough for the Swagger UI page at /docs (inline scripts and
 * styles), without `upgrade-insecure-requests`: over plain HTTP from any address but loopback
 * it would send the page's scripts and styles to https, where nothing answers (docs/decisions/0014-admin-console.md).
 */
const SWAGGER_UI_CSP = {
  directives: {
    upgradeInsecureRequests: null,
    defaultSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    scriptSrc: ["'self'", "'unsafe-inline'"],
  },
};

/**
 * Helmet's headers are the same on every response, so they are computed once at
 * start. (@fastify/helmet runs helmet's whole setup again on every request,
 * which cost the SDK launch about half of its throughput.)
 */
function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  // No Cross-Origin-Opener-Policy: browsers ignore it on plain HTTP from any address but loopback and
  // log an error on every page of the console there; the service's other answers are JSON, not pages.
  helmet({ contentSecurityPolicy: SWAGGER_UI_CSP, crossOriginOpenerPolicy: false })(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    () => undefined,
  );
  return headers;
}

const SECURITY_HEADERS = securityHeaders();

/** The headers every response carries: helmet's and the request id. */
export function withResponseHeaders(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.headers(SECURITY_HEADERS).header('x-request-id', request.id);
}
