// isTrustedSender: the main frame of the sending webContents, on the app origin; nothing else.
import { describe, expect, it } from 'vitest';
import { isTrustedSender } from '../../../electron/shell/sender-check.js';

const frame = (url: string, parent: unknown = null) => ({ url, parent });

describe('isTrustedSender', () => {
  it('trusts the main frame on app://sandbar', () => {
    const main = frame('app://sandbar/index.html');
    expect(isTrustedSender({ senderFrame: main, sender: { mainFrame: main } })).toBe(true);
  });

  it('refuses a null senderFrame', () => {
    expect(isTrustedSender({ senderFrame: null, sender: { mainFrame: frame('app://sandbar/') } })).toBe(false);
  });

  it('refuses a subframe on the app origin', () => {
    const main = frame('app://sandbar/index.html');
    const sub = frame('app://sandbar/inner.html', main);
    expect(isTrustedSender({ senderFrame: sub, sender: { mainFrame: main } })).toBe(false);
  });

  it('refuses a parentless frame that is not the sender\'s main frame', () => {
    expect(isTrustedSender({ senderFrame: frame('app://sandbar/'), sender: { mainFrame: frame('app://sandbar/') } })).toBe(false);
  });

  it.each(['https://evil.example/', 'file:///tmp/index.html', 'app://other/', 'http://127.0.0.1:7337/', ''])('refuses the main frame of %s', (url) => {
    const main = frame(url);
    expect(isTrustedSender({ senderFrame: main, sender: { mainFrame: main } })).toBe(false);
  });

  it('checks against another origin when asked', () => {
    const main = frame('app://test/index.html');
    expect(isTrustedSender({ senderFrame: main, sender: { mainFrame: main } }, 'app://test')).toBe(true);
  });
});
