// The tool's context cost: what the model sees of it stays within 1 KiB, with the line on figures.
import { describe, expect, it } from 'vitest';
import { FIGURES_NOTE, runPythonTool, SESSION_NOTE } from '../../../electron/mcp/run-python-tool.js';
import { CAPABILITIES_TEXT } from '../../../electron/mcp/capabilities-resource.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';

describe('run_python in tools/list', () => {
  it('fits in 1,024 bytes as the model sees it (name, description, input schema), even with the largest timeouts', () => {
    for (const limits of [DEFAULT_LIMITS, { timeoutSec: 3600, maxTimeoutSec: 3600 }]) {
      // `_meta` (the run view's URI) is for the client, not the model: model-visible-tools.test.ts pins the whole list.
      const { name, description, inputSchema } = runPythonTool(limits);
      expect(Buffer.byteLength(JSON.stringify({ name, description, inputSchema }))).toBeLessThanOrEqual(1024);
    }
  });

  it('says in one line that figures come back, and so does the capabilities resource', () => {
    expect(runPythonTool(DEFAULT_LIMITS).description).toContain(FIGURES_NOTE);
    expect(FIGURES_NOTE).not.toContain('\n');
    expect(CAPABILITIES_TEXT).toContain(FIGURES_NOTE);
    expect(CAPABILITIES_TEXT).toContain('sandbar://runs/<runId>/artifacts/<name>');
  });

  it('offers `session` and says in one short line that it keeps state; the resource says how to go on and end', () => {
    const tool = runPythonTool(DEFAULT_LIMITS);
    expect(Object.keys(tool.inputSchema.properties ?? {})).toContain('session');
    expect(tool.description).toContain(SESSION_NOTE);
    expect(SESSION_NOTE).not.toContain('\n');
    expect(CAPABILITIES_TEXT).toContain('session: <id>');
    expect(CAPABILITIES_TEXT).toContain('runtime.end_session()');
  });
});
