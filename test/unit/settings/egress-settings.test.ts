// Egress settings through the settings service and the control API: `egress` is an ordinary setting (the
// Limits view edits it over HTTP), `secrets` and `egressCaFile` are host-affecting, and a secret's typed-in
// value never leaves the service in a view, a change or a confirmation.
import { describe, expect, it, vi } from 'vitest';
import { controlMethods, type ControlServices } from '../../../electron/control/control-methods.js';
import { ControlRouter } from '../../../electron/control/router.js';
import { SECRET_MASK } from '../../../shared/egress-settings.js';
import { fileJson, fileText, homeWith, json, refusal, serviceOn } from './settings-helpers.js';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const VALUE = 'sk-live-0123456789abcdef';
const WITH_SECRET = json({ secrets: { API_KEY: { value: VALUE, hosts: ['api.example.com'] } } });

function routerOn(home: string, confirmHostExec?: ControlServices['confirmHostExec']) {
  const settings = serviceOn(home);
  const services = { settings, ...(confirmHostExec ? { confirmHostExec } : {}) } as unknown as ControlServices;
  return { router: new ControlRouter(controlMethods(services), quiet as never), settings };
}

describe('egress settings in the service', () => {
  it('lets the panel (HTTP) set egress rules, and refuses an invalid one naming it', async () => {
    const home = homeWith('{}');
    const { router } = routerOn(home);
    const ok = await router.call('settings.update', { patch: { egress: { allow: ['api.example.com:443'], deny: ['10.0.0.0/8'] } } }, { transport: 'http' });
    expect(ok.ok).toBe(true);
    expect(fileJson(home)).toMatchObject({ egress: { allow: ['api.example.com:443'], deny: ['10.0.0.0/8'] } });
    const bad = await router.call('settings.update', { patch: { egress: { allow: ['*'] } } }, { transport: 'http' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.fields?.['egress.allow.0']).toMatch(/whole first label/);
  });

  it('never shows a typed-in secret: view, the change returned, the change sent to subscribers', () => {
    const home = homeWith(WITH_SECRET);
    const settings = serviceOn(home);
    const seen: string[] = [];
    settings.subscribe((change) => seen.push(JSON.stringify(change)));
    expect(JSON.stringify(settings.view())).not.toContain(VALUE);
    expect(settings.view().settings.secrets.API_KEY!.value).toBe(SECRET_MASK);
    const change = settings.update({ egress: { allow: ['api.example.com'] } });
    expect(JSON.stringify(change)).not.toContain(VALUE);
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toContain(VALUE);
    // get() (the engine's side) has the value.
    expect(settings.get().secrets.API_KEY!.value).toBe(VALUE);
  });

  it('keeps the stored value when the mask comes back (a whole form saved), and changes nothing host-affecting', () => {
    const home = homeWith(WITH_SECRET);
    const settings = serviceOn(home);
    const form = settings.view().settings;
    expect(settings.hostExecChanges({ secrets: form.secrets })).toEqual([]);
    settings.update({ secrets: form.secrets, egress: { allow: ['api.example.com'] } });
    expect(fileJson(home)).toMatchObject({ secrets: { API_KEY: { value: VALUE, hosts: ['api.example.com'] } } });
  });

  it('refuses the mask for a secret with no stored value, naming the field', () => {
    const home = homeWith('{}');
    const err = refusal(() => serviceOn(home).update({ secrets: { NEW: { value: SECRET_MASK, hosts: ['api.example.com'] } } }));
    expect(err.code).toBe('invalid_config');
    expect(err.fields?.['secrets.NEW.value']).toMatch(/type the secret itself/);
  });

  it('over IPC asks about a new secret by its source and hosts, never its value', async () => {
    const home = homeWith('{}');
    const confirm = vi.fn(async () => true);
    const { router } = routerOn(home, confirm);
    const patch = { secrets: { API_KEY: { value: VALUE, hosts: ['api.example.com', '*.example.org'], header: 'X-Api-Key: {secret}' } } };
    const answer = await router.call('settings.update', { patch }, { transport: 'ipc' });
    expect(answer.ok).toBe(true);
    expect(confirm).toHaveBeenCalledTimes(1);
    const asked = JSON.stringify(confirm.mock.calls[0]);
    expect(asked).not.toContain(VALUE);
    expect(asked).toContain('secrets.API_KEY');
    expect(asked).toContain('a typed-in value (hidden)');
    expect(asked).toContain('X-Api-Key');
    expect(asked).toContain('*.example.org');
    if (answer.ok) expect(JSON.stringify(answer.value)).not.toContain(VALUE);
  });

  it('lets HTTP remove a secret (narrowing asks nobody), but not point it at another host', async () => {
    const home = homeWith(WITH_SECRET);
    const { router } = routerOn(home);
    const moved = await router.call('settings.update', { patch: { secrets: { API_KEY: { value: SECRET_MASK, hosts: ['attacker.example'] } } } }, { transport: 'http' });
    expect(moved.ok).toBe(false);
    if (!moved.ok) {
      expect(moved.error.code).toBe('forbidden');
      // Said for what it is: a credential leaving, not a command running; the value is never in it.
      expect(moved.error.message).toMatch(/^secrets\.API_KEY: secrets and the egress CA file decide which credential leaves this computer/);
      expect(moved.error.fields?.['secrets.API_KEY']).toMatch(/^decides which credential leaves this computer, and for which hosts, so it cannot be changed here; edit .*settings\.json/);
      expect(JSON.stringify(moved.error)).not.toContain(VALUE);
    }
    const removed = await router.call('settings.update', { patch: { secrets: { API_KEY: null } } }, { transport: 'http' });
    expect(removed.ok).toBe(true);
    expect(fileJson(home)).not.toHaveProperty('secrets.API_KEY');
  });

  it('has no way around the rule: the whole secrets object, a cleared or replaced CA file, a rename', async () => {
    const home = homeWith(json({ secrets: { API_KEY: { value: VALUE, hosts: ['api.example.com'] } }, egressCaFile: '/etc/company-ca.pem' }));
    const before = fileText(home);
    const { router } = routerOn(home);
    const attempts = [
      { patch: { secrets: null }, code: 'invalid_config' },
      { patch: { secrets: [] }, code: 'invalid_config' },
      { patch: { egressCaFile: null }, code: 'forbidden', field: 'egressCaFile' },
      { patch: { egressCaFile: '/tmp/evil.pem' }, code: 'forbidden', field: 'egressCaFile' },
      { patch: { secrets: { API_KEY: null, OTHER: { value: SECRET_MASK, hosts: ['api.example.com'] } } }, code: 'invalid_config' },
      { patch: { secrets: { OTHER: { env: 'API_KEY', hosts: ['api.example.com'] } } }, code: 'forbidden', field: 'secrets.OTHER' },
    ];
    for (const { patch, code, field } of attempts) {
      const answer = await router.call('settings.update', { patch }, { transport: 'http' });
      expect(answer.ok, JSON.stringify(patch)).toBe(false);
      if (!answer.ok) {
        expect(answer.error.code, JSON.stringify(patch)).toBe(code);
        if (field) expect(Object.keys(answer.error.fields ?? {})).toEqual([field]);
      }
      expect(fileText(home)).toBe(before);
    }
    // Cleared, the CA file is described for what clearing means.
    expect(serviceOn(home).hostExecChanges({ egressCaFile: null })).toEqual([{ field: 'egressCaFile', command: 'egressCaFile: (the system CAs only)' }]);
  });
});

