// A server's tools: names, descriptions, and each input schema collapsed until asked for.
import { useEffect } from 'react';
import type { ToolInfo } from '../../../shared/proxy.js';
import { Button, Spinner } from '../../components/button.js';
import { Dialog } from '../../components/dialog.js';
import { useServersStore } from '../../stores/servers-store.js';
import { loadTools } from './servers-actions.js';

function schemaParams(schema: Record<string, unknown> | undefined): string[] {
  const props = schema?.properties;
  return props && typeof props === 'object' ? Object.keys(props) : [];
}

function ToolItem({ tool }: { tool: ToolInfo }) {
  const params = schemaParams(tool.inputSchema);
  return (
    <li className="tool">
      <div className="tool-head">
        <code className="tool-name">{tool.name}</code>
        {tool.title && tool.title !== tool.name && <span className="muted">{tool.title}</span>}
      </div>
      {tool.description && <p className="tool-desc">{tool.description}</p>}
      {tool.inputSchema && (
        <details className="tool-schema">
          <summary>Input schema{params.length > 0 ? ` (${params.join(', ')})` : ''}</summary>
          <pre className="code">{JSON.stringify(tool.inputSchema, null, 2)}</pre>
        </details>
      )}
    </li>
  );
}

export function ToolsDialog({ name, onClose }: { name: string; onClose: () => void }) {
  const entry = useServersStore((s) => s.tools[name]);
  useEffect(() => {
    void loadTools(name);
  }, [name]);
  return (
    <Dialog title={`Tools of ${name}`} onClose={onClose} wide footer={<Button onClick={onClose}>Close</Button>}>
      {!entry || entry.state === 'loading' ? (
        <p className="muted">
          <Spinner /> Asking {name} for its tools (this starts it if it is stopped)…
        </p>
      ) : entry.state === 'failed' ? (
        <p className="tone-fail">{entry.error}</p>
      ) : entry.tools.length === 0 ? (
        <p className="muted">{name} offers no tools.</p>
      ) : (
        <ul className="tools">
          {entry.tools.map((t) => (
            <ToolItem key={t.name} tool={t} />
          ))}
        </ul>
      )}
    </Dialog>
  );
}
