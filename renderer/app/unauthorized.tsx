// The screen a panel without a valid token shows: why, where the token is, and retry.
import { Button } from '../components/button.js';
import { NOT_AUTHORISED_HELP } from '../api/errors.js';
import { getBridge } from '../stores/bridge.js';

/** Shown instead of the panel when the server refused the token (or there was none). */
export function Unauthorized() {
  return (
    <main className="gate">
      <div className="card gate-card" role="alert">
        <h1>Not authorised</h1>
        <p>This panel needs Sandbar's access token, which comes with the link to it.</p>
        <p>{NOT_AUTHORISED_HELP.replace(/`/g, '')}</p>
        <p className="muted small">The token may also have been rotated in another window: open the new link.</p>
        <Button variant="primary" onClick={() => getBridge()?.retry()}>
          Try again
        </Button>
      </div>
    </main>
  );
}
