// The native confirmation for host-executing settings: the exact commands, and "Cancel" as the default.
import { describe, expect, it } from 'vitest';
import { CONFIRM_BUTTON, hostExecDialog } from '../../../electron/shell/host-exec-dialog.js';

describe('hostExecDialog', () => {
  it('lists every command, defaults to Cancel and puts Allow on the confirm button', () => {
    const dialog = hostExecDialog([
      { field: 'mcpServers.x', command: '/bin/sh -c "id > /tmp/f"' },
      { field: 'runtime', command: 'runtime: /opt/podman' },
    ]);
    expect(dialog.message).toBe('Allow these 2 commands to run on your computer?');
    expect(dialog.detail).toContain('mcpServers.x:\n    /bin/sh -c "id > /tmp/f"');
    expect(dialog.detail).toContain('runtime: /opt/podman');
    expect(dialog.buttons[dialog.defaultId]).toBe('Cancel');
    expect(dialog.cancelId).toBe(dialog.defaultId);
    expect(dialog.buttons[CONFIRM_BUTTON]).toBe('Allow');
  });
});

describe('the folders confirmation', () => {
  it('asks about what sandboxes will see, one folder a line, not about a command', () => {
    const d = hostExecDialog([{ field: 'folders', command: 'folders: /home/me/data → /mnt/data (read-only); /home/me/out → /mnt/out (writable)' }]);
    expect(d.message).toBe('Let every sandbox see these folders?');
    expect(d.detail).toContain('folders:\n    /home/me/data → /mnt/data (read-only)\n    /home/me/out → /mnt/out (writable)');
    expect(d.detail).toContain('change or delete what is in a writable one');
    expect(d.defaultId).toBe(0);
  });
});

describe('the egress confirmation', () => {
  it('asks about sending a secret and trusting a CA file, not about running a command, and shows no value', () => {
    const d = hostExecDialog([
      { field: 'secrets.API_KEY', command: 'secret API_KEY from a typed-in value (hidden), sent in the Authorization header to api.example.com' },
      { field: 'egressCaFile', command: 'egressCaFile: /etc/company-ca.pem' },
    ]);
    expect(d.message).toBe("Let Sandbar send these secrets and trust these certificates for sandboxes' requests?");
    expect(d.detail).toContain('secrets.API_KEY:\n    secret API_KEY from a typed-in value (hidden)');
    expect(d.detail).toContain('egressCaFile:\n    egressCaFile: /etc/company-ca.pem');
    expect(d.detail).not.toMatch(/run outside the sandbox/);
    expect(d.buttons[d.defaultId]).toBe('Cancel');
    // Mixed with a command, the command's wording wins: something would run.
    expect(hostExecDialog([{ field: 'runtime', command: 'runtime: /opt/podman' }, { field: 'egressCaFile', command: 'egressCaFile: /x.pem' }]).message).toBe('Allow these 2 commands to run on your computer?');
  });
});
