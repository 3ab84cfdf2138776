// @vitest-environment jsdom
// A run's figures and files in the History detail: PNG/JPEG thumbnails as blob URLs fetched on demand,
// SVG and other types as file chips (never an <img>), open in a dialog, save as a download, refusals shown.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HistoryPanel } from '../../../../renderer/features/history/history-panel.js';
import { useHistoryStore } from '../../../../renderer/stores/history-store.js';
import { connectFake } from './connect-fake.js';
import { detailOf, FakeHistoryApi, makeItems, settle } from './fake-history-api.js';

vi.mock('../../../../renderer/api/index.js', async () => (await import('./api-holder.js')).apiModule);

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString('base64');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64');

let fake: FakeHistoryApi;
let created: Blob[];
let revoked: string[];

beforeEach(async () => {
  created = [];
  revoked = [];
  // jsdom has no object URLs: record what the panel makes and lets go of.
  URL.createObjectURL = vi.fn((blob: Blob) => {
    created.push(blob);
    return `blob:test/${created.length}`;
  });
  URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
  useHistoryStore.getState().reset();
  const items = makeItems(3);
  fake = new FakeHistoryApi(items);
  fake.details.set('run-1', {
    ...detailOf(items[1]!),
    artifacts: [
      { name: 'figure-1.png', mimeType: 'image/png', size: 11, source: 'figure', width: 1200, height: 800, title: 'Sales' },
      { name: 'display-2.svg', mimeType: 'image/svg+xml', size: 70, source: 'display' },
      { name: 'out/report.csv', mimeType: 'text/csv', size: 7, source: 'file' },
    ],
    refusedArtifacts: [{ name: 'figure-3.png', source: 'figure', reason: 'image is 20000×100 px; the limit is 8000 px' }],
  });
  fake.artifacts.set('run-1/figure-1.png', { mimeType: 'image/png', data: PNG });
  fake.artifacts.set('run-1/display-2.svg', { mimeType: 'image/svg+xml', data: SVG });
  fake.artifacts.set('run-1/out/report.csv', { mimeType: 'text/csv', data: Buffer.from('a,b\n1,2').toString('base64') });
  connectFake(fake);
  window.location.hash = '#/history/run-1';
  render(<HistoryPanel />);
  await act(settle);
  await act(settle);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  useHistoryStore.getState().reset();
});

const pane = () => screen.getByRole('complementary', { name: /Run run-1/ });
const artifactCalls = () => fake.calls.filter((c) => c.method === 'executions.artifact').map((c) => c.args);

describe('figures and files in the History detail', () => {
  it('shows a PNG as a thumbnail from a blob URL holding exactly the stored bytes', async () => {
    const thumbs = within(pane()).getByRole('list', { name: 'Figures and images' });
    const img = within(thumbs).getByRole('img', { name: "figure figure-1.png: 'Sales', 1200×800" }) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('blob:test/1');
    expect(created).toHaveLength(1);
    expect(created[0]!.type).toBe('image/png');
    expect(Buffer.from(await created[0]!.arrayBuffer()).toString('base64')).toBe(PNG);
    // Only the thumbnail's bytes were fetched: files are fetched when saved.
    expect(artifactCalls()).toEqual([{ runId: 'run-1', name: 'figure-1.png' }]);
  });

  it('never renders SVG: it is a file chip like any other file', () => {
    const files = within(pane()).getByRole('list', { name: 'Files' });
    expect(within(files).getByText('display-2.svg')).toBeTruthy();
    expect(within(files).getByText('out/report.csv')).toBeTruthy();
    expect(pane().querySelectorAll('img')).toHaveLength(1);
    expect(pane().innerHTML).not.toContain('<svg xmlns');
  });

  it('says what was not kept, and why', () => {
    const refused = within(pane()).getByRole('list', { name: 'Not kept' });
    expect(refused.textContent).toContain('figure-3.png');
    expect(refused.textContent).toContain('image is 20000×100 px; the limit is 8000 px');
  });

  it('opens a larger view in a dialog and saves from there', async () => {
    fireEvent.click(within(pane()).getByRole('button', { name: /^Open figure figure-1.png/ }));
    const dialog = screen.getByRole('dialog', { name: 'Sales' });
    expect((within(dialog).getByRole('img') as HTMLImageElement).getAttribute('src')).toBe('blob:test/1');
    const clicks: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ href: this.href, download: this.download });
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save figure-1.png' }));
    expect(clicks).toEqual([{ href: 'blob:test/2', download: 'figure-1.png' }]);
  });

  it('saves a file under its own name, fetching its bytes on demand', async () => {
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    fireEvent.click(within(pane()).getByRole('button', { name: 'Save out/report.csv' }));
    await act(settle);
    expect(clicks).toEqual(['report.csv']);
    expect(artifactCalls()).toContainEqual({ runId: 'run-1', name: 'out/report.csv' });
    const saved = created.at(-1)!;
    expect(saved.type).toBe('text/csv');
    expect(await saved.text()).toBe('a,b\n1,2');
  });

  it('lets go of its object URLs when the detail closes', () => {
    cleanup();
    expect(revoked).toContain('blob:test/1');
  });

  it('says so in place of the thumbnail when the bytes cannot be loaded (run gone from history)', async () => {
    cleanup();
    fake.artifacts.delete('run-1/figure-1.png');
    useHistoryStore.getState().reset();
    render(<HistoryPanel />);
    await act(settle);
    await act(settle);
    expect(within(pane()).getByRole('alert').textContent).toMatch(/Could not load figure-1.png: No artifact 'figure-1.png' of execution run-1/);
  });
});
