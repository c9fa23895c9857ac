/**
 * Option words made by expansion: bash expands a glob or a brace before the program sees its
 * arguments, so a workspace file named `--ext-diff` or `--checkpoint-action=exec=sh x.sh` that
 * `*` picks up is an option to `git diff *` or `tar cf a.tar *` (bash manual §3.5.8; the
 * "wildcard injection" of file names that look like options). Each simple command whose glob or
 * brace word may yield a leading `-` (`shell-commands.ts` records them) is written out with the
 * words the expansion gives in the workspace and analysed again; when that changes what it does
 * (a finding, another command run, a write, the network, repository code), the call asks
 * (`shell:glob-option`) and is decided as written out.
 */
import { expandBraces, hasGlob } from './path-expansion.ts';
import { analyseCommandSync } from './shell-analysis.ts';
import type { CommandAnalysis, OptionGlob } from './shell-analysis-types.ts';
import { quoteWord } from './shell-words.ts';

/** A command written out with its expansion, when the words it yields change what it does. */
export interface GlobOption {
  /** The command as bash will run it (expanded words quoted). */
  command: string;
  /** The option words the expansion yields. */
  options: string[];
  analysis: CommandAnalysis;
  /** A sentence for the `shell:glob-option` finding. */
  reason: string;
}

/** True when the written-out analysis does more than the words as written let the checker see. */
function changes(analysis: CommandAnalysis): boolean {
  return (
    analysis.findings.length > 0 ||
    analysis.repositoryCode !== undefined ||
    analysis.parts.length > 1 ||
    analysis.network ||
    analysis.equivalents.length > 0 ||
    analysis.paths.some((p) => p.access === 'write') ||
    analysis.effect === 'irreversible'
  );
}

/**
 * Writes out one recorded command with the words its pattern yields (`expand` lists the workspace
 * names a glob matches, relative as bash prints them, `[]` for none), or undefined when no word
 * starts with `-` or the written-out command does nothing more.
 */
export async function globOption(
  glob: OptionGlob,
  expand: (pattern: string) => Promise<string[] | undefined>,
): Promise<GlobOption | undefined> {
  const words: string[] = [];
  for (const alternative of expandBraces(glob.pattern) ?? [glob.pattern]) {
    const matches = hasGlob(alternative) ? await expand(alternative) : [alternative];
    if (matches === undefined) return undefined;
    words.push(...(matches.length > 0 ? matches : [alternative]));
  }
  const options = words.filter((w) => w.startsWith('-'));
  if (options.length === 0) return undefined;
  const command = [
    ...glob.words.slice(0, glob.index),
    ...words.map(quoteWord),
    ...glob.words.slice(glob.index + 1),
  ].join(' ');
  const analysis = analyseCommandSync(command);
  if (!changes(analysis)) return undefined;
  return {
    command,
    options,
    analysis,
    reason: `${glob.pattern} expands to ${options.map((o) => JSON.stringify(o)).join(', ')}, which ${glob.words[0]} reads as options: decided as ${JSON.stringify(command)}`,
  };
}
