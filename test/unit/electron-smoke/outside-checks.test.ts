// The desktop smoke test's judgements (test/electron/outside-checks.ts), fed what a good and a broken app
// would show: console messages, the CSP, the preload's surface, the window's URL, the process tree.
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, METHOD_NAMES } from '../../../shared/contract-names.js';
import { CONTENT_SECURITY_POLICY } from '../../../electron/shell/window-options.js';
import { consoleProblems, cspProblems, descendants, parseCsp, parsePs, preloadProblems, windowUrlProblems, type PreloadSurface } from '../../electron/outside-checks.js';

const META = CONTENT_SECURITY_POLICY.split('; ')
  .filter((d) => !d.startsWith('frame-ancestors'))
  .join('; ');

describe('consoleProblems', () => {
  it('passes logs, infos and ordinary warnings', () => {
    expect(consoleProblems([{ level: 'log', text: 'hello' }, { level: 'info', text: 'x' }, { level: 'warning', text: 'React DevTools' }])).toEqual([]);
  });

  it('fails on any error, from Playwright or from the main process, naming the source', () => {
    expect(consoleProblems([{ level: 'error', text: 'Refused to load the script', source: 'app://sandbar/index.html:1' }])).toEqual([
      'console error (app://sandbar/index.html:1): Refused to load the script',
    ]);
  });

  it("fails on Electron's security warnings even though they are printed as warnings", () => {
    expect(consoleProblems([{ level: 'warning', text: 'Electron Security Warning (Insecure Content-Security-Policy)' }])).toHaveLength(1);
  });
});

describe('cspProblems', () => {
  const good = { header: CONTENT_SECURITY_POLICY, meta: META, evalResult: 'refused' as const };

  it('passes the shell\'s own policy in the header and the meta (which cannot carry frame-ancestors)', () => {
    expect(cspProblems(good)).toEqual([]);
  });

  it('does not care about the order of directives or sources', () => {
    const reordered = CONTENT_SECURITY_POLICY.split('; ').reverse().join('; ').replace("'self' 'unsafe-inline'", "'unsafe-inline' 'self'");
    expect(cspProblems({ ...good, header: reordered })).toEqual([]);
  });

  it('fails without a header, with a weakened one, or with an extra directive', () => {
    expect(cspProblems({ ...good, header: null })).toEqual(['no Content-Security-Policy header on app://sandbar/index.html']);
    expect(cspProblems({ ...good, header: CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-eval'") })).toEqual([
      "header: script-src is ''self' 'unsafe-eval'', expected ''self''",
    ]);
    expect(cspProblems({ ...good, header: `${CONTENT_SECURITY_POLICY}; worker-src *` })).toEqual(['header: unexpected directive worker-src']);
    expect(cspProblems({ ...good, header: CONTENT_SECURITY_POLICY.replace("; object-src 'none'", '') })).toEqual(['header: missing object-src']);
  });

  it('fails when the meta is missing or the page could evaluate strings', () => {
    expect(cspProblems({ ...good, meta: null })).toEqual(['no Content-Security-Policy <meta> in the page']);
    expect(cspProblems({ ...good, evalResult: 'allowed' })).toEqual(['the page could turn a string into code: the policy is not in force']);
  });

  it('parses directives case-insensitively and skips empty parts', () => {
    expect(parseCsp("Default-Src 'self';; img-src data: 'self' ")).toEqual(new Map([['default-src', "'self'"], ['img-src', "'self' data:"]]));
  });
});

describe('preloadProblems', () => {
  const fns = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, 'function']));
  const good: PreloadSurface = {
    keys: ['methods', 'events'],
    methods: fns(METHOD_NAMES),
    events: fns(EVENT_NAMES),
    globals: { require: 'undefined', process: 'undefined', ipcRenderer: 'undefined' },
  };

  it('passes exactly the contract with no Node globals', () => {
    expect(preloadProblems(good)).toEqual([]);
  });

  it('fails on a missing, an extra or a non-function entry', () => {
    const { 'settings.update': _dropped, ...rest } = good.methods;
    expect(preloadProblems({ ...good, methods: rest })).toEqual(["methods: 'settings.update' is missing"]);
    expect(preloadProblems({ ...good, events: { ...good.events, on: 'function' } })).toEqual(["events: 'on' is not in the contract"]);
    expect(preloadProblems({ ...good, methods: { ...good.methods, 'health.get': 'object' } })).toEqual(["methods: 'health.get' is a object, not a function"]);
  });

  it('fails on another top-level key (an ipcRenderer or invoke passed through) and on Node in the page', () => {
    expect(preloadProblems({ ...good, keys: ['methods', 'events', 'invoke'] })).toEqual(['window.sandbar has keys [events, invoke, methods], expected [events, methods]']);
    expect(preloadProblems({ ...good, globals: { ...good.globals, require: 'function' } })).toEqual(["the page has a global 'require' (function)"]);
  });
});

describe('windowUrlProblems', () => {
  it('accepts any page of app://sandbar and nothing else', () => {
    expect(windowUrlProblems('app://sandbar/index.html#/live')).toEqual([]);
    expect(windowUrlProblems('app://sandbar/')).toEqual([]);
    expect(windowUrlProblems('file:///opt/Sandbar/index.html')).toHaveLength(1);
    expect(windowUrlProblems('app://evil/index.html')).toHaveLength(1);
    expect(windowUrlProblems('http://127.0.0.1:5173/')).toHaveLength(1);
    expect(windowUrlProblems('about:blank')).toHaveLength(1);
  });
});

describe('process tree', () => {
  const ps = `    1     0\n  100     1\n  101   100\n  102   101\n  103   100\n  200     1\n  garbage\n`;

  it('parses `ps -A -o pid= -o ppid=`', () => {
    expect(parsePs(ps)).toHaveLength(6);
  });

  it('finds every descendant, not the root, not its siblings', () => {
    expect(descendants(100, parsePs(ps)).sort()).toEqual([101, 102, 103]);
    expect(descendants(200, parsePs(ps))).toEqual([]);
  });

  it('survives a cycle in a racy table', () => {
    expect(descendants(1, [{ pid: 2, ppid: 1 }, { pid: 1, ppid: 2 }])).toEqual([2]);
  });
});
