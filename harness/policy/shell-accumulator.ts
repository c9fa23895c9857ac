/**
 * The state one command's analysis collects while it walks the scripts (`shell-commands.ts`),
 * with the two ways everything enters it: a finding, kept once per rule and subject, and a file
 * the command reads or writes.
 */
import type { FindingRuleId } from './rules.ts';
import { isSecretPath } from './programs/secrets.ts';
import type {
  CommandPart,
  Equivalent,
  Finding,
  OptionGlob,
  PathUse,
  TreeWalk,
} from './shell-analysis-types.ts';
import type { ShellWord } from './shell-words.ts';

const DEVICES = /^\/dev\/(null|zero|random|urandom|stdin|stdout|stderr|tty|fd\/\d+)$/;

/** What the analysis of one command string collects; `shell-analysis.ts` sums it up into a `CommandAnalysis`. */
export interface Accumulator {
  parts: CommandPart[];
  findings: Finding[];
  paths: PathUse[];
  secrets: string[];
  network: string[];
  /** Parts that run code given inline (`python -c`): they may reach the network for the exfiltration rule. */
  inlineCode: string[];
  walks: TreeWalk[];
  repositoryCode: string[];
  /** Destructive equivalents met (`destructive.ts`): decided also as the `rm -rf` they amount to. */
  equivalents: Equivalent[];
  /** Words of simple commands where a glob or brace may expand to option words (`command-policy.ts` expands them). */
  optionGlobs: OptionGlob[];
  guards: string[];
  cwdChanged: boolean;
  /** The folder a leading `cd DIR &&` enters, while its command is analysed (`shell-analysis.ts`). */
  pendingCd?: string;
  /** The folder relative paths are taken from after the leading `cd` (workspace-relative). */
  cwd?: string;
  /** How many paths were recorded when the directory first changed: later relative paths are unknowable. */
  cwdChangedAt: number;
  /** Scripts rewritten the way bash reads them and analysed already (`shell-bytes.ts`). */
  repaired: Set<string>;
}

/** `relative` taken from the folder `cwd` (both relative to the workspace): `src` + `../a` → `src/../a`, kept unnormalised so links resolve as bash resolves them. */
export function inFolder(cwd: string, relative: string): string {
  return `${cwd.replace(/\/+$/, '')}/${relative}`;
}

/** Records a finding unless one with the same rule and subject is recorded already. */
export function finding(
  acc: Accumulator,
  subject: string,
  action: 'ask' | 'deny',
  rule: FindingRuleId,
  reason: string,
): void {
  if (!acc.findings.some((f) => f.rule === rule && f.subject === subject))
    acc.findings.push({ subject, action, rule, reason });
}

/**
 * Records a file `via` reads or writes; an expansion, or another user's home folder, becomes a
 * `path:dynamic` finding instead, and devices are left out.
 */
export function addPath(
  acc: Accumulator,
  word: ShellWord,
  access: 'read' | 'write',
  via: string,
  noFollow = false,
): void {
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
  if (word.value === '' || DEVICES.test(word.value)) return;
  const value =
    acc.cwd !== undefined && !/^[/~\u0000]/.test(word.value) ? inFolder(acc.cwd, word.value) : word.value;
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
  acc.paths.push({
    path: value,
    access,
    via,
    ...(word.expands ? { glob: true } : {}),
    ...(noFollow ? { noFollow: true } : {}),
  });
}
