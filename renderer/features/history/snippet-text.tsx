// A search snippet as text with the matched words in <mark>; React escapes every part.
import { Fragment } from 'react';
import type { SnippetPart } from '../../../shared/history.js';
import { oneLine } from './format.js';

export function SnippetText({ parts }: { parts: readonly SnippetPart[] }) {
  return (
    <>
      {parts.map((p, i) => (p.hit ? <mark key={i}>{oneLine(p.text)}</mark> : <Fragment key={i}>{oneLine(p.text)}</Fragment>))}
    </>
  );
}
