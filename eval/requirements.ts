/**
 * Prerequisites of a case (`requires` in a scenario): what this machine must provide for the
 * case to say anything. A case whose prerequisite is missing is `skipped` with the reason and
 * the fix (the install command), counted apart and never as a pass; with `CI` set, a missing
 * sandbox is an error instead, since CI promises it (`.ci/run` installs bubblewrap). Each
 * sandbox is probed for real (`createSandbox(kind).exec`, which runs the sandbox's own probe:
 * for bubblewrap the exact command line with a capability check), once per process.
 *
 * The vocabulary:
 * - `sandbox`: the sandbox the case's configuration picks (`sandbox.kind`; `auto` is bubblewrap
 *   on Linux and Seatbelt on macOS; `none` needs nothing) can run commands here;
 * - `bwrap`, `seatbelt`: that sandbox in particular;
 * - `linux`, `macos`: the platform;
 * - `browser`: a Chromium binary on `PATH` (playwright-core never downloads one);
 * - `command:NAME`: an executable `NAME` on `PATH` (e.g. `command:git`).
 */
import { accessSync, constants } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HarnessConfig } from '../harness/config.ts';
import type { RunResult } from '../harness/ledger.ts';
import { autoKind, createSandbox } from '../harness/sandbox/factory.ts';
import { BWRAP_INSTALL_HINT } from '../harness/sandbox/bwrap.ts';
import { SandboxUnavailableError } from '../harness/sandbox/types.ts';
import { errorCase, skippedCase, type CaseBase, type CaseResult } from './results.ts';

/** The fixed prerequisite names; `command:NAME` is the one open form. */
export const REQUIREMENT_NAMES = ['sandbox', 'bwrap', 'seatbelt', 'linux', 'macos', 'browser'] as const;

/** A prerequisite name: one of {@link REQUIREMENT_NAMES} or `command:NAME`. */
export type Requirement = (typeof REQUIREMENT_NAMES)[number] | `command:${string}`;

/** The JSON Schema pattern of one prerequisite name. */
export const REQUIREMENT_PATTERN = `^(${REQUIREMENT_NAMES.join('|')}|command:[A-Za-z0-9._+-]+)$`;

/** A prerequisite missing on this machine: which, why, and how to get it. */
export interface UnmetRequirement {
  requirement: string;
  reason: string;
  fix: string;
}

/** What a sandbox probe says: usable, or why not and how to fix it. */
export type ProbeResult = { ok: true } | { ok: false; message: string; hint: string };

/** Probes one concrete sandbox kind; {@link probeSandbox} by default (tests inject their own). */
export type SandboxProbe = (kind: 'bwrap' | 'seatbelt') => Promise<ProbeResult>;

/** Where requirements are checked. */
export interface RequirementContext {
  /** `sandbox.kind` of the case's configuration. */
  sandboxKind: HarnessConfig['sandbox']['kind'];
  /** @default process.platform */
  platform?: NodeJS.Platform;
  /** `PATH` for `browser` and `command:`. @default process.env.PATH */
  path?: string;
  probe?: SandboxProbe;
}

const probes = new Map<string, Promise<ProbeResult>>();

/**
 * Builds the sandbox of `kind` over a fresh temp folder and runs `true` in it, once per process
 * and kind (cached): `SandboxUnavailableError` (bubblewrap missing or unusable, Seatbelt off
 * macOS) is `{ ok: false }` with its message and hint. Never rejects.
 */
export function probeSandbox(kind: 'bwrap' | 'seatbelt'): Promise<ProbeResult> {
  let probe = probes.get(kind);
  if (!probe) {
    probe = runProbe(kind);
    probes.set(kind, probe);
  }
  return probe;
}

async function runProbe(kind: 'bwrap' | 'seatbelt'): Promise<ProbeResult> {
  let dir: string | undefined;
  try {
    dir = await realpath(await mkdtemp(path.join(tmpdir(), 'hb-probe-')));
    const result = await createSandbox(kind, dir).exec('true', { cwd: dir, timeoutMs: 15_000 });
    return result.exitCode === 0
      ? { ok: true }
      : {
          ok: false,
          message: `${kind} could not run \`true\` (exit code ${result.exitCode}): ${result.stderr.trim().split('\n')[0] ?? ''}`,
          hint: kind === 'bwrap' ? BWRAP_INSTALL_HINT : 'check that sandbox-exec works here',
        };
  } catch (error) {
    if (error instanceof SandboxUnavailableError)
      return { ok: false, message: error.message, hint: error.hint };
    return { ok: false, message: `${kind} could not be probed: ${(error as Error).message}`, hint: '' };
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * The fix of a missing sandbox: the sandbox's hint without its alternative of running commands
 * unboxed (`sandbox.kind: "none"`), which is no fix for a case that needs the sandbox.
 */
export function sandboxFix(hint: string): string {
  return hint.replace(/,? or set sandbox\.kind to "none" explicitly[^;]*$/, '').trim();
}

/** True when an executable `name` is in one of the `PATH` folders. */
function onPath(name: string, searchPath: string): boolean {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean))
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return true;
    } catch {
      /* not here */
    }
  return false;
}

const BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const PLATFORM_NAMES: Partial<Record<NodeJS.Platform, string>> = { linux: 'Linux', darwin: 'macOS' };

/** One prerequisite; `undefined` when met. */
async function checkOne(
  requirement: string,
  context: RequirementContext,
): Promise<UnmetRequirement | undefined> {
  const platform = context.platform ?? process.platform;
  const searchPath = context.path ?? process.env.PATH ?? '';
  const probe = context.probe ?? probeSandbox;
  const sandbox = async (kind: 'bwrap' | 'seatbelt') => {
    const result = await probe(kind);
    return result.ok ? undefined : { requirement, reason: result.message, fix: sandboxFix(result.hint) };
  };
  const here = PLATFORM_NAMES[platform] ?? platform;
  switch (requirement) {
    case 'sandbox': {
      const kind = context.sandboxKind === 'auto' ? autoKind(platform) : context.sandboxKind;
      if (kind === 'none') return undefined;
      if (kind === undefined)
        return {
          requirement,
          reason: `no sandbox is known for platform ${platform}`,
          fix: 'run on Linux (bubblewrap) or macOS (Seatbelt)',
        };
      return sandbox(kind);
    }
    case 'bwrap':
    case 'seatbelt':
      return sandbox(requirement);
    case 'linux':
    case 'macos': {
      const wanted = requirement === 'linux' ? 'linux' : 'darwin';
      return platform === wanted
        ? undefined
        : {
            requirement,
            reason: `the case runs only on ${PLATFORM_NAMES[wanted]} (this is ${here})`,
            fix: `run it on ${PLATFORM_NAMES[wanted]}`,
          };
    }
    case 'browser':
      return BROWSERS.some((name) => onPath(name, searchPath))
        ? undefined
        : {
            requirement,
            reason: `no Chromium on PATH (looked for ${BROWSERS.join(', ')})`,
            fix: 'install Chromium (Debian/Ubuntu: apt-get install -y chromium; macOS: brew install --cask chromium)',
          };
    default: {
      const name = requirement.startsWith('command:') ? requirement.slice('command:'.length) : '';
      if (name && onPath(name, searchPath)) return undefined;
      return name
        ? { requirement, reason: `no "${name}" on PATH`, fix: `install ${name} so that it is on PATH` }
        : {
            requirement,
            reason: `unknown prerequisite ${JSON.stringify(requirement)}`,
            fix: 'fix the scenario',
          };
    }
  }
}

/** The prerequisites of `requires` missing here, in order (duplicates checked once). Never rejects. */
export async function checkRequirements(
  requires: readonly string[],
  context: RequirementContext,
): Promise<UnmetRequirement[]> {
  const out: UnmetRequirement[] = [];
  for (const requirement of [...new Set(requires)]) {
    const unmet = await checkOne(requirement, context);
    if (unmet) out.push(unmet);
  }
  return out;
}

/** Prerequisites CI promises (`.ci/run` installs bubblewrap): the sandbox, and the platform's own sandbox kind. */
function promisedByCI(requirement: string, platform: NodeJS.Platform = process.platform): boolean {
  return (
    requirement === 'sandbox' ||
    (requirement === 'bwrap' && platform === 'linux') ||
    (requirement === 'seatbelt' && platform === 'darwin')
  );
}

/** True when `env.CI` says this is a CI run (`1`, `true`, `yes`, any case), as the sandbox tests read it. */
export function isCI(env: NodeJS.ProcessEnv): boolean {
  return ['1', 'true', 'yes'].includes((env.CI ?? '').toLowerCase());
}

/** How a runner treats missing prerequisites. */
export interface PrerequisitePolicy {
  /** CI promises the sandbox: a missing one is an `error`, not a skip. @default false */
  ci?: boolean;
  platform?: NodeJS.Platform;
}

/**
 * The result of a case whose prerequisites `unmet` are missing: `skipped` with the reasons and
 * fixes; under CI an `error` instead when CI promises one of them ({@link promisedByCI}).
 * `declared: false` when the run found the gap although the case declares nothing.
 */
export function unmetCase(
  base: CaseBase,
  unmet: readonly UnmetRequirement[],
  declared: boolean,
  policy: PrerequisitePolicy,
  startedMs: number,
): CaseResult {
  const reason = unmet.map((u) => u.reason).join('; ');
  const fix = [...new Set(unmet.map((u) => u.fix).filter(Boolean))].join('; ');
  const requires = unmet.map((u) => u.requirement);
  const undeclared = declared
    ? ''
    : ` (the case does not declare it: add requires: [${requires.join(', ')}] to the scenario)`;
  if (policy.ci && unmet.some((u) => promisedByCI(u.requirement, policy.platform)))
    return errorCase(
      base,
      new Error(`CI promises the sandbox, but ${reason}${undeclared}; fix: ${fix}`),
      startedMs,
    );
  return skippedCase(base, { requires, reason: `${reason}${undeclared}`, fix, declared }, startedMs);
}

/**
 * A run that did not pass and met `sandbox_unavailable` although its case declares no sandbox
 * prerequisite: when the configuration's sandbox really is missing here (probed), the case is
 * skipped (or, under CI, an error) and the reason says to declare `requires: [sandbox]`; when
 * the sandbox works, the result stands (the harness, not the machine, refused). A passing run
 * always stands.
 */
export async function explainMissingSandbox(
  result: CaseResult,
  run: Pick<RunResult, 'ledger'> | undefined,
  context: RequirementContext & PrerequisitePolicy & { declared: readonly string[] },
  startedMs: number,
): Promise<CaseResult> {
  if (result.status === 'pass' || result.status === 'skipped' || !run) return result;
  if (!run.ledger.calls.some((call) => call.errorType === 'sandbox_unavailable')) return result;
  if (context.declared.some((r) => r === 'sandbox' || r === 'bwrap' || r === 'seatbelt')) return result;
  const unmet = await checkRequirements(['sandbox'], context);
  if (unmet.length === 0) return result;
  const { id, kind, config, file, title, tags } = result;
  return unmetCase(
    { id, kind, config, file, ...(title ? { title } : {}), tags },
    unmet,
    false,
    context,
    startedMs,
  );
}
