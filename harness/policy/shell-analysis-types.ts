/**
 * What the shell analysis (`shell-analysis.ts`) finds in one command string: the simple commands
 * after unwrapping, the findings it decides by itself, the files it reads and writes and the
 * folder trees it walks.
 */
import type { EffectClass } from '../tools/types.ts';
import type { FindingRuleId } from './rules.ts';

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
  /** Only the name is used: a link in the last component is not followed (`ls -l link`, `stat link`). */
  noFollow?: boolean;
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
  /** Destructive equivalents (`git reset --hard`, `truncate`, `crontab -r`): decided also as the `rm -rf` they amount to (`destructive.ts`). */
  equivalents: Equivalent[];
  /** Simple commands with a glob or brace word in an option position: expanded in the workspace, the option words they yield are decided as written out. */
  optionGlobs: OptionGlob[];
  /**
   * The folder a leading `cd DIR &&` enters (workspace-relative, as written): relative paths after
   * it are taken from there. `command-policy.ts` checks that it is a folder inside the workspace;
   * otherwise the call asks (`path:cwd-changed`).
   */
  cwd?: string;
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
  /** The root is a glob: the walk covers every match (`command-policy.ts` expands it). */
  glob?: boolean;
}

/** A command that destroys what `rm -rf` would (`destructive.ts`): the rules decide it also as `as`. */
export interface Equivalent {
  /** The normalised simple command. */
  command: string;
  /** The `rm -rf …` it amounts to. */
  as: string;
  reason: string;
}

/**
 * A simple command whose word `index` (in `words`, the program first) is an unquoted glob or brace
 * expression that may yield words starting with `-`, before any `--`.
 */
export interface OptionGlob {
  /** The words as displayed (`displayWord`), the program first. */
  words: string[];
  index: number;
  /** The pattern's value (quotes removed, glob and brace characters kept). */
  pattern: string;
  /** Nesting of the command (0: top level). */
  depth: number;
  /** The folder a leading `cd` entered, where the pattern expands (workspace-relative). */
  cwd?: string;
}
