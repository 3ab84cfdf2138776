// The judge of `folders` for this process: the user's home, SANDBAR_HOME and the runtime sockets the
// environment names. One place, so settings updates, the composer and `doctor` judge alike.
import { homedir } from 'node:os';
import path from 'node:path';
import { packageRoot } from '../package-info.js';
import { FolderJudge } from './folder-judge.js';
import { sandbarHome } from './paths.js';

export function folderJudgeFor(env: NodeJS.ProcessEnv): FolderJudge {
  const home = env.HOME || env.USERPROFILE || homedir();
  // Packaged, the root is resources/app.asar: the folder around it holds the unpacked profile too.
  const root = packageRoot();
  const appDir = /\.asar$/.test(root) ? path.dirname(root) : root;
  return new FolderJudge({ home, sandbarHome: sandbarHome(env, process.platform, home), env, appDir });
}
