// Every resource the MCP server offers, for both revisions' servers (server-factory.ts, modern-server.ts):
// the capabilities text, the run view, and each run's artifacts (a template). One list, one reader.
import type { BlobResourceContents, Resource, ResourceTemplate, TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import { RUN_VIEW_URI } from '../../shared/run-view.js';
import { ARTIFACT_TEMPLATE, readArtifact, type ArtifactAccess, type ArtifactStore } from './artifact-resource.js';
import type { FolderInfo } from '../../shared/folders.js';
import { CAPABILITIES_RESOURCE, CAPABILITIES_URI, capabilitiesResource, capabilitiesText } from './capabilities-resource.js';
import { readRunView, RUN_VIEW_RESOURCE } from './run-view-resource.js';

export const RESOURCES: readonly Resource[] = [CAPABILITIES_RESOURCE, RUN_VIEW_RESOURCE];

/** The list with the capabilities text's size as it is with these folders. */
export function resourcesFor(folders: readonly FolderInfo[]): Resource[] {
  return [capabilitiesResource(folders), RUN_VIEW_RESOURCE];
}

export const RESOURCE_TEMPLATES: readonly ResourceTemplate[] = [ARTIFACT_TEMPLATE];

/**
 * The contents for `uri`, or null when it names nothing here (each server answers that in its own error
 * type). `mayRead` says whose runs' artifacts the caller may read (its own).
 */
export function readResource(uri: string, artifacts: ArtifactStore | undefined, mayRead: ArtifactAccess, folders: readonly FolderInfo[] = []): TextResourceContents | BlobResourceContents | null {
  if (uri === CAPABILITIES_URI) return { uri: CAPABILITIES_URI, mimeType: 'text/markdown', text: capabilitiesText(folders) };
  if (uri === RUN_VIEW_URI) return readRunView();
  return readArtifact(uri, artifacts, mayRead);
}
