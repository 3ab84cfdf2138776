// Which sandbox backend the settings pick. Each backend other than the CLI runtimes brings its own choice
// (which setting selects it, what it is made from); Podman and Docker take everything else, found by the
// runtime locator. Adding a backend adds one entry here and its own folder under sandbox/.
import type { Settings } from '../shared/settings.js';
import type { Owner, SandboxBackend } from './sandbox/backend.js';
import { CliBackend } from './sandbox/cli/cli-backend.js';
import type { ContainerRuntime } from './sandbox/cli/container-runtime.js';
import { kubernetesChoice } from './sandbox/kubernetes/kubernetes-choice.js';
import { SETTINGS_FILE } from './settings/paths.js';

interface BackendChoice {
  settingKeys: readonly string[];
  chosen(settings: Pick<Settings, 'runtime'>): boolean;
  create(settings: Settings, owner: Owner, bootModules: () => Record<string, string>): SandboxBackend;
}

const CHOICES: readonly BackendChoice[] = [kubernetesChoice];

/** Settings any backend is made from (a change makes the engine switch). */
export const BACKEND_SETTING_KEYS = [...new Set(CHOICES.flatMap((c) => c.settingKeys))];

/** The `runtime` setting when it names a CLI runtime (podman, docker, or a path to one). */
export function cliRuntimeChoice(settings: Pick<Settings, 'runtime'>): { value: string; label: string } | undefined {
  if (!settings.runtime || CHOICES.some((c) => c.chosen(settings))) return undefined;
  return { value: settings.runtime, label: `${SETTINGS_FILE}: runtime` };
}

export class BackendChooser {
  private readonly cli: CliBackend;

  constructor(
    runtime: ContainerRuntime,
    private readonly owner: Owner,
    private readonly bootModules: () => Record<string, string>,
  ) {
    this.cli = new CliBackend(runtime, owner, bootModules);
  }

  /** The CLI backend is one object for the process (it follows the runtime setting itself). */
  backendFor(settings: Settings): SandboxBackend {
    return CHOICES.find((c) => c.chosen(settings))?.create(settings, this.owner, this.bootModules) ?? this.cli;
  }
}
