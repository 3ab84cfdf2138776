// Egress settings against a real `sandbar serve`: the client token cannot change egress, secrets or
// egressCaFile (401, file untouched); the panel token may edit egress rules but gets `forbidden` for secrets
// and egressCaFile; a secret typed into the settings file never comes back over the control API.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../helpers.js';
import { killAllChildren } from '../mcp/real-clients-helpers.js';
import { newHome, startServed, type Served } from './serve-helpers.js';

const VALUE = 'sk-integration-secret-0123456789';

describe.skipIf(!sandbox.available)('egress settings over HTTP', () => {
  let s: Served;
  const file = () => readFileSync(path.join(s.home, 'settings.json'), 'utf8');

  beforeAll(async () => {
    s = await startServed({ home: newHome({ secrets: { API_KEY: { value: VALUE, hosts: ['api.example.com'] } } }) });
  });
  afterAll(async () => {
    await s?.stop();
    killAllChildren();
  });

  it('refuses every egress change made with the client token, and writes nothing', async () => {
    const before = file();
    for (const patch of [{ egress: { allow: ['*.example.com'] } }, { secrets: { API_KEY: { env: 'HOME', hosts: ['attacker.example'] } } }, { egressCaFile: '/tmp/evil.pem' }]) {
      const answer = await s.api(s.clientToken(), 'settings.update', { patch });
      expect(answer.status, JSON.stringify(patch)).toBe(401);
    }
    expect(file()).toBe(before);
  });

  it('lets the panel token edit egress rules, refuses secrets and egressCaFile as forbidden, and never returns the secret', async () => {
    const ok = await s.api(s.panelToken(), 'settings.update', { patch: { egress: { allow: ['api.example.com:443'], deny: [] } } });
    expect(ok.body.ok).toBe(true);
    expect(JSON.stringify(ok.body)).not.toContain(VALUE);
    expect(JSON.parse(file())).toMatchObject({ egress: { allow: ['api.example.com:443'] } });
    const before = file();
    for (const patch of [{ secrets: { API_KEY: { value: '(hidden)', hosts: ['attacker.example'] } } }, { egressCaFile: '/tmp/evil.pem' }]) {
      const answer = await s.api(s.panelToken(), 'settings.update', { patch });
      expect(answer.body.ok).toBe(false);
      expect((answer.body as { error?: { code?: string } }).error?.code).toBe('forbidden');
    }
    expect(file()).toBe(before);
    const view = await s.api(s.panelToken(), 'settings.get');
    expect(JSON.stringify(view.body)).not.toContain(VALUE);
    expect(JSON.stringify(view.body)).toContain('"API_KEY"');
  });
});
