/**
 * The host environment a command adapter's process starts from (`docs/adapters.md`, "What the
 * harness gets"): the bench's own variables minus every secret-named one, with a scratch home and
 * temp folder of the case, so a harness that runs `env` shows no credential of the machine and one
 * that runs `git config --global` (or writes any dotfile) changes only its scratch home.
 *
 * Dropped: names matching {@link SECRET_NAME} (tokens, secrets, passwords, API and access keys,
 * credentials, auth, cookies, sessions) or ending in `_KEY`, and the credential prefixes of
 * {@link SECRET_PREFIXES}. Replaced: `HOME`, `TMPDIR`, `XDG_CONFIG_HOME`, `XDG_CACHE_HOME`,
 * `XDG_DATA_HOME`, `GIT_CONFIG_GLOBAL`. Kept where the host's home holds them: the roots of tool
 * managers that find their installs through `HOME` (`PYENV_ROOT`, `NVM_DIR`, …), so a `python3` or
 * `node` shim still resolves. The bench's endpoint variables (`OPENAI_API_KEY` and the others)
 * are added after this, by `commandEnv`.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { SECRET_NAME } from '../../harness/policy/programs/secrets.ts';

/** Prefixes of variables that hold cloud or registry credentials or point at them. */
export const SECRET_PREFIXES: readonly string[] = [
  'AWS_',
  'AZURE_',
  'GOOGLE_',
  'GCP_',
  'GCLOUD_',
  'GH_',
  'GITHUB_',
  'GITLAB_',
  'NPM_',
  'OPENAI_',
  'ANTHROPIC_',
  'HF_',
  'HUGGING',
  'DOCKER_',
  'SSH_',
  'GPG_',
];

/** Tool-manager roots under the home folder, by the variable that names them. */
const TOOL_ROOTS: Readonly<Record<string, string>> = {
  PYENV_ROOT: '.pyenv',
  NVM_DIR: '.nvm',
  ASDF_DATA_DIR: '.asdf',
  VOLTA_HOME: '.volta',
  RUSTUP_HOME: '.rustup',
  CARGO_HOME: '.cargo',
};

/** True for a variable name the harness under test must not see. Pure. */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_NAME.test(name) || upper.endsWith('_KEY') || SECRET_PREFIXES.some((p) => upper.startsWith(p));
}

/**
 * The environment of a harness process of one case: `host` scrubbed (see the module comment), its
 * home and temp folder inside `scratch` (created). Never throws but for a `scratch` it cannot write.
 */
export function harnessEnv(host: NodeJS.ProcessEnv, scratch: string): Record<string, string> {
  const home = path.join(scratch, 'home');
  const tmp = path.join(scratch, 'tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(host))
    if (value !== undefined && !isSecretName(name)) out[name] = value;
  const hostHome = host.HOME;
  for (const [name, folder] of Object.entries(TOOL_ROOTS)) {
    if (host[name] !== undefined) continue;
    if (hostHome && existsSync(path.join(hostHome, folder))) out[name] = path.join(hostHome, folder);
  }
  return {
    ...out,
    HOME: home,
    TMPDIR: tmp,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig'),
  };
}
