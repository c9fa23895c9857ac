/**
 * The parts of a policy decision that come from what a command walks or sends, beside its own
 * paths (`policy.ts`): the sensitive and hard-linked files under a tree a recursive command reads
 * or writes, a walk cut short, and credentials read by a call that also reaches the network (a
 * hard deny). Handed cases E04 and F02 (`sensitive-paths.ts`).
 */
import { globMatcher, type SensitivePath, sensitiveMatch } from './sensitive-paths.ts';
import type { DecisionPart } from './types.ts';

/** A tree a command walks: workspace-relative paths of the files under it. */
export interface PolicyTree {
  root: string;
  via: string;
  access: 'read' | 'write';
  /** The command reads the files' content (not only their names). */
  content: boolean;
  files: string[];
  /** Files under it with more than one hard link. */
  hardLinked: string[];
  /** The walk stopped before the end (too many entries). */
  truncated: boolean;
}

/** Sensitive files of one tree reported one by one at most (the reason names the rest by count). */
const MAX_TREE_PARTS = 20;

/**
 * The parts of a walked tree: sensitive files (of `sensitivePaths`, a configuration's list) read
 * or written through it and hard-linked files, at most {@link MAX_TREE_PARTS} of them, and a walk
 * cut short. Names and sizes only (`ls -R`, `find`, `du`) give no file parts.
 */
export function treeParts(tree: PolicyTree, sensitivePaths: readonly SensitivePath[]): DecisionPart[] {
  const parts: DecisionPart[] = [];
  const base = { kind: 'path' as const, access: tree.access, via: tree.via };
  if (tree.truncated)
    parts.push({
      ...base,
      subject: tree.root,
      action: 'ask',
      rule: 'path:tree-too-large',
      reason: `${JSON.stringify(tree.root)} holds too many files to check one by one for links out of the workspace and sensitive files`,
    });
  // Names and sizes only (`ls -R`, `find`, `du`): neither another name of a file nor a sensitive file leaks.
  if (!tree.content && tree.access === 'read') return parts;
  let reported = 0;
  for (const file of tree.hardLinked) {
    if (reported >= MAX_TREE_PARTS) break;
    reported += 1;
    parts.push({
      ...base,
      subject: file,
      action: tree.access === 'write' ? 'deny' : 'ask',
      rule: 'path:hard-link',
      reason: `${JSON.stringify(file)} (under ${JSON.stringify(tree.root)}) has more than one hard link: another name may be outside the workspace`,
    });
  }
  for (const file of tree.files) {
    if (reported >= MAX_TREE_PARTS) break;
    const sensitive = sensitiveMatch(file, tree.access, sensitivePaths);
    if (!sensitive) continue;
    reported += 1;
    parts.push({
      ...base,
      subject: file,
      requested: file,
      action: 'ask',
      rule: `sensitive:${sensitive.pattern}`,
      reason: `${JSON.stringify(file)} is a sensitive path, ${tree.access === 'read' ? 'read' : 'changed'} by a recursive walk of ${JSON.stringify(tree.root)} (it needs the approval a direct access needs)`,
    });
  }
  return parts;
}

/** What {@link exfiltration} looks at of a call's policy input (`PolicyInput`). */
export interface ExfiltrationInput {
  tool: string;
  network?: boolean;
  paths: readonly { access: 'read' | 'write'; inside: boolean; relative: string }[];
  trees?: readonly PolicyTree[];
}

/**
 * Credentials (an entry of access `any` in `sensitivePaths`) read by a call that also reaches the
 * network: the hard-deny part `exfil:secret-to-network`, or undefined.
 */
export function exfiltration(
  input: ExfiltrationInput,
  sensitivePaths: readonly SensitivePath[],
): DecisionPart | undefined {
  if (input.network !== true) return undefined;
  const credential = (file: string) =>
    sensitivePaths.some((e) => e.access === 'any' && globMatcher(e.pattern)(file));
  const read =
    input.paths.find((p) => p.access === 'read' && p.inside && credential(p.relative))?.relative ??
    input.trees?.flatMap((t) => (t.content ? t.files : [])).find(credential);
  if (read === undefined) return undefined;
  return {
    subject: input.tool,
    kind: 'command',
    action: 'deny',
    rule: 'exfil:secret-to-network',
    reason: `reads the credential ${JSON.stringify(read)} and reaches a network host in one call; a hard deny, not overridable by auto-approve, rules or approvals`,
  };
}
