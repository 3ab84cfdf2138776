// @vitest-environment jsdom
// Limits › Egress: each rule previews what it matches or shows the shared parser's reason as it is typed;
// Save sends only the trimmed lists; a server field error lands on its row; secrets and the CA file are
// shown by name only (never a value) with no control to change them; a locked egress has no controls.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../../../shared/settings.js';
import { ApiCallError } from '../../../../renderer/api/errors.js';
import { EgressCard } from '../../../../renderer/features/limits/egress-card.js';
import { egressDraftErrors, egressErrorsFromFields, ruleFeedback } from '../../../../renderer/features/limits/egress-draft.js';
import { resetStores } from '../stores/reset.js';
import { fakeApi } from './api-mock.js';

vi.mock('../../../../renderer/api/index.js', async () => {
  const errors = await import('../../../../renderer/api/errors.js');
  const { fakeApi: api } = await import('./api-mock.js');
  return { api, ApiCallError: errors.ApiCallError, describeError: errors.describeError };
});

const settings: Settings = {
  ...DEFAULT_SETTINGS,
  egress: { allow: ['api.example.com:443'], deny: [] },
  secrets: { API_KEY: { value: '(hidden)', hosts: ['api.example.com'], header: 'X-Api-Key: {secret}' } },
  egressCaFile: '/etc/company-ca.pem',
};
const view = { settings, defaults: DEFAULT_SETTINGS, locked: [], file: '/home/u/.config/sandbar/settings.json' };

beforeEach(() => {
  resetStores();
  fakeApi.calls.length = 0;
});
afterEach(cleanup);

describe('egress draft helpers', () => {
  it('previews a rule with the shared parser, or gives its reason', () => {
    expect(ruleFeedback('*.example.org:8443')).toEqual({ preview: 'any name ending in .example.org (not example.org itself), port 8443' });
    expect(ruleFeedback('10.0.0.0/8')).toEqual({ preview: 'addresses 10.0.0.0/8, any port, even when private' });
    expect(ruleFeedback('https://x.example/')).toEqual({ error: '"https://x.example/" must be a host, host:port, *.domain[:port], an IP address or a CIDR, not a URL' });
    expect(egressDraftErrors({ allow: ['ok.example', ' *'], deny: [''] }).rows).toEqual({ 'allow.1': '"*": a wildcard may only be a whole first label, as in *.example.com', 'deny.0': 'a rule cannot be empty' });
    expect(egressErrorsFromFields({ 'egress.deny.3': 'bad', egress: 'worse' })).toEqual({ rows: { 'deny.3': 'bad' }, lists: ['egress: worse'] });
  });
});

describe('EgressCard', () => {
  it('previews each rule, shows a typed mistake in the parser\'s words, and will not save until it is fixed', async () => {
    fakeApi.handle('settings.update', ({ patch }) => ({ settings: { ...settings, ...patch } as Settings, changed: ['egress.allow', 'egress.deny'] }));
    render(<EgressCard view={view} />);
    expect(screen.getByText('Matches api.example.com only (not its subdomains), port 443')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Code in every sandbox can send data to the allowed hosts.');
    fireEvent.click(screen.getByRole('button', { name: 'Add denied host' }));
    const deny = screen.getByRole('textbox', { name: 'Denied host 1' });
    fireEvent.change(deny, { target: { value: 'evil.example:99999' } });
    expect(screen.getByRole('alert').textContent).toBe('the port 99999 is not between 1 and 65535');
    expect(deny.getAttribute('aria-invalid')).toBe('true');
    const save = screen.getByRole('button', { name: 'Save egress rules' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(deny, { target: { value: ' evil.example ' } });
    expect(screen.getByText('Matches evil.example only (not its subdomains), any port')).toBeTruthy();
    await act(async () => {
      fireEvent.click(save);
    });
    expect(fakeApi.callsOf('settings.update')).toEqual([{ patch: { egress: { allow: ['api.example.com:443'], deny: ['evil.example'] } } }]);
  });

  it('removes a rule, and puts the server\'s field error back on its row', async () => {
    fakeApi.handle('settings.update', () => {
      throw new ApiCallError({ code: 'invalid_config', message: 'Some settings are not valid', fields: { 'egress.allow.0': 'the server says no' } });
    });
    render(<EgressCard view={{ ...view, settings: { ...settings, egress: { allow: ['a.example', 'b.example'], deny: [] } } }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove a.example' }));
    expect(screen.getAllByRole('textbox').map((i) => (i as HTMLInputElement).value)).toEqual(['b.example']);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save egress rules' }));
    });
    expect(fakeApi.callsOf('settings.update')).toEqual([{ patch: { egress: { allow: ['b.example'], deny: [] } } }]);
    expect(screen.getByRole('alert').textContent).toBe('the server says no');
  });

  it('shows secrets by name and the CA file, never a value, with nothing to change them', () => {
    const { container } = render(<EgressCard view={view} />);
    const secrets = screen.getByRole('list', { name: 'Secrets' });
    expect(within(secrets).getByText('API_KEY')).toBeTruthy();
    expect(secrets.textContent).toContain('sent in the X-Api-Key header to api.example.com');
    expect(container.textContent).toContain('/etc/company-ca.pem');
    expect(container.textContent).not.toContain('(hidden)');
    expect(container.textContent).toContain('changed in /home/u/.config/sandbar/settings.json, never from this panel');
    // Every box on the card is a rule: no control edits a secret or the CA file.
    expect(screen.getAllByRole('textbox').map((i) => i.getAttribute('aria-label'))).toEqual(['Allowed host 1']);
  });

  it('has no controls when a variable or flag sets egress', () => {
    render(<EgressCard view={{ ...view, locked: [{ path: 'egress', source: 'SANDBAR_EGRESS' }] }} />);
    expect((screen.getByRole('textbox', { name: 'Allowed host 1' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: /Save|Add|Remove/ })).toBeNull();
    expect(screen.getByText('Set by SANDBAR_EGRESS.')).toBeTruthy();
  });
});
