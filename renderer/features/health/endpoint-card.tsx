// Where clients connect, and the access token: revealed on demand, copied, rotated after a confirmation.
import { useState } from 'react';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { CopyButton } from '../../components/copy-button.js';
import { Dialog } from '../../components/dialog.js';
import type { TokenKind } from '../../../shared/contract.js';
import { copyText } from '../../lib/clipboard.js';
import { useEndpointStore } from '../../stores/endpoint-store.js';
import { toast } from '../../stores/ui-store.js';
import { fetchToken, rotateToken } from './health-actions.js';

const MASK = '•'.repeat(32);

const TOKEN_TEXT: Record<TokenKind, { label: string; rotateTitle: string; rotateBody: string }> = {
  client: {
    label: 'Client token',
    rotateTitle: 'Rotate the client token?',
    rotateBody:
      'MCP clients configured with the current token stop working at once and must be given the new one: the Clients view updates configured clients in one click. This panel is not affected.',
  },
  panel: {
    label: 'Panel token',
    rotateTitle: 'Rotate the panel token?',
    rotateBody: 'Other open panels and links stop working at once; this one switches to the new token. MCP clients are not affected.',
  },
};

function TokenRow({ kind }: { kind: TokenKind }) {
  const text = TOKEN_TEXT[kind];
  const [token, setToken] = useState<string | null>(null);
  const [busy, setBusy] = useState<'reveal' | 'copy' | 'rotate' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const run = async (what: 'reveal' | 'copy' | 'rotate', fn: () => Promise<void>) => {
    setBusy(what);
    try {
      await fn();
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <dt>{text.label}</dt>
      <dd>
        <div className="token-row">
          <code className="token mono" aria-label={token ? text.label : `${text.label}, hidden`}>
            {token ?? MASK}
          </code>
          <Button size="sm" busy={busy === 'reveal'} onClick={() => (token ? setToken(null) : void run('reveal', async () => setToken(await fetchToken(kind))))}>
            {token ? 'Hide' : 'Reveal'}
          </Button>
          <Button
            size="sm"
            busy={busy === 'copy'}
            onClick={() =>
              void run('copy', async () => {
                const value = token ?? (await fetchToken(kind));
                if (!value) return;
                const ok = await copyText(value);
                toast(ok ? 'ok' : 'fail', ok ? `${text.label} copied.` : 'Copying failed.');
              })
            }
          >
            Copy
          </Button>
          <Button size="sm" variant="danger" busy={busy === 'rotate'} onClick={() => setConfirming(true)}>
            Rotate
          </Button>
        </div>
      </dd>
      {confirming && (
        <Dialog
          title={text.rotateTitle}
          onClose={() => setConfirming(false)}
          footer={
            <>
              <Button onClick={() => setConfirming(false)}>Keep the current token</Button>
              <Button
                variant="danger"
                onClick={() => {
                  setConfirming(false);
                  void run('rotate', async () => {
                    const next = await rotateToken(kind);
                    if (next && token) setToken(next);
                  });
                }}
              >
                Rotate now
              </Button>
            </>
          }
        >
          <p>{text.rotateBody}</p>
        </Dialog>
      )}
    </>
  );
}

export function EndpointCard() {
  const info = useEndpointStore((s) => s.info);
  return (
    <section className="card" aria-labelledby="endpoint-title">
      <div className="card-head">
        <h2 id="endpoint-title">MCP endpoint</h2>
        {info && <Badge tone={info.listening ? 'ok' : 'fail'}>{info.listening ? 'listening' : 'down'}</Badge>}
      </div>
      {!info ? (
        <p className="muted">Loading…</p>
      ) : (
        <dl className="facts">
          <dt>URL</dt>
          <dd>
            {info.url ? (
              <span className="token-row">
                <code className="mono break">{info.url}</code>
                <CopyButton text={info.url} what="endpoint URL" />
              </span>
            ) : (
              <span className="tone-fail">{info.error ?? 'not listening'}</span>
            )}
          </dd>
          <dt>Port</dt>
          <dd className="num">{info.port}</dd>
          <dt>Sessions</dt>
          <dd className="num">{info.sessions}</dd>
          <TokenRow kind="client" />
          <dt>Client token file</dt>
          <dd className="mono break small">{info.tokenFile}</dd>
          <TokenRow kind="panel" />
          <dt>Panel token file</dt>
          <dd className="mono break small">{info.panelTokenFile}</dd>
        </dl>
      )}
    </section>
  );
}
