// A pure parser for text/event-stream (the WHATWG "event stream interpretation"), fed text in chunks that
// may split anywhere: inside a field, between \r and \n, between frames.

export interface SseFrame {
  /** `message` when the frame named none. */
  event: string;
  data: string;
  /** The frame's `id:` field, or null when it had none. */
  id: string | null;
}

export class SseParser {
  private buffer = '';
  private started = false;
  private event = '';
  private data: string[] = [];
  private id: string | null = null;
  private hasData = false;

  /** Feed the next piece of text; returns the frames it completed, in order. */
  push(chunk: string): SseFrame[] {
    let text = this.buffer + chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const frames: SseFrame[] = [];
    let start = 0;
    for (;;) {
      const cr = text.indexOf('\r', start);
      const lf = text.indexOf('\n', start);
      if (cr === -1 && lf === -1) break;
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
        if (cr === text.length - 1) break;
        end = cr;
        next = text[cr + 1] === '\n' ? cr + 2 : cr + 1;
      } else {
        end = lf;
        next = lf + 1;
      }
      const frame = this.line(text.slice(start, end));
      if (frame) frames.push(frame);
      start = next;
    }
    this.buffer = text.slice(start);
    return frames;
  }

  private line(line: string): SseFrame | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null; // a comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.event = value;
        break;
      case 'data':
        this.data.push(value);
        this.hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      default:
        break; // `retry` and unknown fields are ignored
    }
    return null;
  }

  private dispatch(): SseFrame | null {
    const frame: SseFrame | null = this.hasData ? { event: this.event || 'message', data: this.data.join('\n'), id: this.id } : null;
    this.event = '';
    this.data = [];
    this.hasData = false;
    this.id = null;
    return frame;
  }
}
