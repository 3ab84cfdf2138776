// The web panel's access token: it arrives once in the URL fragment (`#token=…`, never sent to a server by
// the browser), is kept for this tab in sessionStorage, and the fragment is removed from the address bar.

export const TOKEN_STORAGE_KEY = 'sandbar.token';

export interface TokenStore {
  get(): string | null;
  set(token: string): void;
  clear(): void;
}

/** sessionStorage when the browser allows it, else memory (private modes can throw on access). */
export function sessionTokenStore(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null): TokenStore {
  let memory: string | null = null;
  const attempt = <T>(fn: () => T, fallback: T): T => {
    try {
      return storage ? fn() : fallback;
    } catch {
      return fallback;
    }
  };
  return {
    get: () => attempt(() => storage!.getItem(TOKEN_STORAGE_KEY), null) ?? memory,
    set: (token) => {
      memory = token;
      attempt(() => storage!.setItem(TOKEN_STORAGE_KEY, token), undefined);
    },
    clear: () => {
      memory = null;
      attempt(() => storage!.removeItem(TOKEN_STORAGE_KEY), undefined);
    },
  };
}

/** `#token=abc` (or `#token=abc&…`) → `abc`; anything else → null. */
export function tokenFromFragment(hash: string): string | null {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!/(^|&)token=/.test(fragment)) return null;
  const token = new URLSearchParams(fragment).get('token')?.trim();
  return token ? token : null;
}

interface LocationLike {
  hash: string;
  pathname: string;
  search: string;
}

/**
 * Reads a token from the fragment, stores it and removes the fragment (the URL then holds no secret, and a
 * bookmark or a screenshot of the address bar leaks nothing). Returns the token found, or null.
 */
export function takeTokenFromFragment(location: LocationLike, history: Pick<History, 'replaceState'>, store: TokenStore): string | null {
  const token = tokenFromFragment(location.hash);
  if (!token) return null;
  store.set(token);
  history.replaceState(null, '', `${location.pathname}${location.search}`);
  return token;
}
