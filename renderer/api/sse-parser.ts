// The panel's text/event-stream reader: eventsource-parser (the WHATWG event stream interpretation: chunks
// split anywhere, CR/LF/CRLF, comments), returning each chunk's completed frames in order; a leading
// byte-order mark is dropped here.
import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface SseFrame {
  /** `message` when the frame named none. */
  event: string;
  data: string;
  /** The frame's `id:` field, or null when it had none. */
  id: string | null;
}

export class SseParser {
  private frames: SseFrame[] = [];
  private started = false;
  private readonly parser: EventSourceParser = createParser({
    onEvent: (event) => this.frames.push({ event: event.event ?? 'message', data: event.data, id: event.id ?? null }),
  });

  /** Feed the next piece of text; returns the frames it completed, in order. */
  push(chunk: string): SseFrame[] {
    // The stream's byte-order mark, which the parser would read as part of the first field's name.
    if (!this.started && chunk.length > 0) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    this.parser.feed(chunk);
    const done = this.frames;
    this.frames = [];
    return done;
  }
}
