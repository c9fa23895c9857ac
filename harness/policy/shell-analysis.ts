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
 * command string.
 */
import type { EffectClass } from '../tools/types.ts';
import type { FindingRuleId } from './rules.ts';
import { programFacts, SHELLS } from './programs/index.ts';
import { isSecretPath, SECRET_NAME } from './programs/secrets.ts';
import { extractCommands, type Assignment } from './shell-extract.ts';
import { builtinEvaluation, evaluationFindings } from './shell-arith.ts';
import { ambiguousBytes, parserDifferential } from './shell-bytes.ts';
import { loadShellParser, parseShell } from './shell-parser.ts';
import { substitutionsInText } from './shell-sweep.ts';
import { displayWord, normaliseProgram, type ShellWord } from './shell-words.ts';

/** One simple command after unwrapping and normalisation: what rules are matched against. */
export interface CommandPart {
  /** The normalised command: program name, then each argument (quoted where needed). */
  text: string;
  /** The normalised program name. */
  program: string;
  /** Nesting: 0 at top level, one more per wrapper or script level. */
  depth: number;
  /** This command runs other commands (they follow it as parts of their own). */
  wrapper: boolean;
  /**
   * The argument vector as bash will pass it, program first: each word's value, `null` where
   * it depends on an expansion, a glob, braces or a tilde (the differential oracle compares it
   * with bash's own trace).
   */
  argv: (string | null)[];
  effect: EffectClass;
  network: boolean;
}

/** Something the analysis decided by itself: `ask` when unknowable, `deny` for exfiltration. */
export interface Finding {
  subject: string;
  action: 'ask' | 'deny';
  /** One of the finding rules of the catalogue (`rules.ts`). */
  rule: FindingRuleId;
  reason: string;
}

/** A file the command reads or writes, as written (relative to the working directory, `~` unexpanded). */
export interface PathUse {
  path: string;
  access: 'read' | 'write';
  /** The part (or statement) that uses it. */
  via: string;
  /** Unquoted glob or brace characters: the shell expands the word to the files it matches (`command-policy.ts` expands it). */
  glob?: boolean;
}

/** Everything the analysis found in one command string. */
export interface CommandAnalysis {
  command: string;
  parts: CommandPart[];
  findings: Finding[];
  paths: PathUse[];
  /** The strictest effect over the parts and paths. */
  effect: EffectClass;
  /** Some part reaches another host. */
  network: boolean;
  /** Folder trees the command walks (`grep -r`, `tar c`, `cp -r`): the policy checks every file and link under them. */
  walks: TreeWalk[];
  /** Why the command runs code the repository contains or configures (a test runner, a script), when it does. */
  repositoryCode?: string;
  /** The harness guards some program of the command runs under (`git`: repository-configured programs disabled). */
  guards: string[];
}

/** A tree walked by a command, its root as written (relative to the working directory). */
export interface TreeWalk {
  root: string;
  follows: 'all' | 'roots' | 'none';
  content: boolean;
  access: 'read' | 'write';
  via: string;
}

/** Scripts nested deeper than this (`sh -c "sh -c …"`) are not analysed further: ask. */
export const MAX_DEPTH = 12;
/** Longer commands are not parsed: ask. Characters. */
export const MAX_COMMAND_CHARS = 200_000;

/**
 * Variables that change what a command runs or loads (loader, shell start-up, pagers and their
 * input filters, git, package registries, options read from the environment by tar, ripgrep
 * and pytest).
 */
const DANGEROUS_VARIABLE =
  /^(LD_\w+|DYLD_\w+|PATH|BASH_ENV|ENV|PROMPT_COMMAND|IFS|PS4|SHELLOPTS|BASHOPTS|GIT_\w+|PAGER|EDITOR|VISUAL|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|NODE_OPTIONS|NODE_PATH|PERL5LIB|PERL5OPT|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|npm_config_\w+|NPM_CONFIG_\w+|PIP_\w+|UV_\w+|CARGO_\w+|HOME|LESSOPEN|LESSCLOSE|LESS|LESSKEY\w*|MANPAGER|MANOPT|SYSTEMD_PAGER|BROWSER|SHELL|SSH_ASKPASS|SUDO_ASKPASS|TAR_OPTIONS|GREP_OPTIONS|RIPGREP_CONFIG_PATH|PYTEST_ADDOPTS|PYTEST_PLUGINS|AWKPATH|AWKLIBPATH|GCONV_PATH|ZDOTDIR|XDG_CONFIG_HOME)$/;
const DEVICES = /^\/dev\/(null|zero|random|urandom|stdin|stdout|stderr|tty|fd\/\d+)$/;
const ORDER: Record<EffectClass, number> = { read: 0, write: 1, irreversible: 2 };

interface Accumulator {
  parts: CommandPart[];
  findings: Finding[];
  paths: PathUse[];
  secrets: string[];
  network: string[];
  /** Parts that run code given inline (`python -c`): they may reach the network for the exfiltration rule. */
  inlineCode: string[];
  walks: TreeWalk[];
  repositoryCode: string[];
  guards: string[];
  cwdChanged: boolean;
  /** How many paths were recorded when the directory first changed: later relative paths are unknowable. */
  cwdChangedAt: number;
  /** Scripts rewritten the way bash reads them and analysed already (`shell-bytes.ts`). */
  repaired: Set<string>;
}

function finding(
  acc: Accumulator,
  subject: string,
  action: 'ask' | 'deny',
  rule: FindingRuleId,
  reason: string,
): void {
  if (!acc.findings.some((f) => f.rule === rule && f.subject === subject))
    acc.findings.push({ subject, action, rule, reason });
}

function addPath(acc: Accumulator, word: ShellWord, access: 'read' | 'write', via: string): void {
  // A process substitution as a file argument (`cat <(ls)`) is a pipe, not a file; its commands are parts already.
  if (word.value === undefined && /^[<>]\(/.test(word.text) && word.text.endsWith(')')) return;
  if (word.value === undefined) {
    finding(
      acc,
      via,
      'ask',
      'path:dynamic',
      `the ${access} target ${word.text} depends on an expansion and cannot be checked before it runs`,
    );
    return;
  }
  const value = word.value;
  if (value === '' || DEVICES.test(value)) return;
  if (/^~[^/]/.test(value)) {
    finding(
      acc,
      via,
      'ask',
      'path:dynamic',
      `the ${access} target ${value} is in another user's home folder`,
    );
    return;
  }
  if (/^\/dev\/(tcp|udp)\//.test(value)) acc.network.push(via);
  // A secrets-shaped file read by any part (`nc host < .env`, `curl -T .env`) is a secret for the exfiltration rule.
  if (access === 'read' && isSecretPath(value)) acc.secrets.push(via);
  acc.paths.push({ path: value, access, via, ...(word.expands ? { glob: true } : {}) });
}

/** Builtins that evaluate operands as variable names with subscripts or as arithmetic, which expands `$(…)` again (`unset 'a[$(…)]'`). */
const EVALUATING_BUILTINS = new Set([
  'unset',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'let',
  'read',
  'printf',
  'test',
  '[',
  'getopts',
  'wait',
  'mapfile',
  'readarray',
]);
/** A subscript with a substitution in a static value: bash runs it when the value is used as a name or in arithmetic. */
const SUBSCRIPT_SUBSTITUTION = /\[[\s\S]*(\$\(|`)/;

/** Analyses the substitutions of a static value bash evaluates again (as a subscript or arithmetic). */
function checkReevaluated(acc: Accumulator, value: string | undefined, via: string, depth: number): void {
  if (value === undefined || !SUBSCRIPT_SUBSTITUTION.test(value)) return;
  const found = substitutionsInText(value);
  for (const script of found.scripts) analyseScript(acc, script, depth + 1);
  for (const text of found.unparsed)
    finding(
      acc,
      text,
      'ask',
      'shell:unanalysed-substitution',
      `${via} holds a subscript that bash evaluates as arithmetic, running a substitution that could not be analysed`,
    );
}

function checkAssignments(
  acc: Accumulator,
  assignments: readonly Assignment[],
  via: string,
  depth: number,
): void {
  for (const a of assignments) {
    if (DANGEROUS_VARIABLE.test(a.name))
      finding(
        acc,
        `${a.name}=${a.value ? displayWord(a.value) : ''}`,
        'ask',
        'env:dangerous-variable',
        `setting ${a.name} changes what ${via || 'later commands'} run or load`,
      );
    // `x='a[$(…)]'` runs the substitution when x is used in arithmetic later (`$((x))`, `[[ $x -eq 1 ]]`).
    checkReevaluated(acc, a.value?.value, `${a.name}=`, depth);
  }
}

/** A word's value as bash passes it, or null when expansion decides it. */
function argvValue(word: ShellWord): string | null {
  if (word.value === undefined || word.expands) return null;
  if (word.plain && /(^|[=:])~/.test(word.value)) return null;
  return word.value;
}

/** `env -i`, `env -u NAME`, `unset NAME`, `export -n NAME`: dropping the environment the harness set (the git guard, PATH). */
function environmentChanges(acc: Accumulator, name: string, args: readonly ShellWord[], text: string): void {
  const values = args.map((a) => a.value);
  let dropped: string | undefined;
  if (name === 'env') {
    if (
      values.some(
        (v) =>
          v === '-i' || v === '--ignore-environment' || v === '-' || (v !== undefined && /^-[^-]*i/.test(v)),
      )
    )
      dropped = 'the whole environment';
    values.forEach((v, i) => {
      const unset =
        v === '-u' || v === '--unset' ? values[i + 1] : v?.startsWith('--unset=') ? v.slice(8) : undefined;
      if (unset !== undefined && DANGEROUS_VARIABLE.test(unset)) dropped = unset;
    });
  } else if (name === 'unset' || (name === 'export' && values.includes('-n'))) {
    dropped = values.find((v) => v !== undefined && DANGEROUS_VARIABLE.test(v));
  }
  if (dropped !== undefined)
    finding(
      acc,
      text,
      'ask',
      'env:dangerous-variable',
      `${name} drops ${dropped === 'the whole environment' ? dropped : `${dropped}, which`} the harness set for commands (the git guard, PATH), so later commands may run what it disables`,
    );
}

/** Returns true when the command is a shell reading its script from stdin. */
function processCommand(
  acc: Accumulator,
  words: readonly ShellWord[],
  assignments: readonly Assignment[],
  depth: number,
  source: string,
): boolean {
  checkAssignments(acc, assignments, words.length > 0 ? source : '', depth);
  if (words.length === 0) return false;
  if (depth > MAX_DEPTH) {
    finding(
      acc,
      source,
      'ask',
      'analysis:too-deep',
      `wrappers nested more than ${MAX_DEPTH} levels deep are not analysed`,
    );
    return false;
  }
  const first = words[0]!;
  const args = words.slice(1);
  // A command the parser had to invent to recover from an error (`ls &&`): the unparseable finding covers it.
  if (first.text === '' && words.length === 1) return false;
  if (first.value === undefined || first.expands || first.value === '') {
    const text = words.map(displayWord).join(' ');
    acc.parts.push({
      text,
      program: first.text,
      depth,
      wrapper: false,
      effect: 'write',
      network: false,
      argv: words.map(argvValue),
    });
    finding(
      acc,
      text,
      'ask',
      'program:dynamic',
      `the program name ${first.text} depends on an expansion, so what runs cannot be known before it runs`,
    );
    return false;
  }
  const { name, nonstandardPath } = normaliseProgram(first.value);
  const text = [name, ...args.map(displayWord)].join(' ');
  if (nonstandardPath)
    finding(
      acc,
      text,
      'ask',
      'program:path',
      `runs ${nonstandardPath}, outside the system's program folders`,
    );
  const facts = programFacts(name, args);
  const info = facts.wrapper;
  const wrapper = info.inner.length > 0;
  const network = facts.network;
  let effect: EffectClass = wrapper
    ? name === 'sudo' || name === 'doas' || name === 'su' || name === 'runuser'
      ? 'write'
      : 'read'
    : facts.effect;
  if (effect === 'read' && facts.effects.files.some((f) => f.access === 'write')) effect = 'write';
  acc.parts.push({
    text,
    program: name,
    depth,
    wrapper,
    effect,
    network,
    argv: [first.value, ...args.map(argvValue)],
  });
  if (name === 'eval') finding(acc, text, 'ask', 'program:eval', 'eval runs a string as a command');
  if (name === 'source' || name === '.')
    finding(
      acc,
      text,
      'ask',
      'program:source',
      `${name} runs the commands of a file, which are not known before it runs`,
    );
  if (info.configOverride)
    finding(
      acc,
      text,
      'ask',
      'git:config-override',
      'git -c and --exec-path can make git run other programs',
    );
  if (facts.secrets) acc.secrets.push(text);
  if (network) acc.network.push(text);
  if (facts.inlineCode) acc.inlineCode.push(text);
  if (facts.repositoryCode) acc.repositoryCode.push(facts.repositoryCode);
  else if (nonstandardPath || (first.value.includes('/') && !first.value.startsWith('/')))
    acc.repositoryCode.push(`${first.value} is a program of the workspace`);
  if (facts.guard && !acc.guards.includes(facts.guard)) acc.guards.push(facts.guard);
  if (name === 'git' && first.value.includes('/'))
    finding(
      acc,
      text,
      'ask',
      'git:unguarded',
      `git run by its path (${first.value}) may bypass the harness's git guard, which sandboxes other than bubblewrap put first on PATH`,
    );
  environmentChanges(acc, name, args, text);
  const effects = facts.effects;
  for (const w of effects.walks)
    for (const root of w.roots)
      if (root.value !== undefined && !root.expands)
        acc.walks.push({
          root: root.value,
          follows: w.follows,
          content: w.content,
          access: w.access,
          via: text,
        });
      else
        finding(
          acc,
          text,
          'ask',
          'path:dynamic',
          `the tree ${root.text} ${name} walks depends on an expansion and cannot be checked before it runs`,
        );
  for (const file of effects.files) addPath(acc, file.word, file.access, text);
  // The folder `cd` (or `git -C`, `env -C`) enters was just checked as a read; paths after it are relative to it.
  if ((name === 'cd' || name === 'pushd' || name === 'popd' || info.changesDirectory) && !acc.cwdChanged) {
    acc.cwdChanged = true;
    acc.cwdChangedAt = acc.paths.length;
  }
  // Commands the program runs through its options: analysed when given (`git difftool -x CMD`), asked when configured elsewhere.
  for (const run of effects.runs) {
    if (run.kind === 'script') analyseScript(acc, run.script, depth + 1);
    else if (run.kind === 'argv')
      processCommand(acc, run.words, [], depth + 1, run.words.map(displayWord).join(' '));
    else finding(acc, text, 'ask', run.rule, run.reason);
  }
  checkAssignments(acc, info.assignments, text, depth);
  for (const f of builtinEvaluation(name, args, text)) finding(acc, text, 'ask', f.rule, f.reason);
  if (EVALUATING_BUILTINS.has(name)) for (const arg of args) checkReevaluated(acc, arg.value, text, depth);
  for (const inner of info.inner) {
    if (inner.kind === 'argv')
      processCommand(acc, inner.words, [], depth + 1, inner.words.map(displayWord).join(' '));
    else if (inner.kind === 'script') analyseScript(acc, inner.script, depth + 1);
    else finding(acc, text, 'ask', 'program:dynamic', inner.reason);
  }
  const stdinSource =
    (name === 'source' || name === '.') && (args[0]?.value === '/dev/stdin' || args[0]?.value === '-');
  return SHELLS.has(name) ? info.readsStdin === true : stdinSource;
}

function analyseScript(acc: Accumulator, script: string, depth: number): void {
  if (depth > MAX_DEPTH) {
    finding(
      acc,
      script,
      'ask',
      'analysis:too-deep',
      `scripts nested more than ${MAX_DEPTH} levels deep are not analysed`,
    );
    return;
  }
  const tree = parseShell(script);
  let extraction: ReturnType<typeof extractCommands>;
  try {
    const ambiguous = ambiguousBytes(tree.rootNode, script);
    if (ambiguous)
      finding(acc, script, 'ask', 'shell:ambiguous-bytes', `the command cannot be checked: ${ambiguous}`);
    const differs = parserDifferential(tree.rootNode, script);
    if (differs) {
      finding(
        acc,
        script,
        'ask',
        'shell:parser-differential',
        `the command cannot be checked: ${differs.reason}`,
      );
      // Still decide what bash runs, read as bash reads it, so a deny rule still denies.
      if (differs.repaired !== undefined && !acc.repaired.has(differs.repaired)) {
        acc.repaired.add(differs.repaired);
        analyseScript(acc, differs.repaired, depth + 1);
      }
      for (const body of substitutionsInText(script).scripts) analyseScript(acc, body, depth + 1);
    }
    for (const f of evaluationFindings(tree.rootNode)) finding(acc, f.text, 'ask', f.rule, f.reason);
    extraction = extractCommands(tree.rootNode, script);
  } finally {
    tree.delete();
  }
  for (const f of extraction.evaluations) finding(acc, f.text, 'ask', f.rule, f.reason);
  if (extraction.syntaxError)
    finding(
      acc,
      script,
      'ask',
      'analysis:unparseable',
      'the command does not parse as bash, so its parts cannot all be known',
    );
  for (const hidden of extraction.unanalysed)
    finding(acc, hidden.text, 'ask', 'shell:unanalysed-substitution', hidden.reason);
  let stdinShell = false;
  for (const command of extraction.commands)
    if (processCommand(acc, command.words, command.assignments, depth, command.source)) stdinShell = true;
  for (const redirect of extraction.redirects)
    if (redirect.target) addPath(acc, redirect.target, redirect.access, redirect.via);
  // A shell reading stdin runs whatever is fed to it: here-documents, here-strings, echoed text.
  if (stdinShell) for (const text of extraction.stdinTexts) analyseScript(acc, text, depth + 1);
}

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
    acc.paths.slice(acc.cwdChangedAt).some((p) => !p.path.startsWith('/') && !p.path.startsWith('~'))
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
  let effect: EffectClass = 'read';
  for (const part of acc.parts) if (ORDER[part.effect] > ORDER[effect]) effect = part.effect;
  if (effect === 'read' && acc.paths.some((p) => p.access === 'write')) effect = 'write';
  if (acc.findings.length > 0 && effect === 'read') effect = 'write';
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
