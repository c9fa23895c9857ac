/**
 * Sensitive paths: files inside the workspace that still need a human's approval, because
 * writing them runs code later (git hooks, CI workflows, package-manager configuration, editor
 * tasks) or reading them exposes credentials (`.env`, SSH and cloud keys). A sensitive path asks
 * at least, whatever the path rules say; a rule may still deny it. Handed cases E04
 * (gemini-cli#9181, a write into `.git/hooks`) and F02 (OpenHands/software-agent-sdk#2543, an
 * attacker's registry in `.npmrc`).
 */
import picomatch from 'picomatch';

/** A sensitive path: a glob over the path relative to the workspace (picomatch, `dot: true`). */
export interface SensitivePath {
  pattern: string;
  /** Which access needs approval: `write` for files that run code, `any` for credentials. */
  access: 'read' | 'write' | 'any';
}

/** The default list. Globs start with `**` so they match at any depth. */
export const DEFAULT_SENSITIVE_PATHS: readonly SensitivePath[] = [
  { pattern: '**/.git/hooks/**', access: 'write' },
  { pattern: '**/.git/config', access: 'write' },
  { pattern: '**/.git/info/**', access: 'write' },
  { pattern: '**/.gitmodules', access: 'write' },
  { pattern: '**/.husky/**', access: 'write' },
  { pattern: '**/.github/workflows/**', access: 'write' },
  { pattern: '**/.github/actions/**', access: 'write' },
  { pattern: '**/.gitlab-ci.yml', access: 'write' },
  { pattern: '**/.circleci/**', access: 'write' },
  { pattern: '**/.buildkite/**', access: 'write' },
  { pattern: '**/.travis.yml', access: 'write' },
  { pattern: '**/azure-pipelines.yml', access: 'write' },
  { pattern: '**/Jenkinsfile', access: 'write' },
  { pattern: '**/.pre-commit-config.yaml', access: 'write' },
  { pattern: '**/.vscode/{settings,tasks,launch}.json', access: 'write' },
  { pattern: '**/.devcontainer/**', access: 'write' },
  { pattern: '**/.npmrc', access: 'any' },
  { pattern: '**/.yarnrc*', access: 'write' },
  { pattern: '**/.pypirc', access: 'any' },
  { pattern: '**/pip.conf', access: 'write' },
  { pattern: '**/.cargo/config*', access: 'write' },
  { pattern: '**/.env', access: 'any' },
  { pattern: '**/.env.*', access: 'any' },
  { pattern: '**/.envrc', access: 'any' },
  { pattern: '**/.netrc', access: 'any' },
  { pattern: '**/.git-credentials', access: 'any' },
  { pattern: '**/.ssh/**', access: 'any' },
  { pattern: '**/id_{rsa,dsa,ecdsa,ed25519}*', access: 'any' },
  { pattern: '**/*.pem', access: 'any' },
  { pattern: '**/*.key', access: 'any' },
  { pattern: '**/.aws/**', access: 'any' },
  { pattern: '**/.config/gcloud/**', access: 'any' },
  { pattern: '**/.azure/**', access: 'any' },
  { pattern: '**/.kube/config', access: 'any' },
  { pattern: '**/.docker/config.json', access: 'any' },
  { pattern: '**/.gnupg/**', access: 'any' },
];

const matchers = new Map<string, (path: string) => boolean>();
const combined = new WeakMap<readonly SensitivePath[], Record<'read' | 'write', (path: string) => boolean>>();

function matcherFor(pattern: string): (path: string) => boolean {
  let matcher = matchers.get(pattern);
  if (!matcher) {
    matcher = picomatch(pattern, { dot: true });
    matchers.set(pattern, matcher);
  }
  return matcher;
}

/**
 * The first sensitive entry that `relative` (a workspace-relative, `/`-separated path) matches
 * for `access`, or undefined. One combined matcher per list and access answers the common case
 * (no match) in a single test.
 */
export function sensitiveMatch(
  relative: string,
  access: 'read' | 'write',
  list: readonly SensitivePath[],
): SensitivePath | undefined {
  let any = combined.get(list);
  if (!any) {
    const forAccess = (a: 'read' | 'write') => {
      const patterns = list.filter((e) => e.access === 'any' || e.access === a).map((e) => e.pattern);
      return patterns.length > 0 ? picomatch(patterns, { dot: true }) : () => false;
    };
    any = { read: forAccess('read'), write: forAccess('write') };
    combined.set(list, any);
  }
  if (!any[access](relative)) return undefined;
  return list.find(
    (entry) => (entry.access === 'any' || entry.access === access) && matcherFor(entry.pattern)(relative),
  );
}
