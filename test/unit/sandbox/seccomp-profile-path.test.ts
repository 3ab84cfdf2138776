// The seccomp profile's path as handed to the runtime (sandbox/seccomp-profile.ts), from a checkout and a packaged app.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SANDBAR_SECCOMP_PROFILE, unpackedPath } from '../../../electron/sandbox/seccomp-profile.js';

describe('the seccomp profile path handed to the runtime', () => {
  it('points at the unpacked copy inside a packaged app, on POSIX and Windows paths', () => {
    expect(unpackedPath('/opt/Sandbar/resources/app.asar/dist/electron/sandbox/seccomp/sandbar-seccomp.json')).toBe(
      '/opt/Sandbar/resources/app.asar.unpacked/dist/electron/sandbox/seccomp/sandbar-seccomp.json',
    );
    expect(unpackedPath('C:\\Program Files\\Sandbar\\resources\\app.asar\\dist\\x.json')).toBe('C:\\Program Files\\Sandbar\\resources\\app.asar.unpacked\\dist\\x.json');
  });

  it('leaves other paths alone (a folder merely named like app.asar.d is not rewritten)', () => {
    expect(unpackedPath('/home/u/app.asar.d/x.json')).toBe('/home/u/app.asar.d/x.json');
    expect(unpackedPath('/work/main/electron/sandbox/seccomp/sandbar-seccomp.json')).toBe('/work/main/electron/sandbox/seccomp/sandbar-seccomp.json');
  });

  it('is a file that exists in a source checkout', () => {
    expect(existsSync(SANDBAR_SECCOMP_PROFILE)).toBe(true);
  });
});
