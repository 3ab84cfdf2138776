// The tool's context cost and what it teaches: what the model sees (name, description, input schema) stays
// within 1,024 bytes with room to spare, the reference's words are kept, and every parameter says in one
// short phrase what goes there.
import { describe, expect, it } from 'vitest';
import { FIGURES_NOTE, HELPER_SUMMARY, MODEL_VISIBLE_BYTES, PACKAGES_PHRASE, REFERENCE_DESCRIPTION, runPythonTool, SESSION_PHRASE } from '../../../electron/mcp/run-python-tool.js';
import { CAPABILITIES_TEXT } from '../../../electron/mcp/capabilities-resource.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';

const LARGEST = { timeoutSec: 3600, maxTimeoutSec: 3600 };
/** Bytes later parameters and phrases may still take (an app's words); the checkpoint form of `session` took 15 of the 16 once kept. */
const HEADROOM = 5;
const modelVisible = (limits: typeof LARGEST) => {
  const { name, description, inputSchema } = runPythonTool(limits);
  return Buffer.byteLength(JSON.stringify({ name, description, inputSchema }));
};
const properties = () => (runPythonTool(DEFAULT_LIMITS).inputSchema.properties ?? {}) as Record<string, { description?: string }>;

describe('run_python in tools/list', () => {
  it(`fits in ${MODEL_VISIBLE_BYTES} bytes as the model sees it, with ${HEADROOM} to spare, even with the largest timeouts`, () => {
    for (const limits of [DEFAULT_LIMITS, LARGEST]) expect(modelVisible(limits)).toBeLessThanOrEqual(MODEL_VISIBLE_BYTES - HEADROOM);
    // Pinned, so a change in size is a decision rather than a drift.
    expect(modelVisible(LARGEST)).toBe(1019);
  });

  it("keeps the reference's description, parameter texts and helper summary word for word", () => {
    const tool = runPythonTool(DEFAULT_LIMITS);
    expect(tool.description).toBe(REFERENCE_DESCRIPTION);
    expect(properties().code?.description).toBe(`Python source code to execute. Call runtime.capability_summary() inside the sandbox for this digest. ${HELPER_SUMMARY}`);
    expect(properties().servers?.description).toBe('Optional list of MCP servers to make available as mcp_<name> proxies');
    expect(properties().timeout?.description).toBe('Execution timeout in seconds');
  });

  it('teaches its own parameters: session says "new" opens and an id continues; packages says pip requirements pinned with ==', () => {
    expect(properties().session?.description).toBe(SESSION_PHRASE);
    expect(SESSION_PHRASE).toMatch(/'new' opens/);
    expect(SESSION_PHRASE).toMatch(/id continues/);
    expect(SESSION_PHRASE).toMatch(/id@n after call n/);
    expect(properties().packages?.description).toBe(PACKAGES_PHRASE);
    expect(PACKAGES_PHRASE).toMatch(/pip requirements/);
    expect(PACKAGES_PHRASE).toContain('==');
  });

  it('has a short phrase for every parameter, including any added later', () => {
    for (const [name, schema] of Object.entries(properties())) {
      expect(schema.description, `parameter ${name}`).toBeTruthy();
      expect(schema.description!.length, `parameter ${name}`).toBeLessThanOrEqual(name === 'code' ? 400 : 70);
    }
  });

  it('the capabilities resource says that figures come back, and how sessions and packages work', () => {
    expect(FIGURES_NOTE).not.toContain('\n');
    expect(CAPABILITIES_TEXT).toContain(FIGURES_NOTE);
    expect(CAPABILITIES_TEXT).toContain('sandbar://runs/<runId>/artifacts/<name>');
    expect(CAPABILITIES_TEXT).toContain('session: <id>');
    expect(CAPABILITIES_TEXT).toContain('runtime.end_session()');
    expect(CAPABILITIES_TEXT).toContain('session: "<id>@<n>"');
    expect(CAPABILITIES_TEXT).toContain('packages: ["duckdb==1.1.3"]');
  });
});
