/**
 * The walk of the shell analysis: parses a script (`shell-parser.ts`), extracts its simple
 * commands (`shell-extract.ts`), and records for each what it runs, reads, writes and walks
 * (`programs/`), recursing into the scripts and commands it wraps, the substitutions bash
 * evaluates again and the scripts fed to a shell on stdin.
 */
import type { EffectClass } from '../tools/types.ts';
import { programFacts, SHELLS } from './programs/index.ts';
import { type Accumulator, addPath, finding, inFolder } from './shell-accumulator.ts';
import { builtinEvaluation, evaluationFindings } from './shell-arith.ts';
import { ambiguousBytes, parserDifferential } from './shell-bytes.ts';
import { destructiveEquivalent } from './destructive.ts';
import { definedFunctions, rebindingReason, shadowingReason } from './rebinding.ts';
import { commandOfVariable } from './code-strings.ts';
import { assignmentIsDangerous, environmentChanges } from './shell-environment.ts';
import { extractCommands, type Assignment } from './shell-extract.ts';
import { inlinePrograms, inlineProgram } from './shell-inline.ts';
import { parseShell } from './shell-parser.ts';
import { substitutionsInText } from './shell-hidden.ts';
import { displayWord, normaliseProgram, type ShellWord, WORKSPACE_MARK } from './shell-words.ts';

/** Scripts nested deeper than this (`sh -c "sh -c …"`) are not analysed further: ask. */
export const MAX_DEPTH = 12;

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
    const command = a.value?.value !== undefined ? commandOfVariable(a.name, a.value.value) : undefined;
    // A command-valued variable (a pager, an editor) gets the verdict of the command it holds.
    if (command !== undefined) {
      if (command !== '') analyseScript(acc, command, depth + 1);
    } else if (assignmentIsDangerous(a.name, a.value?.value))
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
  if (word.value === undefined || word.expands || word.value.includes(WORKSPACE_MARK)) return null;
  if (word.plain && /(^|[=:])~/.test(word.value)) return null;
  return word.value;
}

/**
 * Records the words of a simple command where an unquoted glob or brace word may expand to words
 * starting with `-` (a pattern starting with `*`, `?`, `[`, `{` or `-`), up to `--`: the program
 * would read them as options (`command-policy.ts` expands them in the workspace).
 */
function recordOptionGlobs(acc: Accumulator, words: readonly ShellWord[], depth: number): void {
  for (let k = 1; k < words.length; k += 1) {
    const w = words[k]!;
    if (w.value === '--') return;
    if (!w.expands || w.value === undefined || !/^[-*?[{]/.test(w.value)) continue;
    acc.optionGlobs.push({
      words: words.map(displayWord),
      index: k,
      pattern: w.value,
      depth,
      ...(acc.cwd !== undefined ? { cwd: acc.cwd } : {}),
    });
  }
}

/** Returns true when the command is a shell reading its script from stdin, `interpreter:NAME` for an interpreter reading its program from stdin. */
function processCommand(
  acc: Accumulator,
  words: readonly ShellWord[],
  assignments: readonly Assignment[],
  depth: number,
  source: string,
): boolean | `interpreter:${string}` {
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
  const staticArgs = args.map((a) => (a.expands ? undefined : a.value));
  const equivalent = destructiveEquivalent(name, staticArgs);
  if (equivalent) {
    acc.equivalents.push({ command: text, ...equivalent });
    acc.parts[acc.parts.length - 1]!.effect = 'irreversible';
  }
  const rebinding = rebindingReason(name, staticArgs);
  if (rebinding)
    finding(
      acc,
      text,
      'deny',
      'shell:rebinding',
      `${rebinding}: later commands run other code than their name says`,
    );
  recordOptionGlobs(acc, words, depth);
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
  const stdinProgram = inlinePrograms(acc, name, args, text, depth, analyseScript);
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
      if (root.value !== undefined)
        acc.walks.push({
          root:
            acc.cwd !== undefined && !/^[/~\u0000]/.test(root.value)
              ? inFolder(acc.cwd, root.value)
              : root.value,
          ...(root.expands ? { glob: true } : {}),
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
  for (const file of effects.files) addPath(acc, file.word, file.access, text, file.noFollow === true);
  // The folder `cd` (or `git -C`, `env -C`) enters was just checked as a read; paths after it are relative to it.
  // A leading `cd DIR &&` (`shell-analysis.ts`): later relative paths are taken from DIR.
  if (
    name === 'cd' &&
    depth === 0 &&
    acc.pendingCd !== undefined &&
    args.length === 1 &&
    args[0]!.value === acc.pendingCd
  ) {
    acc.cwd = acc.pendingCd;
    acc.pendingCd = undefined;
  } else if (
    (name === 'cd' || name === 'pushd' || name === 'popd' || info.changesDirectory) &&
    !acc.cwdChanged
  ) {
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
  if (stdinProgram) return `interpreter:${name}`;
  return SHELLS.has(name) ? info.readsStdin === true : stdinSource;
}

/**
 * Analyses one script at nesting `depth` into `acc`: its findings, commands, redirections and,
 * when a shell reads stdin, the texts fed to it.
 * @throws RangeError when the tree is deeper than the call stack, Error when the parser fails or is
 *   not loaded (`analyseCommandSync` turns either into an `analysis:unparseable` finding).
 */
export function analyseScript(acc: Accumulator, script: string, depth: number): void {
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
    for (const fn of definedFunctions(tree.rootNode)) {
      const why = shadowingReason('function', fn);
      if (why)
        finding(
          acc,
          `${fn}()`,
          'deny',
          'shell:rebinding',
          `${why}: later commands run other code than their name says`,
        );
    }
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
  const stdinPrograms: string[] = [];
  for (const command of extraction.commands) {
    const reads = processCommand(acc, command.words, command.assignments, depth, command.source);
    if (reads === true) stdinShell = true;
    else if (reads !== false) stdinPrograms.push(reads.slice('interpreter:'.length));
  }
  for (const redirect of extraction.redirects)
    if (redirect.target) addPath(acc, redirect.target, redirect.access, redirect.via);
  // A shell reading stdin runs whatever is fed to it: here-documents, here-strings, echoed text.
  if (stdinShell) for (const text of extraction.stdinTexts) analyseScript(acc, text, depth + 1);
  // An interpreter reading stdin runs what is fed to it as its program (`inline-code.ts`).
  for (const program of stdinPrograms)
    for (const text of extraction.stdinTexts)
      inlineProgram(acc, program, text, `${program} (stdin)`, depth, analyseScript, false);
}
