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
  { pattern: '**/.git/**', access: 'write' },
  { pattern: '**/.gitattributes', access: 'write' },
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
  { pattern: '**/.devcontainer/**', access: 'write' },
  { pattern: '**/.npmrc', access: 'any' },
  { pattern: '**/.yarnrc*', access: 'write' },
  { pattern: '**/.pypirc', access: 'any' },
  { pattern: '**/pip.conf', access: 'write' },
  { pattern: '**/.cargo/config*', access: 'write' },
  // Files that run as code later: package scripts and hooks, test-runner configuration and plugins,
  // build scripts, make and task files, interpreter start-up files, shell start-up files.
  { pattern: '**/package.json', access: 'write' },
  {
    pattern: '**/{.pnpmfile.cjs,pnpmfile.js,.yarn/plugins/**,.yarnrc.yml,bunfig.toml,deno.json,deno.jsonc}',
    access: 'write',
  },
  {
    pattern:
      '**/{conftest.py,pytest.ini,tox.ini,noxfile.py,setup.py,setup.cfg,pyproject.toml,sitecustomize.py,usercustomize.py,*.pth,manage.py}',
    access: 'write',
  },
  {
    pattern:
      '**/{Makefile,makefile,GNUmakefile,*.mk,justfile,Justfile,.justfile,Taskfile.y{,a}ml,Rakefile,*.rake,Gemfile,*.gemspec,Guardfile,Vagrantfile}',
    access: 'write',
  },
  {
    pattern:
      '**/{build.rs,Cargo.toml,build.gradle,build.gradle.kts,settings.gradle,settings.gradle.kts,gradlew,gradle/wrapper/**,pom.xml,.mvn/**,build.xml,build.sbt,CMakeLists.txt,*.cmake,meson.build,BUILD,BUILD.bazel,WORKSPACE,MODULE.bazel,*.bzl,.bazelrc,go.mod,composer.json}',
    access: 'write',
  },
  {
    pattern:
      '**/{vitest,vite,jest,webpack,rollup,babel,eslint,prettier,playwright,cypress,karma,svelte,next,nuxt,astro,tailwind,postcss,stylelint,lint-staged,commitlint,tsup,esbuild}.config.*',
    access: 'write',
  },
  {
    pattern:
      '**/{.babelrc*,.eslintrc*,.prettierrc*,.mocharc*,.lintstagedrc*,.stylelintrc*,.swcrc,jest.setup.*,vitest.setup.*,.lefthook*,lefthook.y{,a}ml,.envrc,.tool-versions,.mise.toml,mise.toml}',
    access: 'write',
  },
  {
    pattern:
      '**/{.bashrc,.bash_profile,.bash_login,.profile,.zshrc,.zshenv,.zprofile,.inputrc,.gitconfig,.npmrc,.curlrc,.wgetrc,.lesskey,.vimrc,.exrc,.nvimrc}',
    access: 'write',
  },
  { pattern: '**/.vscode/**', access: 'write' },
  { pattern: '**/.idea/**', access: 'write' },
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

/** Answers of {@link sensitiveMatch} kept per list and access (a list is one configuration's `sensitivePaths`). */
export const SENSITIVE_MEMO_SIZE = 4096;

/** One list's combined matcher per access and its memo of answers (`null`: not sensitive). */
interface ListMatch {
  test: (path: string) => boolean;
  memo: Map<string, SensitivePath | null>;
}
const byList = new WeakMap<readonly SensitivePath[], Record<'read' | 'write', ListMatch>>();

/** The picomatch matcher (`dot: true`) of one glob, made once per pattern and kept. */
export function globMatcher(pattern: string): (path: string) => boolean {
  let matcher = matchers.get(pattern);
  if (!matcher) {
    matcher = picomatch(pattern, { dot: true });
    matchers.set(pattern, matcher);
  }
  return matcher;
}

function listMatch(list: readonly SensitivePath[], access: 'read' | 'write'): ListMatch {
  const patterns = list.filter((e) => e.access === 'any' || e.access === access).map((e) => e.pattern);
  return { test: patterns.length > 0 ? picomatch(patterns, { dot: true }) : () => false, memo: new Map() };
}

/**
 * The first sensitive entry that `relative` (a workspace-relative, `/`-separated path) matches
 * for `access`, or undefined. One combined matcher per list and access answers the common case
 * (no match) in a single test; answers are remembered per list and access (at most
 * {@link SENSITIVE_MEMO_SIZE}, oldest dropped first), so a path checked again costs a lookup. The
 * list is taken as immutable (a configuration's), like every cache keyed by it.
 */
export function sensitiveMatch(
  relative: string,
  access: 'read' | 'write',
  list: readonly SensitivePath[],
): SensitivePath | undefined {
  let lists = byList.get(list);
  if (!lists) {
    lists = { read: listMatch(list, 'read'), write: listMatch(list, 'write') };
    byList.set(list, lists);
  }
  const { test, memo } = lists[access];
  const known = memo.get(relative);
  if (known !== undefined) return known ?? undefined;
  const found = test(relative)
    ? list.find(
        (entry) =>
          (entry.access === 'any' || entry.access === access) && globMatcher(entry.pattern)(relative),
      )
    : undefined;
  if (memo.size >= SENSITIVE_MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(relative, found ?? null);
  return found;
}
