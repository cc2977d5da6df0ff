import { createServer, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64url, exportJWK, generateKeyPair, JWK, JWTPayload, KeyLike, SignJWT } from 'jose';

/** App-user tokens as an app's backend issues them, minted with jose for the tests. */

export const TOKEN_SECRET = 'the-apps-own-token-secret-of-32-bytes-or-more';
export const TOKEN_ISSUER = 'https://auth.example.com';
export const TOKEN_AUDIENCE = 'cta-sdk';

export interface TokenClaims {
  /** Default: the user claim `sub` of `userId`, issuer and audience as configured. */
  payload?: JWTPayload;
  /** Seconds from `now` to `exp`; default an hour; null for no `exp`. */
  expiresIn?: number | null;
}

/** A signed token for `now` (epoch ms, the app's clock). */
export async function mintToken(
  key: KeyLike | Uint8Array,
  header: { alg: string; kid?: string },
  now: number,
  { payload = {}, expiresIn = 3600 }: TokenClaims = {},
): Promise<string> {
  const seconds = Math.floor(now / 1000);
  const jwt = new SignJWT({ iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, ...payload }).setProtectedHeader(header).setIssuedAt(seconds);
  return (expiresIn === null ? jwt : jwt.setExpirationTime(seconds + expiresIn)).sign(key);
}

export const hs256Token = (userId: string, now: number, claims: TokenClaims = {}, secret = TOKEN_SECRET): Promise<string> =>
  mintToken(new TextEncoder().encode(secret), { alg: 'HS256' }, now, { ...claims, payload: { sub: userId, ...claims.payload } });

/** An unsigned token (`alg: none`) claiming `userId`. */
export function unsignedToken(userId: string, now: number): string {
  const part = (value: unknown) => base64url.encode(JSON.stringify(value));
  const seconds = Math.floor(now / 1000);
  return `${part({ alg: 'none' })}.${part({ sub: userId, iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, iat: seconds, exp: seconds + 3600 })}.`;
}

export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: KeyLike;
  publicJwk: JWK;
}

export async function signingKey(kid: string, alg: 'RS256' | 'ES256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export const keySetToken = (key: SigningKey, userId: string, now: number, claims: TokenClaims = {}): Promise<string> =>
  mintToken(key.privateKey, { alg: key.alg, kid: key.kid }, now, { ...claims, payload: { sub: userId, ...claims.payload } });

/** A JSON Web Key Set served over HTTP on a free local port, counting the fetches it answers. */
export class KeySetServer {
  requests = 0;
  /** Answer this status instead of the key set (an outage). */
  failWith: number | null = null;
  private keys: JWK[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<KeySetServer> {
    const keySet: KeySetServer = new KeySetServer(createServer((_request, response) => keySet.answer(response)));
    await new Promise<void>((resolve) => keySet.server.listen(0, '127.0.0.1', resolve));
    return keySet;
  }

  private answer(response: ServerResponse): void {
    this.requests++;
    if (this.failWith !== null) {
      response.writeHead(this.failWith).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: this.keys }));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`;
  }

  serve(...keys: SigningKey[]): void {
    this.keys = keys.map((key) => key.publicJwk);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
