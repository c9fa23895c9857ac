/**
 * Interpreters, test runners, build tools and package managers: which of their calls reach the
 * network (installs, publishes), which run code the repository contains or configures (a script
 * file, a test suite, a Makefile, a package.json script, a build script), and the files their
 * options name (`pytest --junitxml`, `node --require`, `python -m pytest`). pytest's `--pastebin`
 * posts to a paste service, `-p` loads a plugin module, `--tx`/`-d`/`--rsyncdir` (pytest-xdist)
 * start remote workers over ssh; `--rootdir`/`--confcutdir` decide which conftest.py files load
 * (pytest docs, "Command-line Flags" and "conftest.py: local per-directory plugins").
 */
import { firstOperand, has, literal, read, sliced, write } from './helpers.ts';
import type { ProgramCall, ProgramEffects, ProgramRecord } from './types.ts';

const V = 'value' as const;
const R = 'read' as const;
const W = 'write' as const;

/** The network subcommands of package managers and container tools. */
const NETWORK_SUBCOMMANDS: Record<string, Set<string>> = {
  npm: new Set([
    'install',
    'i',
    'ci',
    'add',
    'update',
    'up',
    'publish',
    'exec',
    'x',
    'login',
    'adduser',
    'unpublish',
    'deprecate',
    'dist-tag',
    'create',
    'init',
  ]),
  pnpm: new Set(['install', 'i', 'add', 'update', 'up', 'publish', 'dlx', 'exec', 'create']),
  yarn: new Set(['install', 'add', 'upgrade', 'publish', 'dlx', 'create', 'npm']),
  bun: new Set(['install', 'add', 'update', 'publish', 'x', 'create']),
  pip: new Set(['install', 'download', 'wheel']),
  pip3: new Set(['install', 'download', 'wheel']),
  uv: new Set(['add', 'sync', 'pip', 'tool', 'run', 'publish']),
  poetry: new Set(['add', 'install', 'update', 'publish']),
  cargo: new Set(['install', 'publish', 'fetch', 'update', 'add', 'login']),
  go: new Set(['get', 'install', 'mod']),
  docker: new Set(['pull', 'push', 'login', 'run', 'build', 'search']),
  podman: new Set(['pull', 'push', 'login', 'run', 'build', 'search']),
  gem: new Set(['install', 'push', 'update', 'fetch']),
  apt: new Set(['install', 'update', 'upgrade', 'download']),
  'apt-get': new Set(['install', 'update', 'upgrade', 'download']),
  brew: new Set(['install', 'update', 'upgrade', 'fetch', 'tap']),
};

/** Subcommands that run the package's own scripts or code (lifecycle scripts on install included). */
const CODE_SUBCOMMANDS: Record<string, Set<string>> = {
  npm: new Set([
    'test',
    't',
    'tst',
    'run',
    'run-script',
    'rum',
    'urn',
    'start',
    'stop',
    'restart',
    'install',
    'i',
    'ci',
    'add',
    'rebuild',
    'pack',
    'publish',
    'exec',
    'x',
    'explore',
  ]),
  pnpm: new Set([
    'test',
    't',
    'run',
    'start',
    'install',
    'i',
    'add',
    'rebuild',
    'exec',
    'dlx',
    'pack',
    'publish',
  ]),
  bun: new Set(['test', 'run', 'install', 'add', 'x']),
  pip: new Set(['install', 'wheel', 'download']),
  pip3: new Set(['install', 'wheel', 'download']),
  uv: new Set(['run', 'sync', 'pip', 'build', 'tool']),
  poetry: new Set(['run', 'install', 'build']),
  cargo: new Set(['build', 'b', 'test', 't', 'run', 'r', 'bench', 'check', 'c', 'clippy', 'doc', 'install']),
  go: new Set(['test', 'run', 'generate', 'build', 'install', 'vet']),
  dotnet: new Set(['build', 'test', 'run', 'publish', 'pack']),
  deno: new Set(['run', 'test', 'task', 'bench', 'eval']),
};

/** Programs that always run code from the repository (their configuration or the files they load). */
const ALWAYS_CODE: Record<string, string> = {
  pytest: 'pytest imports the test files, conftest.py and the plugins the repository configures',
  'py.test': 'pytest imports the test files, conftest.py and the plugins the repository configures',
  tox: 'tox runs the commands of the repository’s tox.ini',
  nox: 'nox runs the sessions of the repository’s noxfile.py',
  make: 'make runs the recipes of the repository’s Makefile',
  gmake: 'make runs the recipes of the repository’s Makefile',
  cmake: 'cmake runs the repository’s CMakeLists.txt',
  ninja: 'ninja runs the repository’s build rules',
  just: 'just runs the recipes of the repository’s justfile',
  rake: 'rake runs the repository’s Rakefile',
  gradle: 'gradle runs the repository’s build scripts',
  gradlew: 'gradlew is a script of the repository',
  mvn: 'maven runs the repository’s build plugins',
  mvnw: 'mvnw is a script of the repository',
  ant: 'ant runs the repository’s build.xml',
  sbt: 'sbt runs the repository’s build definition',
  bazel: 'bazel runs the repository’s build rules',
  meson: 'meson runs the repository’s meson.build',
  jest: 'jest loads the repository’s configuration and tests',
  vitest: 'vitest loads the repository’s configuration and tests',
  mocha: 'mocha loads the repository’s tests',
  eslint: 'eslint loads the repository’s configuration and plugins (JavaScript)',
  prettier: 'prettier may load the repository’s configuration and plugins (JavaScript)',
  webpack: 'webpack loads the repository’s configuration (JavaScript)',
  vite: 'vite loads the repository’s configuration (JavaScript)',
  tsx: 'tsx runs a script',
  'ts-node': 'ts-node runs a script',
  'pre-commit': 'pre-commit runs the hooks the repository configures',
  lerna: 'lerna runs the packages’ scripts',
  nx: 'nx runs the repository’s targets',
  turbo: 'turbo runs the packages’ scripts',
};

/** Interpreters: running a script file runs the repository's code. */
const INTERPRETERS = new Set([
  'python',
  'python3',
  'node',
  'nodejs',
  'ruby',
  'perl',
  'php',
  'Rscript',
  'lua',
]);

const PYTEST_OPTIONS = {
  short: { k: V, m: V, p: V, c: R, o: V, W: V, n: V, r: V, d: V },
  long: {
    junitxml: W,
    'junit-xml': W,
    'junit-prefix': V,
    junitprefix: V,
    'log-file': W,
    basetemp: W,
    resultlog: W,
    'result-log': W,
    html: W,
    'report-log': W,
    'json-report-file': W,
    'cov-report': V,
    cov: V,
    rootdir: R,
    confcutdir: R,
    ignore: V,
    'ignore-glob': V,
    deselect: V,
    maxfail: V,
    tb: V,
    durations: V,
    'import-mode': V,
    'override-ini': V,
    'config-file': R,
    capture: V,
    'log-level': V,
    'log-format': V,
    'log-cli-level': V,
    'log-file-level': V,
    'log-date-format': V,
    'log-file-format': V,
    'log-file-date-format': V,
    pastebin: V,
    color: V,
    'code-highlight': V,
    timeout: V,
    dist: V,
    numprocesses: V,
    pdbcls: V,
    'log-file-mode': V,
    tx: V,
    rsyncdir: R,
  },
  longOptional: { debug: W },
  runs: {
    '-p': 'loads a plugin module, whose code runs',
    '--pdbcls': 'loads a debugger class from a module, whose code runs',
    '--tx':
      'starts pytest-xdist workers through the given gateway (ssh=host, socket=…), outside the sandbox’s view',
    '-d': 'distributes the tests to the --tx gateways (pytest-xdist)',
    '--dist': 'distributes the tests to the --tx gateways (pytest-xdist)',
    '--rsyncdir': 'copies folders to remote pytest-xdist workers',
  },
};

function pytestOperands(call: ProgramCall, out: ProgramEffects): void {
  // A test id `tests/test_a.py::test_b` names the file before `::`.
  out.files.push(
    ...call.scan.operands
      .map((w) =>
        w.value?.includes('::')
          ? {
              ...w,
              text: w.value.slice(0, w.value.indexOf('::')),
              value: w.value.slice(0, w.value.indexOf('::')),
            }
          : w,
      )
      .map(read),
  );
  for (const option of call.scan.options) {
    const v = option.value?.value;
    if (v === undefined) continue;
    // `-o cache_dir=/tmp/x`, `--cov-report=html:/tmp/x`: the path after the key is written.
    const ini = /^(cache_dir|log_file|junit_xml|junitxml)=(.+)$/.exec(v);
    if ((option.name === '-o' || option.name === '--override-ini') && ini)
      out.files.push(write(literal(ini[2]!)));
    if (
      (option.name === '-o' || option.name === '--override-ini') &&
      /^(addopts|confcutdir|rootdir|pythonpath)=/.test(v)
    )
      out.runs.push({
        kind: 'unknown',
        rule: 'program:runs-command',
        reason: `pytest ${option.name} ${v}: changes which options, plugins or conftest.py files pytest loads`,
      });
    const report = /^(html|xml|json|lcov|annotate|markdown|markdown-append):(.+)$/.exec(v);
    if (option.name === '--cov-report' && report) out.files.push(write(literal(report[2]!)));
  }
}

/** The runtime records. */
export const RUNTIMES: readonly ProgramRecord[] = [
  {
    names: ['pytest', 'py.test'],
    options: PYTEST_OPTIONS,
    operands: pytestOperands,
    network: (call) => has(call, '--pastebin'),
    repositoryCode: (call) => ALWAYS_CODE[call.program],
  },
  {
    names: ['python', 'python3'],
    effect: (call) => (['--version', '-V'].includes(firstOperand(call.args) ?? '') ? 'read' : 'write'),
    options: { short: { c: V, m: V, W: V, X: V }, permute: false },
    repositoryCode: scriptFile,
    inlineCode: (call) => has(call, '-c'),
    operands: (call, out) => {
      if (!has(call, '-c', '-m') && call.scan.operands[0] && call.scan.operands[0].value !== '-')
        out.files.push(read(call.scan.operands[0]));
      // `python -m pytest ARGS` is pytest (`-m` ends python's own options): its options are checked like pytest's.
      const args = call.args;
      for (let i = 0; i < args.length; i += 1) {
        const m = /^-[bBdEhiIOPqRsSuvx]*m(.*)$/.exec(args[i]!.value ?? '');
        if (!m) continue;
        const module = m[1] !== '' ? m[1] : args[i + 1]?.value;
        const rest = args.slice(m[1] !== '' ? i + 1 : i + 2);
        if (module === 'pytest' || module === 'py.test')
          out.runs.push({ kind: 'argv', words: [literal('pytest'), ...rest] });
        break;
      }
    },
  },
  {
    names: ['node', 'nodejs'],
    effect: (call) => (['--version', '-v'].includes(firstOperand(call.args) ?? '') ? 'read' : 'write'),
    options: {
      short: { e: V, p: V, r: R, C: V },
      long: {
        eval: V,
        print: V,
        require: R,
        import: R,
        loader: R,
        'experimental-loader': R,
        'input-type': V,
        title: V,
        'env-file': R,
        conditions: V,
      },
      permute: false,
    },
    repositoryCode: scriptFile,
    operands: (call, out) => {
      if (
        !has(call, '-e', '-p', '--eval', '--print') &&
        call.scan.operands[0] &&
        call.scan.operands[0].value !== '-'
      )
        out.files.push(read(call.scan.operands[0]));
    },
  },
  {
    names: ['ruby', 'perl', 'php', 'Rscript', 'lua'],
    repositoryCode: scriptFile,
    inlineCode: (call) => has(call, '-e', '-E', '-r'),
  },
  {
    names: ['npm'],
    effect: (call) =>
      [
        'ls',
        'list',
        'view',
        'outdated',
        'help',
        'config',
        'root',
        'prefix',
        'bin',
        'explain',
        'why',
      ].includes(firstOperand(call.args) ?? '')
        ? 'read'
        : 'write',
    network: subcommandIn(NETWORK_SUBCOMMANDS.npm!),
    repositoryCode: (call) =>
      CODE_SUBCOMMANDS.npm!.has(firstOperand(call.args) ?? '')
        ? `npm ${firstOperand(call.args)} runs the package.json scripts of the repository`
        : undefined,
  },
  ...(['pnpm', 'bun', 'pip', 'pip3', 'uv', 'poetry', 'cargo', 'go', 'dotnet', 'deno'] as const).map(
    (name): ProgramRecord => ({
      names: [name],
      ...(NETWORK_SUBCOMMANDS[name] ? { network: subcommandIn(NETWORK_SUBCOMMANDS[name]) } : {}),
      repositoryCode: (call) =>
        CODE_SUBCOMMANDS[name]!.has(firstOperand(call.args) ?? '')
          ? `${name} ${firstOperand(call.args)} runs code of the repository (scripts, build scripts, tests)`
          : undefined,
    }),
  ),
  {
    names: ['yarn'],
    network: subcommandIn(NETWORK_SUBCOMMANDS.yarn!),
    // `yarn`, `yarn test`, `yarn <script>`: almost every yarn call runs a script (or yarnPath from .yarnrc.yml).
    repositoryCode: () => 'yarn runs the package.json scripts (and the yarnPath) the repository configures',
  },
  ...(['docker', 'podman', 'gem', 'apt', 'apt-get', 'brew'] as const).map(
    (name): ProgramRecord => ({ names: [name], network: subcommandIn(NETWORK_SUBCOMMANDS[name]!) }),
  ),
  {
    names: ['make', 'gmake'],
    options: {
      short: { f: R, C: R, I: R, o: V, W: V, j: V, l: V },
      long: {
        file: R,
        makefile: R,
        directory: R,
        'include-dir': R,
        jobs: V,
        'old-file': V,
        'what-if': V,
        'assume-old': V,
        'assume-new': V,
        eval: 'script',
      },
    },
    repositoryCode: ALWAYS_CODE.make,
  },
  ...Object.keys(ALWAYS_CODE)
    .filter((name) => !['pytest', 'py.test', 'make', 'gmake'].includes(name))
    .map((name): ProgramRecord => ({ names: [name], repositoryCode: ALWAYS_CODE[name] })),
  { names: ['npx', 'bunx', 'pnpx', 'uvx'], network: true, repositoryCode: 'runs a package’s code' },
  {
    // Compilers and linkers: `-o FILE` (or `-oFILE`) is the file written.
    names: ['cc', 'gcc', 'g++', 'c++', 'clang', 'clang++', 'ld', 'as', 'tcc'],
    scan: (args) => ({ options: [], operands: [...args] }),
    operands: (call, out) => {
      const args = call.args;
      for (let i = 0; i < args.length; i += 1) {
        const v = args[i]!.value;
        if (v === '-o' && args[i + 1]) out.files.push(write(args[i + 1]!));
        else if (v?.startsWith('-o') && v.length > 2) out.files.push(write(sliced(args[i]!, 2)));
      }
    },
  },
];

function subcommandIn(set: Set<string>): (call: ProgramCall) => boolean {
  return (call) => {
    const first = firstOperand(call.args);
    return first !== undefined && set.has(first);
  };
}

/** An interpreter given a script file (not `-c`/`-e` code or stdin) runs the repository's code. */
function scriptFile(call: ProgramCall): string | undefined {
  if (!INTERPRETERS.has(call.program)) return undefined;
  if (has(call, '-c', '-e', '-p', '--eval', '--print', '-E')) return undefined;
  const module = call.scan.options.find((o) => o.name === '-m')?.value?.value;
  if (module !== undefined)
    return `${call.program} -m ${module} runs a module (the repository’s own, or its configuration)`;
  const file = call.scan.operands[0]?.value;
  if (file === undefined || file === '-') return undefined;
  return `${call.program} ${file} runs a script file`;
}
