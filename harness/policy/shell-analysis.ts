/**
 * Shell command analysis: parses a command with tree-sitter-bash, extracts every simple command
 * (`shell-extract.ts`, with the sweep of `shell-sweep.ts` for substitutions the grammar leaves
 * unparsed), unwraps wrappers recursively (`shell-wrappers.ts`), normalises program names
 * (`shell-words.ts`) and collects the files the command reads and writes and the commands its
 * options run (redirections, and the operands and options of well-known programs:
 * `file-operands.ts`). What cannot be known statically becomes a finding that asks at least: a
 * program name built from an expansion (`$r`, `eval`, `source`), a script that does not parse, a
 * wrapped script built from an expansion, a hidden substitution that does not parse, an option
 * that runs a configured program (`git diff --ext-diff`). Reading secrets and reaching the network in one
 * command is a hard deny (handed case F03, google/site-kit-wp#12499). Results are cached by
 * command string. The result types are in `shell-analysis-types.ts`, the walk over scripts and
 * commands in `shell-commands.ts`, what it collects in `shell-accumulator.ts`, the environment
 * checks in `shell-environment.ts`.
 */
import type { EffectClass } from '../tools/types.ts';
import { SECRET_NAME } from './programs/secrets.ts';
import { type Accumulator, finding } from './shell-accumulator.ts';
import type { CommandAnalysis } from './shell-analysis-types.ts';
import { analyseScript } from './shell-commands.ts';
import { loadShellParser } from './shell-parser.ts';
import { setWorkspaceVariable, WORKSPACE_MARK } from './shell-words.ts';

/** Longer commands are not parsed: ask. Characters. */
export const MAX_COMMAND_CHARS = 200_000;
const ORDER: Record<EffectClass, number> = { read: 0, write: 1, irreversible: 2 };

/** Findings whose danger is code chosen outside the command text: code-running for the taint rule. */
const CODE_RULES: ReadonlySet<string> = new Set([
  'env:dangerous-variable',
  'program:runs-command',
  'program:dynamic',
  'program:eval',
  'program:source',
  'program:path',
  'git:config-override',
  'shell:glob-option',
  'shell:rebinding',
  'shell:unanalysed-substitution',
]);

const cache = new Map<string, CommandAnalysis>();
/** Analyses kept in the cache (least recently used dropped first). */
export const CACHE_SIZE = 5000;

/** Empties the analysis cache (benchmarks measure cold analysis with it). */
export function clearAnalysisCache(): void {
  cache.clear();
}

/**
 * Analyses a command synchronously; the parser must be loaded ({@link analyseCommand} loads it).
 * Pure and cached by command string.
 * @throws Error when the parser is not loaded.
 */
export function analyseCommandSync(command: string): CommandAnalysis {
  const hit = cache.get(command);
  if (hit) {
    cache.delete(command);
    cache.set(command, hit);
    return hit;
  }
  setWorkspaceVariable(command);
  const acc: Accumulator = {
    parts: [],
    findings: [],
    paths: [],
    secrets: [],
    network: [],
    cwdChanged: false,
    cwdChangedAt: 0,
    repaired: new Set(),
    inlineCode: [],
    walks: [],
    repositoryCode: [],
    guards: [],
    equivalents: [],
    optionGlobs: [],
  };
  if (command.length > MAX_COMMAND_CHARS)
    finding(
      acc,
      `${command.slice(0, 200)}…`,
      'ask',
      'analysis:too-long',
      `commands longer than ${MAX_COMMAND_CHARS} characters are not analysed`,
    );
  else {
    // `cd DIR && …` at the start: what follows runs in DIR when DIR is a folder (checked by `command-policy.ts`).
    const leading = /^\s*cd\s+([\w.@+/-]+)\s*&&/.exec(command);
    if (leading && !leading[1]!.startsWith('-')) acc.pendingCd = leading[1]!;
    try {
      analyseScript(acc, command, 0);
    } catch (error) {
      // A tree deeper than the call stack (thousands of nested groups) or a parser failure: what runs is unknown.
      finding(
        acc,
        command.length > 200 ? `${command.slice(0, 200)}…` : command,
        'ask',
        'analysis:unparseable',
        `the command could not be analysed (${(error as Error)?.message ?? String(error)})`,
      );
    }
  }
  if (
    acc.cwdChanged &&
    acc.paths
      .slice(acc.cwdChangedAt)
      .some((p) => !p.path.startsWith('/') && !p.path.startsWith('~') && !p.path.startsWith(WORKSPACE_MARK))
  )
    finding(
      acc,
      command,
      'ask',
      'path:cwd-changed',
      'the command changes directory, so its relative file targets cannot be resolved before it runs',
    );
  // A variable that holds a credential, mentioned anywhere (a here-string, a here-document, an argument), is a secret too.
  for (const m of command.matchAll(/\$\{?!?([A-Za-z_][A-Za-z0-9_]*)/g))
    if (SECRET_NAME.test(m[1]!)) {
      acc.secrets.push(`$${m[1]}`);
      break;
    }
  const reach = [...acc.network, ...acc.inlineCode];
  if (acc.secrets.length > 0 && reach.length > 0)
    acc.findings.unshift({
      subject: command,
      action: 'deny',
      rule: 'exfil:secret-to-network',
      reason: `sends environment data or credentials (read by ${JSON.stringify(acc.secrets[0])}) to a network host (via ${JSON.stringify(reach[0])}); a hard deny, not overridable by auto-approve, rules or approvals`,
    });
  // A call whose danger is code chosen elsewhere (a variable that loads code, an option that runs a
  // configured command, an expansion as the program, a rebinding) runs code untrusted content may
  // have chosen: after untrusted content it needs a human, like repository code (`policy.ts`).
  if (acc.repositoryCode.length === 0)
    for (const f of acc.findings)
      if (CODE_RULES.has(f.rule)) {
        acc.repositoryCode.push(`${f.subject}: ${f.reason}`);
        break;
      }
  let effect: EffectClass = 'read';
  for (const part of acc.parts) if (ORDER[part.effect] > ORDER[effect]) effect = part.effect;
  if (effect === 'read' && acc.paths.some((p) => p.access === 'write')) effect = 'write';
  if (acc.findings.length > 0 && effect === 'read') effect = 'write';
  if (acc.equivalents.length > 0) effect = 'irreversible';
  const analysis: CommandAnalysis = {
    command,
    parts: acc.parts,
    findings: acc.findings,
    paths: acc.paths,
    effect,
    network: acc.network.length > 0,
    walks: acc.walks,
    ...(acc.repositoryCode.length > 0 ? { repositoryCode: acc.repositoryCode[0]! } : {}),
    guards: acc.guards,
    ...(acc.cwd !== undefined ? { cwd: acc.cwd } : {}),
    equivalents: acc.equivalents,
    optionGlobs: acc.optionGlobs,
  };
  cache.set(command, analysis);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return analysis;
}

/** Loads the parser when needed, then analyses `command` (see {@link analyseCommandSync}). */
export async function analyseCommand(command: string): Promise<CommandAnalysis> {
  await loadShellParser();
  return analyseCommandSync(command);
}
