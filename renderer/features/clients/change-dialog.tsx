// Adding Sandbar to (or removing it from) a client's config: the diff first, then the write and its backup.
import { useEffect, useState } from 'react';
import type { ClientChangePreview, ClientChangeResult, ClientView } from '../../../shared/contract.js';
import { api, describeError } from '../../api/index.js';
import { Button, Spinner } from '../../components/button.js';
import { Dialog } from '../../components/dialog.js';
import { DiffView } from '../../components/diff-view.js';
import { toast } from '../../stores/ui-store.js';
import { detectClients } from './clients-actions.js';

type Step =
  | { step: 'loading' }
  | { step: 'preview'; preview: ClientChangePreview }
  | { step: 'writing'; preview: ClientChangePreview }
  | { step: 'done'; result: ClientChangeResult }
  | { step: 'failed'; error: string; preview?: ClientChangePreview };

export interface ChangeRequest {
  client: ClientView;
  action: 'add' | 'remove';
}

export function ChangeDialog({ request, onClose }: { request: ChangeRequest; onClose: () => void }) {
  const { client, action } = request;
  const [state, setState] = useState<Step>({ step: 'loading' });
  const verb = action === 'add' ? 'Add Sandbar to' : 'Remove Sandbar from';

  useEffect(() => {
    let live = true;
    api.call('clients.preview', { id: client.id, action }).then(
      (preview) => live && setState({ step: 'preview', preview }),
      (err: unknown) => live && setState({ step: 'failed', error: describeError(err) }),
    );
    return () => {
      live = false;
    };
  }, [client.id, action]);

  const confirm = (preview: ClientChangePreview) => {
    setState({ step: 'writing', preview });
    api.call('clients.configure', { id: client.id, action }).then(
      (result) => {
        setState({ step: 'done', result });
        toast('ok', `${client.label}: ${action === 'add' ? 'Sandbar added' : 'Sandbar removed'}.`);
        void detectClients();
      },
      (err: unknown) => setState({ step: 'failed', error: describeError(err), preview }),
    );
  };

  const preview = state.step === 'preview' || state.step === 'writing' ? state.preview : null;
  const footer =
    state.step === 'done' || state.step === 'failed' || (preview && !preview.changed) ? (
      <Button variant="primary" onClick={onClose}>
        Close
      </Button>
    ) : (
      <>
        <Button onClick={onClose} disabled={state.step === 'writing'}>
          Cancel
        </Button>
        <Button variant={action === 'remove' ? 'danger' : 'primary'} busy={state.step === 'writing'} disabled={!preview} onClick={() => preview && confirm(preview)}>
          {action === 'add' ? 'Write the change' : 'Remove'}
        </Button>
      </>
    );

  return (
    <Dialog title={`${verb} ${client.label}`} onClose={onClose} wide footer={footer}>
      {state.step === 'loading' && (
        <p className="muted">
          <Spinner /> Working out the change…
        </p>
      )}
      {preview && (
        <>
          <p>
            File: <code className="break">{preview.file}</code>
          </p>
          {preview.changed ? (
            <>
              <p data-testid="change-summary">{preview.summary}</p>
              <p className="muted small">A backup of the file is written first. The token is masked here; the file gets the real one.</p>
              {preview.modeChange && (
                <p className="tone-warn small" data-testid="mode-change">
                  The file's permissions change from {preview.modeChange.from} to {preview.modeChange.to} (only you can read it), because it will hold Sandbar's client token.
                </p>
              )}
              <DiffView diff={preview.diff} label={preview.file.split(/[\\/]/).pop() ?? preview.file} />
            </>
          ) : (
            <p>Nothing to change: the file already says what it should.</p>
          )}
        </>
      )}
      {state.step === 'done' && (
        <div className="result" role="status">
          <p className="tone-ok">
            <strong>Written:</strong> <code className="break">{state.result.file}</code>
          </p>
          <p>{state.result.backup ? <>Backup of the previous file: <code className="break">{state.result.backup}</code></> : 'No backup needed: the file did not exist before.'}</p>
          <p className="muted">Restart {client.label} (or reload its MCP servers) to pick up the change.</p>
        </div>
      )}
      {state.step === 'failed' && (
        <p className="tone-fail" role="alert">
          {state.error}
        </p>
      )}
    </Dialog>
  );
}
