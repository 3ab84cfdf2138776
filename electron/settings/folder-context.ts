// The judge of `folders` for this process: the user's home, SANDBAR_HOME and the runtime sockets the
// environment names. One place, so settings updates, the composer and `doctor` judge alike.
import { homedir } from 'node:os';
import { FolderJudge } from './folder-judge.js';
import { sandbarHome } from './paths.js';

export function folderJudgeFor(env: NodeJS.ProcessEnv): FolderJudge {
  const home = env.HOME || env.USERPROFILE || homedir();
  return new FolderJudge({ home, sandbarHome: sandbarHome(env, process.platform, home), env });
}
