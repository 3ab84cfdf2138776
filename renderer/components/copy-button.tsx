// Copies a value (endpoint URL, token) and says so for a moment.
import { useEffect, useState } from 'react';
import { copyText } from '../lib/clipboard.js';
import { Button } from './button.js';

export function CopyButton({ text, label = 'Copy', what, size = 'sm' }: { text: string; label?: string; what?: string; size?: 'sm' | 'md' }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <>
      <Button
        size={size}
        className="btn-copy"
        aria-label={what ? `${label} ${what}` : undefined}
        onClick={() => void copyText(text).then((ok) => setState(ok ? 'copied' : 'failed'))}
      >
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
      </Button>
      <span className="sr-only" aria-live="polite">
        {state === 'copied' ? `${what ?? 'Text'} copied to the clipboard` : state === 'failed' ? 'Copying failed' : ''}
      </span>
    </>
  );
}
