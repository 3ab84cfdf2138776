// VS Code's settings.json and mcp.json are JSON with comments and trailing commas; strip both so
// JSON.parse reads what VS Code reads. Strings are copied untouched (a "//" inside a URL stays), and what is
// removed becomes spaces, so positions in JSON.parse's error messages still point into the real file.
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
    } else if (ch === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const end = commentEnd(text, i);
      out += blank(text.slice(i, end));
      i = end;
    } else if (ch === ',' && /^[}\]]/.test(afterComments(text, i + 1))) {
      out += ' ';
      i++;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** Index just past the closing quote of the string starting at `start` (or the end of an unterminated one). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === '\\') i += 2;
    else if (text[i] === '"') return i + 1;
    else i++;
  }
  return text.length;
}

/** Index just past the line or block comment starting at `start` (a line comment keeps its newline). */
function commentEnd(text: string, start: number): number {
  if (text[start + 1] === '/') {
    const end = text.indexOf('\n', start);
    return end === -1 ? text.length : end;
  }
  const end = text.indexOf('*/', start + 2);
  return end === -1 ? text.length : end + 2;
}

function blank(removed: string): string {
  return removed.replace(/[^\n]/g, ' ');
}

/** The first character after `from` that is neither whitespace nor inside a comment ('' at the end). */
function afterComments(text: string, from: number): string {
  let i = from;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) i++;
    else if (text[i] === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) i = commentEnd(text, i);
    else return text[i]!;
  }
  return '';
}
