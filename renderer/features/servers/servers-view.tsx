// Servers: the user's MCP servers Sandbar found, their state, their tools, and whether the sandbox sees them.
import { useState } from 'react';
import type { ServerView } from '../../../shared/contract.js';
import type { ServerState } from '../../../shared/proxy.js';
import { Badge, StatusDot, type Tone } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { EmptyState } from '../../components/empty-state.js';
import { useServersStore } from '../../stores/servers-store.js';
import { restartServer, setPolicy } from './servers-actions.js';
import { ToolsDialog } from './tools-dialog.js';
import './servers.css';

const STATE_TONE: Record<ServerState, Tone> = { ready: 'ok', starting: 'accent', stopped: 'muted', crashed: 'fail' };

function ServerRow({ server, onTools }: { server: ServerView; onTools: () => void }) {
  const [busy, setBusy] = useState<'policy' | 'restart' | null>(null);
  const denied = server.policy === 'deny';
  const act = (what: 'policy' | 'restart', fn: () => Promise<void>) => {
    setBusy(what);
    void fn().finally(() => setBusy(null));
  };
  return (
    <li className={`card server ${denied ? 'server-denied' : ''}`}>
      <div className="server-main">
        <div className="server-title">
          <StatusDot tone={STATE_TONE[server.state]} label={server.state} pulse={server.state === 'starting'} />
          <h2 className="server-name">{server.name}</h2>
          <Badge tone={STATE_TONE[server.state]}>{server.state}</Badge>
          <Badge>{server.transport}</Badge>
          {denied && <Badge tone="warn">denied</Badge>}
        </div>
        {server.description && <p className="server-desc">{server.description}</p>}
        <p className="muted small">
          <span className="mono break">{server.source}</span>
          {' · '}
          {server.toolCount === null ? 'tools not listed yet' : server.toolCount === 1 ? '1 tool' : `${server.toolCount} tools`}
        </p>
        {server.lastError && (
          <p className="server-error" role="note">
            <strong>Last error: </strong>
            {server.lastError}
          </p>
        )}
      </div>
      <div className="server-actions">
        <Button size="sm" onClick={onTools} aria-label={`Show the tools of ${server.name}`}>
          Tools
        </Button>
        <Button size="sm" busy={busy === 'restart'} onClick={() => act('restart', () => restartServer(server.name))} aria-label={`Restart ${server.name}`}>
          Restart
        </Button>
        <Button
          size="sm"
          variant={denied ? 'primary' : 'ghost'}
          busy={busy === 'policy'}
          onClick={() => act('policy', () => setPolicy(server.name, denied ? 'allow' : 'deny'))}
          aria-label={`${denied ? 'Allow' : 'Deny'} ${server.name}`}
        >
          {denied ? 'Allow' : 'Deny'}
        </Button>
      </div>
    </li>
  );
}

export function ServersView() {
  const servers = useServersStore((s) => s.servers);
  const [toolsOf, setToolsOf] = useState<string | null>(null);
  return (
    <section className="view" aria-labelledby="servers-title">
      <header className="view-head">
        <div>
          <h1 id="servers-title" tabIndex={-1}>
            Servers
          </h1>
          <p className="view-sub">MCP servers the sandbox can call through <code>mcp_servers</code>. Denied ones are invisible to it.</p>
        </div>
      </header>
      {servers === null ? (
        <p className="muted">Loading…</p>
      ) : servers.length === 0 ? (
        <EmptyState title="No MCP servers found">
          <p>
            Sandbar reads <code>~/MCPs/*.json</code> and the file named by <code>MCP_SERVERS_CONFIG</code>, with entries like{' '}
            <code>{'{"mcpServers": {"name": {"command": "…", "args": []}}}'}</code>. New files are picked up without a restart.
          </p>
        </EmptyState>
      ) : (
        <ul className="servers">
          {servers.map((s) => (
            <ServerRow key={s.name} server={s} onTools={() => setToolsOf(s.name)} />
          ))}
        </ul>
      )}
      {toolsOf && <ToolsDialog name={toolsOf} onClose={() => setToolsOf(null)} />}
    </section>
  );
}
