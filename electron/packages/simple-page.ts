// PEP 503 "simple" index pages: the project's files as anchors. Sandbar reads them to learn which files
// exist and their sha256, and rewrites them for pip so that every file comes through its own proxy.

export interface IndexFile {
  filename: string;
  /** Absolute upstream URL, without the fragment. */
  url: string;
  sha256: string | null;
  requiresPython: string | null;
  yanked: boolean;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };

function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (ENTITIES[lower] !== undefined) return ENTITIES[lower];
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10));
    return whole;
  });
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function attributes(source: string): Map<string, string> {
  const attrs = new Map<string, string>();
  const pattern = /([A-Za-z_:][\w:.-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  for (const m of source.matchAll(pattern)) attrs.set((m[1] ?? '').toLowerCase(), unescapeHtml(m[2] ?? m[3] ?? m[4] ?? ''));
  return attrs;
}

/** The files a project page lists. Anchors without an href, or with one that is not http(s), are skipped. */
export function parseSimplePage(html: string, pageUrl: string): IndexFile[] {
  const files: IndexFile[] = [];
  for (const m of html.matchAll(/<a\s([^>]*)>([^<]*)<\/a\s*>/gi)) {
    const attrs = attributes(m[1] ?? '');
    const href = attrs.get('href');
    if (!href) continue;
    let url: URL;
    try {
      url = new URL(href, pageUrl);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    const hash = /(?:^|&)sha256=([0-9a-f]{64})(?:&|$)/i.exec(url.hash.slice(1));
    url.hash = '';
    const text = unescapeHtml(m[2] ?? '').trim();
    const filename = text || decodeURIComponent(url.pathname.split('/').pop() ?? '');
    files.push({
      filename,
      url: url.toString(),
      sha256: hash?.[1]?.toLowerCase() ?? null,
      requiresPython: attrs.get('data-requires-python') || null,
      yanked: attrs.has('data-yanked'),
    });
  }
  return files;
}

/** A page for pip listing `files`, each linked as `hrefOf(file)` with its hash, so pip checks it too. */
export function renderSimplePage(project: string, files: readonly { file: IndexFile; href: string }[]): string {
  const anchors = files.map(({ file, href }) => {
    const python = file.requiresPython ? ` data-requires-python="${escapeHtml(file.requiresPython)}"` : '';
    const yanked = file.yanked ? ' data-yanked=""' : '';
    return `<a href="${escapeHtml(href)}#sha256=${file.sha256}"${python}${yanked}>${escapeHtml(file.filename)}</a><br/>`;
  });
  return `<!DOCTYPE html>\n<html><head><meta name="pypi:repository-version" content="1.0"><title>Links for ${escapeHtml(project)}</title></head><body>\n${anchors.join('\n')}\n</body></html>\n`;
}

/** Wheels only: Sandbar never runs a source build. */
export const isWheel = (filename: string): boolean => /\.whl$/i.test(filename);
