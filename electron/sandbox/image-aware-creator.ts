// How the engine makes a container: a pooled one imports the preloads while it waits and gets the image's
// Matplotlib font list (built once, on the first fill); a cold start never waits for a build or a lookup:
// it takes the list if one is known (kept on disk by an earlier pool) and learns the image's key for the
// next start, unless the process runs only one run.
import { runFolderOf, type RunFolder } from '../../shared/folders.js';
import type { SandboxBackend } from './backend.js';
import type { SandboxContainer } from './run/sandbox-container.js';
import { buildFontList, FontListCache } from './warm-imports.js';

export class ImageAwareCreator {
  private readonly fontLists: FontListCache;
  private readonly imageKeys = new Map<string, string>();
  /** The user's folders each sandbox was made with (every run in it records them). */
  private readonly folders = new WeakMap<SandboxContainer, RunFolder[]>();

  constructor(
    private readonly options: { fontCacheDir?: string; oneShot?: boolean },
    /** Told of every container made, with the backend that made it (its clean-up must use the same one). */
    private readonly made: (container: SandboxContainer, backend: SandboxBackend) => void,
  ) {
    this.fontLists = new FontListCache(options.fontCacheDir);
  }

  for(backend: SandboxBackend): Pick<SandboxBackend, 'create'> {
    return {
      create: async (spec, options = {}) => {
        const warm = options.warm === true;
        const key = warm ? await this.imageKey(backend, spec.image) : this.imageKeys.get(`${backend.kind}:${spec.image}`);
        if (!warm && !key && !this.options.oneShot) void this.imageKey(backend, spec.image).catch(() => {});
        const fonts = !key ? undefined : warm ? await this.fontLists.get(key, () => buildFontList(backend, spec)) : this.fontLists.peek(key);
        const preload = warm ? spec.preload : undefined;
        const container = await backend.create(spec, { ...options, ...(preload ? { preload } : {}), ...(fonts ? { mplFontCache: fonts } : {}) });
        this.made(container, backend);
        // A session's sandbox keeps the folders it was made with, whatever the settings say later.
        if (spec.folders?.length) this.folders.set(container, spec.folders.map(runFolderOf));
        return container;
      },
    };
  }

  /** `{ folders }` for a run in this sandbox, or nothing when it has none. */
  foldersOf(container: SandboxContainer): { folders?: RunFolder[] } {
    const folders = this.folders.get(container);
    return folders ? { folders } : {};
  }

  /** After a config change: an image rebuilt under the same tag gets its own font list. */
  forgetImages(): void {
    this.imageKeys.clear();
  }

  /**
   * What per-image caches are keyed by: the image id where the backend sees one, else the reference.
   * Looked up once per image and engine config (a pooled start asks; cold starts only read it).
   */
  private async imageKey(backend: SandboxBackend, image: string): Promise<string> {
    const ref = `${backend.kind}:${image}`;
    let key = this.imageKeys.get(ref);
    if (!key) {
      key = `${backend.kind}:${(await backend.imageId?.(image).catch(() => null)) ?? `ref:${image}`}`;
      this.imageKeys.set(ref, key);
    }
    return key;
  }
}
