// The bounded output buffer the panel shows (renderer/stores/output-ring.ts): order kept, characters and lines capped.
import { describe, expect, it } from 'vitest';
import { OutputRing } from '../../../../renderer/stores/output-ring.js';

describe('OutputRing', () => {
  it('keeps stdout and stderr interleaved in arrival order, merging runs of one stream', () => {
    const ring = new OutputRing({ maxChars: 1000, maxLines: 100 });
    ring.push('stdout', 'a\n');
    ring.push('stdout', 'b\n');
    ring.push('stderr', 'E\n');
    ring.push('stdout', 'c\n');
    expect(ring.segments()).toEqual([
      { stream: 'stdout', text: 'a\nb\n' },
      { stream: 'stderr', text: 'E\n' },
      { stream: 'stdout', text: 'c\n' },
    ]);
    expect(ring.text('stdout')).toBe('a\nb\nc\n');
    expect(ring.clipped).toBe(false);
  });

  it('is bounded by characters: keeps the newest, drops the oldest and says it clipped', () => {
    const ring = new OutputRing({ maxChars: 50, maxLines: 1000 });
    for (let i = 0; i < 100; i++) ring.push(i % 10 === 9 ? 'stderr' : 'stdout', `${String(i).padStart(3, '0')}\n`);
    expect(ring.size.chars).toBeLessThanOrEqual(50);
    expect(ring.clipped).toBe(true);
    const text = ring.text();
    expect(text.endsWith('099\n')).toBe(true);
    expect(text).not.toContain('000\n');
    // Cut at a line start, never mid-line.
    expect(text).toMatch(/^\d{3}\n/);
  });

  it('is bounded by lines too', () => {
    const ring = new OutputRing({ maxChars: 1_000_000, maxLines: 3 });
    ring.push('stdout', 'one\ntwo\nthree\nfour\nfive\n');
    expect(ring.text()).toBe('three\nfour\nfive\n');
    expect(ring.size.lines).toBe(3);
    expect(ring.clipped).toBe(true);
  });

  it('drops whole segments when the oldest one is entirely over the limit', () => {
    const ring = new OutputRing({ maxChars: 10, maxLines: 100 });
    ring.push('stderr', 'xxxxxxxx\n');
    ring.push('stdout', 'yyyyyyyy\n');
    expect(ring.segments()).toEqual([{ stream: 'stdout', text: 'yyyyyyyy\n' }]);
  });

  it('stays bounded whatever is printed in one chunk', () => {
    const ring = new OutputRing({ maxChars: 1024, maxLines: 50 });
    ring.push('stdout', 'z'.repeat(1_000_000));
    expect(ring.size.chars).toBeLessThanOrEqual(1024);
    ring.push('stdout', 'line\n'.repeat(10_000));
    expect(ring.size.lines).toBeLessThanOrEqual(50);
  });

  it('resets from a server buffer, carrying its clipped flag', () => {
    const ring = new OutputRing();
    ring.push('stdout', 'old');
    ring.reset({ stdout: 'out\n', stderr: 'err\n', clipped: true });
    expect(ring.segments()).toEqual([
      { stream: 'stdout', text: 'out\n' },
      { stream: 'stderr', text: 'err\n' },
    ]);
    expect(ring.clipped).toBe(true);
  });

  it('hands out copies, so a rendered snapshot never changes under React', () => {
    const ring = new OutputRing();
    ring.push('stdout', 'a');
    const before = ring.segments();
    ring.push('stdout', 'b');
    expect(before).toEqual([{ stream: 'stdout', text: 'a' }]);
  });
});

describe('OutputRing.segments(maxLines): the end only, for a pane that follows', () => {
  it('keeps exactly the last N complete lines plus the open one, across streams, in order', () => {
    const ring = new OutputRing();
    ring.push('stdout', 'a1\na2\na3\n');
    ring.push('stderr', 'e1\ne2\n');
    ring.push('stdout', 'b1\nb2\nopen');
    expect(ring.segments(3)).toEqual([
      { stream: 'stderr', text: 'e2\n' },
      { stream: 'stdout', text: 'b1\nb2\nopen' },
    ]);
    expect(ring.segments(5).map((s) => s.text).join('')).toBe('a3\ne1\ne2\nb1\nb2\nopen');
  });

  it('gives everything when there are no more lines than asked for', () => {
    const ring = new OutputRing();
    ring.push('stdout', 'x\ny\n');
    expect(ring.segments(10)).toEqual([{ stream: 'stdout', text: 'x\ny\n' }]);
    expect(ring.segments(2)).toEqual([{ stream: 'stdout', text: 'x\ny\n' }]);
  });

  it('returns copies: editing them does not change the ring', () => {
    const ring = new OutputRing();
    ring.push('stdout', '1\n2\n3\n');
    ring.segments(1)[0]!.text = 'changed';
    expect(ring.text()).toBe('1\n2\n3\n');
  });
});
