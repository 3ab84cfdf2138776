// The host's hard rlimits, and container ulimits that never exceed them.
import { describe, expect, it } from 'vitest';
import { containerUlimits, parseProcLimits, readHostHardLimits } from '../../../../electron/sandbox/cli/host-limits.js';

const PROC_LIMITS = `Limit                     Soft Limit           Hard Limit           Units     
Max cpu time              unlimited            unlimited            seconds   
Max file size             unlimited            unlimited            bytes     
Max data size             unlimited            unlimited            bytes     
Max stack size            8388608              unlimited            bytes     
Max core file size        0                    unlimited            bytes     
Max resident set          unlimited            unlimited            bytes     
Max processes             63422                63422                processes 
Max open files            1024                 524288               files     
Max locked memory         8388608              8388608              bytes     
Max address space         unlimited            unlimited            bytes     
Max file locks            unlimited            unlimited            locks     
Max pending signals       63422                63422                signals   
Max msgqueue size         819200               819200               bytes     
Max nice priority         0                    0                    
Max realtime priority     0                    0                    
Max realtime timeout      unlimited            unlimited            us        
`;

describe('parseProcLimits', () => {
  it('reads the hard limits (not the soft ones)', () => {
    expect(parseProcLimits(PROC_LIMITS)).toEqual({ nofile: 524288, nproc: 63422 });
  });

  it('turns unlimited into null', () => {
    const text = PROC_LIMITS.replace(/^Max processes .*$/m, 'Max processes             unlimited            unlimited            processes ');
    expect(parseProcLimits(text)).toEqual({ nofile: 524288, nproc: null });
  });

  it('reads a low hard limit below the soft limit of other lines', () => {
    const text = PROC_LIMITS.replace(/^Max open files .*$/m, 'Max open files            1024                 2048                 files     ');
    expect(parseProcLimits(text).nofile).toBe(2048);
  });

  it('gives null for missing lines', () => {
    expect(parseProcLimits('')).toEqual({ nofile: null, nproc: null });
    expect(parseProcLimits('Limit   Soft Limit   Hard Limit   Units\n')).toEqual({ nofile: null, nproc: null });
  });

  it('reads this machine’s /proc/self/limits when there is one', () => {
    const limits = readHostHardLimits();
    if (process.platform !== 'linux') {
      expect(limits).toBeNull();
      return;
    }
    expect(limits).not.toBeNull();
    for (const v of [limits!.nofile, limits!.nproc]) {
      if (v !== null) expect(Number.isInteger(v) && v >= 0).toBe(true);
    }
  });
});

describe('containerUlimits', () => {
  it('is null off Linux (no host limits)', () => {
    expect(containerUlimits(null)).toBeNull();
  });

  it('asks for 4096 when the host allows more', () => {
    expect(containerUlimits(parseProcLimits(PROC_LIMITS))).toEqual({ nofile: 4096, nproc: 4096 });
  });

  it('asks for 4096 when the host is unlimited', () => {
    expect(containerUlimits({ nofile: null, nproc: null })).toEqual({ nofile: 4096, nproc: 4096 });
  });

  it('never exceeds the host’s hard limits', () => {
    expect(containerUlimits({ nofile: 1024, nproc: 512 })).toEqual({ nofile: 1024, nproc: 512 });
    for (const nofile of [1, 100, 4095, 4096, 4097, 1_000_000]) {
      for (const nproc of [null, 7, 4096, 99_999]) {
        const u = containerUlimits({ nofile, nproc })!;
        expect(u.nofile).toBeLessThanOrEqual(nofile);
        if (nproc !== null) expect(u.nproc).toBeLessThanOrEqual(nproc);
        expect(u.nofile).toBeLessThanOrEqual(4096);
        expect(u.nproc).toBeLessThanOrEqual(4096);
      }
    }
  });

  it('applies the parsed hard limit end to end', () => {
    const text = PROC_LIMITS.replace(/^Max open files .*$/m, 'Max open files            1024                 2048                 files     ');
    expect(containerUlimits(parseProcLimits(text))).toEqual({ nofile: 2048, nproc: 4096 });
  });
});
