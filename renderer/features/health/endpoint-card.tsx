// Where clients connect, and the access token: revealed on demand, copied, rotated after a confirmation.
import { useState } from 'react';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { CopyButton } from '../../components/copy-button.js';
import { Dialog } from '../../components/dialog.js';
import { copyText } from '../../lib/clipboard.js';
import { useEndpointStore } from '../../stores/endpoint-store.js';
import { toast } from '../../stores/ui-store.js';
import { fetchToken, rotateToken } from './health-actions.js';

const MASK = '•'.repeat(32);

function TokenRow() {
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
      <dt>Token</dt>
      <dd>
        <div className="token-row">
          <code className="token mono" aria-label={token ? 'Access token' : 'Access token, hidden'}>
            {token ?? MASK}
          </code>
          <Button size="sm" busy={busy === 'reveal'} onClick={() => (token ? setToken(null) : void run('reveal', async () => setToken(await fetchToken())))}>
            {token ? 'Hide' : 'Reveal'}
          </Button>
          <Button
            size="sm"
            busy={busy === 'copy'}
            onClick={() =>
              void run('copy', async () => {
                const value = token ?? (await fetchToken());
                if (!value) return;
                const ok = await copyText(value);
                toast(ok ? 'ok' : 'fail', ok ? 'Token copied.' : 'Copying failed.');
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
          title="Rotate the access token?"
          onClose={() => setConfirming(false)}
          footer={
            <>
              <Button onClick={() => setConfirming(false)}>Keep the current token</Button>
              <Button
                variant="danger"
                onClick={() => {
                  setConfirming(false);
                  void run('rotate', async () => {
                    const next = await rotateToken();
                    if (next && token) setToken(next);
                  });
                }}
              >
                Rotate now
              </Button>
            </>
          }
        >
          <p>The current token stops working at once. Clients configured with it (and other open panels) must be given the new one: the Clients view updates configured clients in one click.</p>
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
          <TokenRow />
          <dt>Token file</dt>
          <dd className="mono break small">{info.tokenFile}</dd>
        </dl>
      )}
    </section>
  );
}
