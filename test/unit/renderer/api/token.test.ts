// The panel's token from the URL fragment (renderer/api/token.ts): read once, kept for the tab, removed from the address bar.
import { describe, expect, it, vi } from 'vitest';
import { sessionTokenStore, takeTokenFromFragment, TOKEN_STORAGE_KEY, tokenFromFragment } from '../../../../renderer/api/token.js';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    map,
  };
}

describe('token from the URL fragment', () => {
  it('reads #token=… and nothing else', () => {
    expect(tokenFromFragment('#token=abc123')).toBe('abc123');
    expect(tokenFromFragment('#token=abc&x=1')).toBe('abc');
    expect(tokenFromFragment('#/history/abc')).toBeNull();
    expect(tokenFromFragment('#token=')).toBeNull();
    expect(tokenFromFragment('')).toBeNull();
  });

  it('stores the token for the tab and removes the fragment from the address bar', () => {
    const storage = memoryStorage();
    const store = sessionTokenStore(storage);
    const replaceState = vi.fn();
    const token = takeTokenFromFragment({ hash: '#token=s3cret', pathname: '/', search: '?x=1' }, { replaceState }, store);
    expect(token).toBe('s3cret');
    expect(storage.map.get(TOKEN_STORAGE_KEY)).toBe('s3cret');
    expect(replaceState).toHaveBeenCalledWith(null, '', '/?x=1');
  });

  it('leaves the URL alone when the fragment is a route', () => {
    const replaceState = vi.fn();
    expect(takeTokenFromFragment({ hash: '#/limits', pathname: '/', search: '' }, { replaceState }, sessionTokenStore(memoryStorage()))).toBeNull();
    expect(replaceState).not.toHaveBeenCalled();
  });

  it('falls back to memory when sessionStorage throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const store = sessionTokenStore(broken);
    store.set('t');
    expect(store.get()).toBe('t');
    store.clear();
    expect(store.get()).toBeNull();
  });
});
