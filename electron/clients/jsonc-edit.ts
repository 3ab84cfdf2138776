// Sets or removes one entry of an MCP client's config file and leaves every other byte as it was.
// jsonc-parser finds where things are and applies the edits; the edits themselves are computed here rather
// than by its `modify`, because `modify`'s formatter re-flows the whole neighbouring line (a one-line sibling
// entry gets spread over several lines), and a removal must give back exactly the text an addition changed.
import { isDeepStrictEqual } from 'node:util';
import { applyEdits, createScanner, findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Edit, Node, ParseError } from 'jsonc-parser';
import { AppError, errorMessage } from '../../shared/errors.js';

export interface TextStyle {
  /** One level of indentation: a tab or N spaces. */
  indent: string;
  eol: '\n' | '\r\n';
}

export interface ConfigDocument {
  file: string;
  jsonc: boolean;
  /** A byte-order mark some Windows editors write; kept and put back. */
  bom: string;
  /** The text after the byte-order mark. */
  text: string;
  /** The top-level object; undefined for an empty (or whitespace-only) file. */
  root: Node | undefined;
  style: TextStyle;
}

/** Where one entry lives: `{ [container]: { [name]: … } }`. */
export interface EntryPath {
  container: string;
  name: string;
}

/** The indentation and line ending the file already uses, so inserted lines look like their neighbours. */
export function detectStyle(text: string, fallbackIndent: string): TextStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let tabs = 0;
  let spaces = 0;
  let narrowest = Infinity;
  for (const line of text.split('\n')) {
    const lead = /^[ \t]+(?=\S)/.exec(line)?.[0];
    if (lead === undefined) continue;
    if (lead.startsWith('\t')) tabs++;
    else {
      spaces++;
      narrowest = Math.min(narrowest, lead.length);
    }
  }
  if (tabs === 0 && spaces === 0) return { indent: fallbackIndent, eol };
  return { indent: tabs > spaces ? '\t' : ' '.repeat(Math.min(narrowest, 8)), eol };
}

/** Parses the file as its client does (strict JSON, or JSON with comments and trailing commas for VS Code). */
export function parseConfig(file: string, raw: string, options: { jsonc: boolean; fallbackIndent: string }): ConfigDocument {
  const bom = raw.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  const text = raw.slice(bom.length);
  const style = detectStyle(text, options.fallbackIndent);
  const doc: ConfigDocument = { file, jsonc: options.jsonc, bom, text, root: undefined, style };
  if (text.trim() === '') return doc;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: options.jsonc, disallowComments: !options.jsonc });
  const first = errors[0];
  const kind = options.jsonc ? 'JSON with comments' : 'JSON';
  if (first) {
    const { line, column } = position(text, first.offset);
    throw new AppError('invalid_config', `${file} is not valid ${kind} (${printParseErrorCode(first.error)} at line ${line}, column ${column}); Sandbar left it unchanged.`);
  }
  if (!options.jsonc) {
    // The clients read these files with JSON.parse, which is stricter than jsonc-parser in a few corners.
    try {
      JSON.parse(text);
    } catch (err) {
      throw new AppError('invalid_config', `${file} is not valid JSON (${errorMessage(err)}); Sandbar left it unchanged.`, { cause: err });
    }
  }
  if (root?.type !== 'object') throw new AppError('invalid_config', `${file} does not hold a JSON object at the top level; Sandbar left it unchanged.`);
  return { ...doc, root };
}

/** The entry's current value, or undefined when there is none. */
export function readEntry(doc: ConfigDocument, at: EntryPath): unknown {
  if (!containerNode(doc, at)) return undefined;
  const node = findNodeAtLocation(doc.root!, [at.container, at.name]);
  // getNodeValue builds prototype-less objects; a JSON round trip gives ordinary ones that compare as expected.
  return node ? (JSON.parse(JSON.stringify(getNodeValue(node))) as unknown) : undefined;
}

/** The whole new file text with the entry set to `value` (or removed when `value` is undefined). */
export function editEntry(doc: ConfigDocument, at: EntryPath, value: unknown): string {
  const edited = doc.bom + applyEdits(doc.text, entryEdits(doc, at, value));
  // A last guard against a bug here ever writing a file its client cannot read, or one that says the wrong thing.
  const check = parseConfig(doc.file, edited, { jsonc: doc.jsonc, fallbackIndent: doc.style.indent });
  if (!isDeepStrictEqual(readEntry(check, at), value)) {
    throw new AppError('internal', `Sandbar could not compute a correct edit of ${doc.file}; it left the file unchanged.`);
  }
  return edited;
}

function entryEdits(doc: ConfigDocument, at: EntryPath, value: unknown): Edit[] {
  const { text, root, style } = doc;
  if (!root) {
    if (value === undefined) return [];
    const fresh = JSON.stringify({ [at.container]: { [at.name]: value } }, null, style.indent).split('\n').join(style.eol);
    return [{ offset: 0, length: text.length, content: fresh + style.eol }];
  }
  const container = containerNode(doc, at);
  if (!container) return value === undefined ? [] : insertProperty(text, root, at.container, { [at.name]: value }, style);
  const existing = findNodeAtLocation(root, [at.container, at.name]);
  if (value === undefined) return existing?.parent ? removeProperty(text, container, existing.parent) : [];
  if (!existing) return insertProperty(text, container, at.name, value, style);
  const indent = startsLine(text, existing.parent!.offset) ? leadingWhitespace(text, existing.parent!.offset) : null;
  return [{ offset: existing.offset, length: existing.length, content: render(value, style, indent) }];
}

function containerNode(doc: ConfigDocument, at: EntryPath): Node | undefined {
  if (!doc.root) return undefined;
  const node = findNodeAtLocation(doc.root, [at.container]);
  if (node && node.type !== 'object') {
    throw new AppError('invalid_config', `In ${doc.file}, "${at.container}" is not an object; Sandbar left the file unchanged.`);
  }
  return node;
}

/** Adds `"key": value` as the object's last property, indented like the property before it. */
function insertProperty(text: string, object: Node, key: string, value: unknown, style: TextStyle): Edit[] {
  const last = object.children?.at(-1);
  if (!last) {
    const inner = text.slice(object.offset + 1, object.offset + object.length - 1);
    const base = leadingWhitespace(text, object.offset);
    const indent = base + style.indent;
    const member = `${style.eol}${indent}${JSON.stringify(key)}: ${render(value, style, indent)}`;
    // An empty `{}` opens up; one holding only comments keeps them, after the new property.
    if (inner.trim() === '') return [{ offset: object.offset, length: object.length, content: `{${member}${style.eol}${base}}` }];
    return [{ offset: object.offset + 1, length: 0, content: member }];
  }
  const end = last.offset + last.length;
  if (!startsLine(text, last.offset)) {
    // A one-line object (`{"a": 1}`) stays on one line.
    return [{ offset: end, length: 0, content: `, ${JSON.stringify(key)}: ${render(value, style, null)}` }];
  }
  const indent = leadingWhitespace(text, last.offset);
  const member = `${JSON.stringify(key)}: ${render(value, style, indent)}`;
  const rest = text.slice(end, lineEnd(text, end));
  const comment = /^(\s*)(,?)\s*\/\//.exec(rest);
  if (comment) {
    // `"a": 1 // note`: the note stays with "a"; the new property goes on the next line. A trailing comma
    // (`"a": 1, // note`, JSONC only) was the file's style for its last entry, so the new last entry gets one.
    const trailing = comment[2] === ',';
    const comma: Edit[] = trailing ? [] : [{ offset: end, length: 0, content: ',' }];
    return [...comma, { offset: end + rest.length, length: 0, content: style.eol + indent + member + (trailing ? ',' : '') }];
  }
  return [{ offset: end, length: 0, content: `,${style.eol}${indent}${member}` }];
}

/** Removes the property and one comma that separated it, undoing exactly what `insertProperty` added. */
function removeProperty(text: string, object: Node, property: Node): Edit[] {
  const siblings = object.children ?? [];
  const index = siblings.indexOf(property);
  const end = property.offset + property.length;
  if (siblings.length === 1) {
    const rest = text.slice(object.offset + 1, property.offset) + text.slice(end, object.offset + object.length - 1);
    if (/^[\s,]*$/.test(rest)) return [{ offset: object.offset, length: object.length, content: '{}' }];
  }
  const previous = index > 0 ? siblings[index - 1] : undefined;
  if (previous) {
    const previousEnd = previous.offset + previous.length;
    if (/^\s*,\s*$/.test(text.slice(previousEnd, property.offset))) return [{ offset: previousEnd, length: end - previousEnd, content: '' }];
  }
  // Comments around the property: take its own line(s) and the one comma that belongs to it.
  const start = lineBreakBefore(text, property.offset);
  const after = nextToken(text, end);
  if (after && text[after] === ',') return [{ offset: start, length: after + 1 - start, content: '' }];
  const edits: Edit[] = [{ offset: start, length: end - start, content: '' }];
  const comma = previous ? nextToken(text, previous.offset + previous.length) : null;
  if (comma !== null && text[comma] === ',') edits.push({ offset: comma, length: 1, content: '' });
  return edits;
}

/** Pretty JSON whose continuation lines sit under `indent`; on one line when `indent` is null. */
function render(value: unknown, style: TextStyle, indent: string | null): string {
  // JSON.stringify escapes newlines inside strings, so every raw newline here is between tokens.
  if (indent === null) return JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');
  return JSON.stringify(value, null, style.indent).split('\n').join(style.eol + indent);
}

/** Offset of the next token after `from`, skipping whitespace and comments; null at the end. */
function nextToken(text: string, from: number): number | null {
  const scanner = createScanner(text, true);
  scanner.setPosition(from);
  scanner.scan();
  const offset = scanner.getTokenOffset();
  return offset < text.length ? offset : null;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset of the line's end, before its `\n` or `\r\n`. */
function lineEnd(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  if (newline === -1) return text.length;
  return newline > offset && text[newline - 1] === '\r' ? newline - 1 : newline;
}

function startsLine(text: string, offset: number): boolean {
  return text.slice(lineStart(text, offset), offset).trim() === '';
}

function leadingWhitespace(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset), offset))![0];
}

/** Where the line break before a property that starts its own line begins (so removing it takes the whole line). */
function lineBreakBefore(text: string, offset: number): number {
  const start = lineStart(text, offset);
  if (start === 0 || !startsLine(text, offset)) return offset;
  return text[start - 2] === '\r' ? start - 2 : start - 1;
}

function position(text: string, offset: number): { line: number; column: number } {
  const line = text.slice(0, offset).split('\n').length;
  return { line, column: offset - lineStart(text, offset) + 1 };
}
