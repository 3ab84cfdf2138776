// Each frame kind's per-run budget: derived from the artifact caps, with room to spare over what the agent sends.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ARTIFACT_CAPS } from '../../../../electron/sandbox/run/artifact-collector.js';
import { AGENT_FILE_CHUNK_BYTES, AGENT_MAX_DISPLAY_FRAMES, FrameBudget, frameBudgets } from '../../../../electron/sandbox/run/frame-budget.js';

describe('frameBudgets', () => {
  it("leaves room for everything the agent may send under the caps: the display limit, every file's chunks and the omitted reports", () => {
    const b = frameBudgets(DEFAULT_ARTIFACT_CAPS);
    expect(b.display.frames).toBeGreaterThan(AGENT_MAX_DISPLAY_FRAMES + 1);
    // 64 images at the 350 kB cap, base64'd.
    expect(b.display.bytes).toBeGreaterThan((64 * DEFAULT_ARTIFACT_CAPS.imageCapBytes * 4) / 3);
    const chunks = DEFAULT_ARTIFACT_CAPS.maxBytes / AGENT_FILE_CHUNK_BYTES + DEFAULT_ARTIFACT_CAPS.maxFiles;
    expect(b.file.frames).toBeGreaterThan(chunks + 50);
    expect(b.file.bytes).toBeGreaterThan((DEFAULT_ARTIFACT_CAPS.maxBytes * 4) / 3);
  });

  it('grows with the caps a person sets', () => {
    const small = frameBudgets(DEFAULT_ARTIFACT_CAPS);
    const large = frameBudgets({ imageCapBytes: 8 * 1024 * 1024, maxFiles: 100, maxBytes: 256 * 1024 * 1024 });
    expect(large.file.bytes).toBeGreaterThan((256 * 1024 * 1024 * 4) / 3);
    expect(large.file.frames).toBeGreaterThan(small.file.frames);
    expect(large.display.bytes).toBeGreaterThan(small.display.bytes);
  });
});

describe('FrameBudget', () => {
  it('is silent within the budget and says in words which kind went past it, by frames or by bytes', () => {
    const budget = new FrameBudget({ ...frameBudgets(DEFAULT_ARTIFACT_CAPS), imports: { frames: 2, bytes: 100 } });
    expect(budget.charge('imports', 10)).toBeNull();
    expect(budget.charge('imports', 10)).toBeNull();
    expect(budget.charge('imports', 10)).toBe('the sandbox sent more import reports than a run may (at most 2 frames and 100 B)');
    const bytes = new FrameBudget({ ...frameBudgets(DEFAULT_ARTIFACT_CAPS), other: { frames: 100, bytes: 1000 } });
    expect(bytes.charge('other', 999)).toBeNull();
    expect(bytes.charge('other', 2)).toContain('start-up frames');
  });

  it('counts each kind on its own', () => {
    const budget = new FrameBudget({ ...frameBudgets(DEFAULT_ARTIFACT_CAPS), imports: { frames: 1, bytes: 1000 } });
    for (let i = 0; i < 100; i++) expect(budget.charge('display', 10)).toBeNull();
    expect(budget.charge('imports', 10)).toBeNull();
  });
});
