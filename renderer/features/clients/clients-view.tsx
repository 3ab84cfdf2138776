// Clients: one click adds Sandbar to the MCP clients on this machine (diff shown, backup first).
import { useEffect, useState } from 'react';
import type { ClientView } from '../../../shared/contract.js';
import { Badge, type Tone } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { CopyButton } from '../../components/copy-button.js';
import { useClientsStore } from '../../stores/clients-store.js';
import { useEndpointStore } from '../../stores/endpoint-store.js';
import { ChangeDialog, type ChangeRequest } from './change-dialog.js';
import { detectClients } from './clients-actions.js';
import './clients.css';

const CONFIGURED: Record<ClientView['configured'], { text: string; tone: Tone }> = {
  yes: { text: 'uses Sandbar', tone: 'ok' },
  stale: { text: 'out of date', tone: 'warn' },
  no: { text: 'not set up', tone: 'muted' },
};

function ClientCard({ client, onChange }: { client: ClientView; onChange: (action: 'add' | 'remove') => void }) {
  const status = CONFIGURED[client.configured];
  const available = client.installed || client.exists;
  return (
    <li className="card client">
      <div className="client-main">
        <div className="client-title">
          <h2>{client.label}</h2>
          <Badge tone={status.tone}>{status.text}</Badge>
          {!client.installed && <Badge>not installed</Badge>}
          <Badge>{client.transport === 'stdio' ? 'stdio' : 'HTTP'}</Badge>
        </div>
        <p className="muted small mono break">
          {client.file}
          {!client.exists && ' (not created yet)'}
        </p>
        {client.configured === 'stale' && <p className="small">Its Sandbar entry points at an old address or token. Update it to reconnect.</p>}
        {client.error && <p className="tone-fail small">{client.error}</p>}
      </div>
      <div className="client-actions">
        {client.configured !== 'yes' && (
          <Button variant="primary" size="sm" disabled={!available} title={available ? undefined : `${client.label} is not installed`} onClick={() => onChange('add')}>
            {client.configured === 'stale' ? 'Update' : 'Add'}
          </Button>
        )}
        {client.configured !== 'no' && (
          <Button size="sm" variant="ghost" onClick={() => onChange('remove')}>
            Remove
          </Button>
        )}
      </div>
    </li>
  );
}

export function ClientsView() {
  const { clients, detecting, error } = useClientsStore();
  const url = useEndpointStore((s) => s.info?.url ?? null);
  const [request, setRequest] = useState<ChangeRequest | null>(null);
  useEffect(() => {
    void detectClients();
  }, []);
  return (
    <section className="view" aria-labelledby="clients-title">
      <header className="view-head">
        <div>
          <h1 id="clients-title" tabIndex={-1}>
            Clients
          </h1>
          <p className="view-sub">Add Sandbar to the MCP clients on this machine. You see the change before anything is written.</p>
        </div>
        <div className="view-actions">
          <Button busy={detecting} onClick={() => void detectClients()}>
            Detect again
          </Button>
        </div>
      </header>
      {url && (
        <p className="endpoint-line clients-endpoint">
          Any other HTTP client: <code className="endpoint-url">{url}</code> <CopyButton text={url} what="endpoint URL" /> with header{' '}
          <code>Authorization: Bearer &lt;token&gt;</code> (token in Health).
        </p>
      )}
      {error && <p className="banner banner-fail">{error}</p>}
      {clients === null ? (
        <p className="muted">Looking for clients…</p>
      ) : (
        <ul className="clients">
          {clients.map((c) => (
            <ClientCard key={c.id} client={c} onChange={(action) => setRequest({ client: c, action })} />
          ))}
        </ul>
      )}
      {request && <ChangeDialog request={request} onClose={() => setRequest(null)} />}
    </section>
  );
}
