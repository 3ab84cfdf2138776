// The Limits form (renderer/features/limits/scales.ts): settings shown as drafts, read back strictly, checked by the shared schema.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../shared/settings.js';
import {
  buildPatch,
  changedPaths,
  defaultsDraft,
  draftFromSettings,
  errorsForFields,
  groupArgv,
  parseNumberText,
  validateDraft,
} from '../../../../renderer/features/limits/limits-form.js';
import { cpusScale, memoryScale, timeoutScale } from '../../../../renderer/features/limits/scales.js';

const base = DEFAULT_SETTINGS;
const draft = (patch: Partial<ReturnType<typeof draftFromSettings>> = {}) => ({ ...draftFromSettings(base), ...patch });

describe('limits form: drafts', () => {
  it('shows settings as text, the output cap in KiB and "all CPUs" as empty', () => {
    expect(draftFromSettings(base)).toMatchObject({ memory: '512m', pids: '128', cpus: '', timeoutSec: '30', maxTimeoutSec: '120', outputCapKiB: '1024', poolSize: '2', concurrency: '4', queueLimit: '64', outputMode: 'compact' });
  });

  it('reads numbers strictly', () => {
    expect(parseNumberText(' 42 ')).toBe(42);
    expect(parseNumberText('1.5')).toBe(1.5);
    expect(parseNumberText('')).toBeNaN();
    expect(parseNumberText('12abc')).toBeNaN();
  });
});

describe('limits form: validation with the shared schema', () => {
  it('accepts the current settings as they are', () => {
    const v = validateDraft(draft(), base);
    expect(v.errors).toEqual({});
    expect(v.settings).toEqual(base);
  });

  it("reports the schema's own messages on the fields that caused them", () => {
    const v = validateDraft(draft({ memory: '12x', pids: '8', cpus: '0' }), base);
    expect(v.settings).toBeNull();
    expect(v.errors.memory).toBe('must be a size such as 512m or 1g');
    expect(v.errors.pids).toBe('must be at least 16');
    expect(v.errors.cpus).toBe('must be at least 0.1');
  });

  it('says "must be a number" for text in a number box, and keeps settings-level messages', () => {
    const v = validateDraft(draft({ pids: 'lots', poolSize: '40', concurrency: '2.5', queueLimit: '-1' }), base);
    expect(v.errors.queueLimit).toBe('must be at least 0');
    expect(v.errors.pids).toBe('must be a number');
    expect(v.errors.poolSize).toBe('must be at most 16');
    expect(v.errors.concurrency).toBe('must be a whole number');
  });

  it('catches a default timeout above the maximum (a rule across two fields)', () => {
    const v = validateDraft(draft({ timeoutSec: '300', maxTimeoutSec: '120' }), base);
    expect(v.errors.timeoutSec).toBe('the default timeout cannot exceed the maximum timeout');
  });

  it('speaks of the output cap in the unit the box shows', () => {
    const v = validateDraft(draft({ outputCapKiB: '0.5' }), base);
    expect(v.errors.outputCapKiB).toMatch(/at least 1 KiB/);
  });

  it('treats an empty CPU box as "all CPUs" (null)', () => {
    expect(validateDraft(draft({ cpus: '' }), base).settings?.limits.cpus).toBeNull();
    expect(validateDraft(draft({ cpus: '1.5' }), base).settings?.limits.cpus).toBe(1.5);
  });

  it("maps the server's dotted field errors to form fields and keeps the rest apart", () => {
    const { byField, other } = errorsForFields({ 'limits.memory': 'too big for this host', image: 'not found', httpPort: 'in use' });
    expect(byField).toEqual({ memory: 'too big for this host', image: 'not found' });
    expect(other).toEqual(['httpPort: in use']);
  });
});

describe('limits form: patch of only what changed', () => {
  it('sends nested changed fields only', () => {
    const next = validateDraft(draft({ memory: '1G', poolSize: '3' }), base).settings!;
    expect(changedPaths(base, next)).toEqual(['limits.memory', 'poolSize']);
    expect(buildPatch(base, next)).toEqual({ limits: { memory: '1g' }, poolSize: 3 });
  });

  it('edits the pool\'s growth bound: empty is the default (null), below the pool size is refused on that field', () => {
    expect(draftFromSettings(base).poolMax).toBe('');
    expect(validateDraft(draft({ poolSize: '6', poolMax: '4' }), base).errors.poolMax).toBe('must be at least poolSize (6): the pool never keeps fewer than poolSize ready');
    const next = validateDraft(draft({ poolMax: '12' }), base).settings!;
    expect(buildPatch(base, next)).toEqual({ poolMax: 12 });
    const back = validateDraft(draft({ poolMax: ' ' }), next).settings!;
    expect(buildPatch(next, back)).toEqual({ poolMax: null });
  });

  it('edits the package cache in MB with the schema\'s bounds', () => {
    expect(validateDraft(draft({ packageCacheMB: '10' }), base).errors.packageCacheMB).toBe('must be at least 64 MB');
    const next = validateDraft(draft({ packageCacheMB: '4096' }), base).settings!;
    expect(buildPatch(base, next)).toEqual({ packageCacheMB: 4096 });
  });

  it('sends nothing when nothing changed, and never a locked field', () => {
    expect(buildPatch(base, base)).toEqual({});
    const next = validateDraft(draft({ image: 'python:3.12', pids: '256' }), base).settings!;
    expect(buildPatch(base, next, new Set(['image']))).toEqual({ limits: { pids: 256 } });
  });

  it('sends null for "all CPUs"', () => {
    const withCpus = { ...base, limits: { ...base.limits, cpus: 2 } };
    const next = validateDraft(draft({ cpus: '' }), withCpus).settings!;
    expect(buildPatch(withCpus, next)).toEqual({ limits: { cpus: null } });
  });

  it('resets to defaults except where env or a flag holds the value', () => {
    const settings = { ...base, image: 'custom:1', limits: { ...base.limits, memory: '2g', pids: 512 } };
    const d = defaultsDraft({ settings, defaults: base, locked: [{ path: 'limits.memory', source: 'MCP_BRIDGE_MEMORY' }], file: 'f' });
    expect(d.memory).toBe('2g');
    expect(d.pids).toBe('128');
    expect(d.image).toBe(base.image);
  });
});

describe('limits form: sliders and flags', () => {
  it('places typed sizes on the nearest step and writes steps back as sizes', () => {
    expect(memoryScale.fromPosition(memoryScale.toPosition('512m')!)).toBe('512m');
    expect(memoryScale.fromPosition(memoryScale.toPosition('1g')!)).toBe('1g');
    expect(memoryScale.fromPosition(memoryScale.toPosition('1000m')!)).toBe('1g');
    expect(memoryScale.toPosition('nonsense')).toBeNull();
  });

  it('puts "all CPUs" at the start of the CPU slider', () => {
    expect(cpusScale.toPosition('')).toBe(0);
    expect(cpusScale.fromPosition(0)).toBe('');
    expect(cpusScale.fromPosition(cpusScale.toPosition('2')!)).toBe('2');
    expect(timeoutScale.describe?.(timeoutScale.toPosition('30')!)).toBe('30 seconds');
  });

  it('groups argv into one flag with its values per line', () => {
    expect(groupArgv(['podman', 'run', '--rm', '--memory', '512m', '--tmpfs', '/tmp:size=64m', 'python:3'])).toEqual([
      'podman run',
      '--rm',
      '--memory 512m',
      '--tmpfs /tmp:size=64m python:3',
    ]);
  });
});

describe('limits form: egress per run', () => {
  it('edits the byte budget in MiB and the connection count, checked by the schema, patched as bytes', () => {
    expect(draft()).toMatchObject({ egressMaxConnections: '256', egressMaxMiB: '256' });
    const ok = validateDraft(draft({ egressMaxMiB: '1.5', egressMaxConnections: '64' }), base);
    expect(ok.settings).toMatchObject({ egressMaxBytes: 1.5 * 1024 * 1024, egressMaxConnections: 64 });
    expect(buildPatch(base, ok.settings!)).toEqual({ egressMaxBytes: 1572864, egressMaxConnections: 64 });
    const bad = validateDraft(draft({ egressMaxMiB: '0.5', egressMaxConnections: 'many' }), base);
    expect(bad.errors).toEqual({ egressMaxMiB: 'must be at least 1048576 bytes (1 MiB)', egressMaxConnections: 'must be a whole number' });
  });
});
