// The run view's resource (`ui://sandbar/run.html`): one self-contained HTML document (scripts and styles
// inlined, no URL to anything outside it) that `npm run build` makes from renderer/mcp-app/ into
// dist/mcp-app/run.html. Its CSP metadata declares no domain of any kind: the View talks only to its host.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { ErrorCode, McpError, type Resource, type TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import { RUN_VIEW_URI } from '../../shared/run-view.js';
import { packageRoot } from '../package-info.js';

/** Where the build puts the View (beside dist/renderer, which Vite empties on every build). */
export const RUN_VIEW_FILE = path.join('dist', 'mcp-app', 'run.html');

/** `_meta.ui` of the resource: no connect, resource, frame or base-URI domains; a border around it. */
export const RUN_VIEW_UI_META = { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true };

export const RUN_VIEW_RESOURCE: Resource = {
  uri: RUN_VIEW_URI,
  name: 'run-view',
  title: 'Sandbar run view',
  description: "The run_python call's code, output, figures, exit reason and questions, shown by clients that implement MCP Apps.",
  mimeType: RESOURCE_MIME_TYPE,
  _meta: { ui: RUN_VIEW_UI_META },
};

let cached: { mtimeMs: number; html: string } | undefined;

/** The built document, read once (again only when a rebuild changed it). */
export function runViewHtml(file = path.join(packageRoot(), RUN_VIEW_FILE)): string {
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    throw new McpError(ErrorCode.InternalError, `The run view is not built (${RUN_VIEW_FILE} is missing): run npm run build.`);
  }
  if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, html: readFileSync(file, 'utf8') };
  return cached.html;
}

export function readRunView(): TextResourceContents {
  return { uri: RUN_VIEW_URI, mimeType: RESOURCE_MIME_TYPE, text: runViewHtml(), _meta: { ui: RUN_VIEW_UI_META } };
}
