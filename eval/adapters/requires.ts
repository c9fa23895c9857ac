/**
 * The `requires` of an adapter file: executables on `PATH` (`python3`) and npm packages
 * (`npm:ai`, resolved from the adapter file's folder as its module would be). A missing one
 * makes the case `skipped` with the file's `install` hint as the fix: never a pass, never a
 * failure (`docs/adapters.md`).
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { HarnessBenchError } from '../../harness/errors.ts';
import type { UnmetRequirement } from '../requirements.ts';
import type { Adapter } from './load.ts';

function onPath(name: string, searchPath: string): boolean {
  if (name.includes('/')) return existsSync(name);
  for (const dir of searchPath.split(path.delimiter).filter(Boolean))
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return true;
    } catch {
      /* not here */
    }
  return false;
}

/** True when `name` resolves from `dir` (its `package.json`, or the package folder in a `node_modules` above). */
function packageFound(name: string, dir: string): boolean {
  const require = createRequire(path.join(dir, 'noop.js'));
  try {
    require.resolve(`${name}/package.json`);
    return true;
  } catch {
    /* a package that does not export package.json: look for its folder */
  }
  for (let at = dir; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, 'node_modules', name, 'package.json'))) return true;
    if (path.dirname(at) === at) return false;
  }
}

/**
 * The requirements of `adapter` missing on this machine, in order; `[]` when all are met.
 * @param searchPath `PATH` to look in. @default process.env.PATH
 */
export function unmetAdapterRequirements(
  adapter: Pick<Adapter, 'requires' | 'install' | 'file' | 'name'>,
  searchPath = process.env.PATH ?? '',
): UnmetRequirement[] {
  const fix = adapter.install ?? `install what the adapter ${adapter.name} needs`;
  const dir = path.dirname(adapter.file);
  const out: UnmetRequirement[] = [];
  for (const requirement of [...new Set(adapter.requires)]) {
    if (requirement.startsWith('npm:')) {
      const name = requirement.slice(4);
      if (!packageFound(name, dir))
        out.push({ requirement, reason: `npm package "${name}" is not installed`, fix });
    } else if (!onPath(requirement, searchPath))
      out.push({ requirement, reason: `no "${requirement}" on PATH`, fix });
  }
  return out;
}

/**
 * Checks, before any case runs, that a `command` adapter's program can be started: `argv[0]` is
 * an existing file or an executable on `searchPath`. A program the file also lists in `requires`
 * is left to that rule (every case `skipped` with the install hint).
 *
 * @throws HarnessBenchError `ADAPTER_COMMAND_MISSING`, fault `environment` (exit 4), naming the
 *   command and the adapter file, with `hint` the adapter's `install` when it has one
 */
export function assertLaunchable(adapter: Adapter, searchPath = process.env.PATH ?? ''): void {
  if (adapter.kind !== 'command') return;
  const program = adapter.argv[0]!;
  if (adapter.requires.includes(program) || onPath(program, searchPath)) return;
  const error = new HarnessBenchError(
    'ADAPTER_COMMAND_MISSING',
    'environment',
    `the adapter ${adapter.name} (${adapter.file}) runs "${adapter.argv.join(' ')}", but "${program}" is ${program.includes('/') ? 'not a file' : 'not on PATH'}; no case was run`,
  );
  (error as HarnessBenchError & { hint?: string }).hint =
    adapter.install ??
    `install ${program}, or list it in "requires" with an "install" hint to skip the cases instead`;
  throw error;
}
