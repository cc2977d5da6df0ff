import { useEffect } from 'preact/hooks';

/**
 * The admin API as the view calls it: same origin, under the admin prefix the page was loaded from
 * (`/engine/ui/` → `/engine/…`), the key from the sign-in box in `x-api-key`, the person's name in `user`.
 */

const KEY_ITEM = 'cta-operator-view:key';
const USER_ITEM = 'cta-operator-view:user';
const TENANT_ITEM = 'cta-operator-view:tenant';

/** `/engine` when the page is `/engine/ui/`. */
export const adminBase = location.pathname.replace(/\/ui(\/.*)?$/, '');

const keep = (item: string, value: string): void => (value === '' ? sessionStorage.removeItem(item) : sessionStorage.setItem(item, value));

/** The key, name and tenant of this tab's sign-in (sessionStorage: gone with the tab; the key is never shown again). */
export const session = {
  key: (): string | null => sessionStorage.getItem(KEY_ITEM),
  user: (): string | null => sessionStorage.getItem(USER_ITEM),
  tenant: (): string | null => sessionStorage.getItem(TENANT_ITEM),
  signIn(key: string, user: string, tenant: string): void {
    keep(KEY_ITEM, key);
    keep(USER_ITEM, user);
    keep(TENANT_ITEM, tenant);
  },
  /** The person's name, asked for by a write that must name one when the sign-in did not (an open admin API). */
  name(user: string): void {
    keep(USER_ITEM, user);
  },
  signOut(): void {
    [KEY_ITEM, USER_ITEM, TENANT_ITEM].forEach((item) => sessionStorage.removeItem(item));
  },
};

/** An error envelope `{"error": {"code", "message"}}`, or a failure to reach the service. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | undefined>;

function url(path: string, query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return `${adminBase}/${path}${text === '' ? '' : `?${text}`}`;
}

async function call(method: string, path: string, query?: Query): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const key = session.key();
  const user = session.user();
  if (key !== null) headers['x-api-key'] = key;
  const tenant = session.tenant();
  if (user !== null && method !== 'GET') headers.user = user;
  if (tenant !== null) headers['x-tenant-id'] = tenant;
  let response: Response;
  try {
    response = await fetch(url(path, query), { method, headers });
  } catch (error) {
    throw new ApiError(0, 'NETWORK', `the service did not answer: ${(error as Error).message}`);
  }
  const body = (await response.json().catch(() => null)) as { data?: unknown; error?: { code: string; message: string } } | null;
  if (!response.ok) {
    throw new ApiError(response.status, body?.error?.code ?? String(response.status), body?.error?.message ?? response.statusText);
  }
  return body?.data ?? body;
}

export const get = <T>(path: string, query?: Query): Promise<T> => call('GET', path, query) as Promise<T>;
export const post = <T>(path: string): Promise<T> => call('POST', path) as Promise<T>;
export const remove = <T>(path: string): Promise<T> => call('DELETE', path) as Promise<T>;

/**
 * Reads with `read` whenever `deps` change, and hands on its answer or its error — unless a newer read
 * started meanwhile: an older answer arriving last (the page's first read, answered after a filter
 * changed) would otherwise draw the older list over the newer one.
 */
export function useRead<T>(
  read: () => Promise<T>,
  deps: unknown[],
  answered: (answer: T) => void,
  failed: (error: ApiError) => void,
): void {
  useEffect(() => {
    let latest = true;
    read().then(
      (answer) => latest && answered(answer),
      (error: ApiError) => latest && failed(error),
    );
    return () => void (latest = false);
  }, deps);
}
