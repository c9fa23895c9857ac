/**
 * From a tool call to a policy input: resolves the tool's own paths, analyses the command of a
 * bash-like tool (`ToolDefinition.command`), resolves the files the command reads and writes
 * (redirections and file arguments) through the same path policy, and classes the call's effect
 * by what the command does. `decideCommand` is the same pipeline for one command string, used
 * by `harness-bench policy check` and the tests.
 */
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { HarnessConfig } from '../config.ts';
import { runPathLabels, type PathLabel } from '../path-display.ts';
import type { EffectClass, ToolDefinition } from '../tools/types.ts';
import { globOption } from './glob-options.ts';
import { expandBraces, expandGlob, hasGlob, MAX_EXPANSION } from './path-expansion.ts';
import { resolvePath, type PathLookup, type ResolvedPath } from './paths.ts';
import {
  combineDecisions,
  decide,
  type PolicyFinding,
  type PolicyInput,
  type PolicyPath,
  type PolicyTree,
} from './policy.ts';
import { analyseCommand } from './shell-analysis.ts';
import type { CommandAnalysis, PathUse, TreeWalk } from './shell-analysis-types.ts';
import { walkTree } from './tree-walk.ts';
import { WORKSPACE_MARK } from './shell-words.ts';
import type { PolicyDecision } from './types.ts';

/** Where a call runs: the workspace (a real path), the home folder for `~`, and the taint so far. */
export interface CallSite {
  workspace: string;
  /** Folder `~` expands to in commands. @default os.homedir() */
  home?: string;
  /** Tools whose untrusted content is in the context already (empty: not tainted). */
  taintedBy?: string[];
  /** How paths are looked at while resolving them (a per-turn cache). @default `node:fs/promises` */
  lookup?: PathLookup;
  /**
   * When given, reasons name paths as the model sees them: the workspace as `$WS`, these folders
   * by their label (`path-display.ts`). Absent: absolute paths (`policy check`).
   */
  pathLabels?: readonly PathLabel[];
}

/** A call made ready for the policy. */
export interface PreparedCall {
  input: PolicyInput;
  /** The tool's own paths (`ToolDefinition.paths`), resolved, in order: what `execute` receives. */
  toolPaths: (ResolvedPath & { access: 'read' | 'write' })[];
  /** The command, for bash-like tools. */
  command?: string;
  analysis?: CommandAnalysis;
}

const ORDER: Record<EffectClass, number> = { read: 0, write: 1, irreversible: 2 };

/** Resolves `requested` lexically against `workspace` (no file system): for checks without a real workspace. */
export function resolveLexically(workspace: string, requested: string): ResolvedPath {
  const absolute = path.posix.resolve(workspace, requested);
  const relative = path.posix.relative(workspace, absolute);
  const inside = relative === '' || (!relative.startsWith('..') && !path.posix.isAbsolute(relative));
  return { requested, absolute, inside, relative: inside ? relative || '.' : absolute };
}

/**
 * Resolves a name whose last component is used as it is (a link there is not followed): its
 * folder through every link, then the name in it. `.`, `..` and a trailing `/` follow as usual.
 */
async function resolveName(workspace: string, requested: string, lookup?: PathLookup): Promise<ResolvedPath> {
  const base = path.basename(requested);
  if (base === '.' || base === '..' || base === '' || requested.endsWith('/'))
    return resolvePath(workspace, requested, lookup);
  const parent = await resolvePath(workspace, path.dirname(requested), lookup);
  const absolute = path.join(parent.absolute, base);
  if (!parent.inside || parent.error !== undefined) return { ...parent, requested, absolute };
  return {
    requested,
    absolute,
    inside: true,
    relative: parent.relative === '.' ? base : `${parent.relative}/${base}`,
  };
}

/** The resolved paths of one file operand, and what could not be checked. */
interface ResolvedUse {
  paths: PolicyPath[];
  findings: PolicyFinding[];
}

/**
 * Resolves one file operand of a command. A word with unquoted glob or brace characters is
 * expanded as bash would (`path-expansion.ts`): every brace alternative, and every file a glob
 * matches in the real workspace, is resolved through links; a glob that matches nothing is
 * checked as written, as bash passes it on. Too many words ask (`path:dynamic`). Lexical checks
 * (no real workspace) expand braces only.
 */
async function resolveUse(use: PathUse, site: CallSite, lexical: boolean): Promise<ResolvedUse> {
  const home = site.home ?? homedir();
  const out: ResolvedUse = { paths: [], findings: [] };
  const tooMany = (what: string): PolicyFinding => ({
    subject: use.via,
    action: 'ask',
    rule: 'path:dynamic',
    reason: `the ${use.access} target ${use.path} expands to ${what} more than ${MAX_EXPANSION} paths, which are not checked one by one`,
  });
  const words = use.glob ? expandBraces(use.path) : [use.path];
  if (!words) {
    out.findings.push(tooMany('brace alternatives for'));
    return out;
  }
  const resolve = async (requested: string) =>
    lexical
      ? resolveLexically(site.workspace, requested)
      : use.noFollow
        ? await resolveName(site.workspace, requested, site.lookup)
        : await resolvePath(site.workspace, requested, site.lookup);
  for (const word of words) {
    const expanded =
      word === '~'
        ? home
        : word.startsWith('~/')
          ? path.join(home, word.slice(2))
          : word.startsWith(WORKSPACE_MARK)
            ? `${site.workspace}${word.slice(WORKSPACE_MARK.length)}`
            : word;
    const literal = await resolve(expanded);
    const add = (resolved: ResolvedPath, requested: string) =>
      out.paths.push({ ...resolved, requested, access: use.access, via: use.via });
    if (!use.glob || lexical || !hasGlob(expanded)) {
      add(literal, words.length > 1 ? word : use.path);
      continue;
    }
    const matches = await expandGlob(expanded, site.workspace);
    if (matches === undefined) out.findings.push(tooMany('files matching'));
    // Bash passes a pattern that matches nothing on as written; a pattern outside the workspace is denied whatever it matches.
    if (!matches || matches.length === 0 || !literal.inside) add(literal, word);
    for (const match of matches ?? []) {
      const relative = path.relative(site.workspace, match);
      add(await resolve(match), relative.startsWith('..') || path.isAbsolute(relative) ? match : relative);
    }
  }
  return out;
}

/**
 * Walks the tree a recursive command reads or writes (`tree-walk.ts`): the links it follows are
 * resolved like file operands (one that leaves the workspace is denied), and the files under it
 * go to the policy, which checks them against the sensitive paths.
 */
async function walkUse(
  walk: TreeWalk,
  site: CallSite,
  paths: PolicyPath[],
  trees: PolicyTree[],
): Promise<void> {
  const home = site.home ?? homedir();
  const requested =
    walk.root === '~'
      ? home
      : walk.root.startsWith('~/')
        ? path.join(home, walk.root.slice(2))
        : walk.root.startsWith(WORKSPACE_MARK)
          ? `${site.workspace}${walk.root.slice(WORKSPACE_MARK.length)}`
          : walk.root;
  const root = await resolvePath(site.workspace, requested);
  if (!root.inside) return; // the root itself is a path of the command, denied there
  const found = await walkTree(site.workspace, root.absolute, walk.follows);
  for (const link of found.links) {
    const resolved = await resolvePath(site.workspace, link);
    if (!resolved.inside)
      paths.push({
        ...resolved,
        requested: path.relative(site.workspace, link),
        access: walk.access,
        via: walk.via,
      });
  }
  const relative = (file: string) => path.relative(site.workspace, file).split(path.sep).join('/');
  trees.push({
    root: root.relative,
    via: walk.via,
    access: walk.access,
    content: walk.content,
    files: found.files.map(relative),
    hardLinked: found.hardLinked.map(relative),
    truncated: found.truncated,
  });
}

/**
 * Builds the policy input of one call. A tool with a `command` hook is analysed as a shell
 * command; its effect class is then the command's (`ls` is `read`, `curl` is `irreversible`),
 * except that a tool declared `irreversible` stays so.
 * @param lexical resolve paths without the file system (for checks outside a real workspace)
 */
export async function prepareCall(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  site: CallSite,
  lexical = false,
): Promise<PreparedCall> {
  const toolPaths: PreparedCall['toolPaths'] = [];
  for (const access of tool.paths?.(args) ?? [])
    toolPaths.push({
      ...(lexical
        ? resolveLexically(site.workspace, access.path)
        : await resolvePath(site.workspace, access.path, site.lookup)),
      access: access.access,
    });
  const command = tool.command?.(args);
  const taintedBy = site.taintedBy ?? [];
  const labels = site.pathLabels ? { pathLabels: runPathLabels(site.workspace, site.pathLabels) } : {};
  if (command === undefined)
    return {
      input: {
        tool: tool.name,
        effect: tool.effect,
        paths: toolPaths,
        ...(taintedBy.length > 0 ? { taintedBy } : {}),
        ...(tool.harnessState ? { harnessState: true } : {}),
        ...labels,
      },
      toolPaths,
    };
  const analysis = await analyseCommand(command);
  const commandPaths: PolicyPath[] = [];
  const pathFindings: PolicyFinding[] = [];
  // Option words a glob yields in the workspace (`glob-options.ts`): decided as written out.
  const written: CommandAnalysis[] = [];
  for (const glob of analysis.optionGlobs) {
    const found = await globOption(glob, async (pattern) => {
      if (lexical) return [];
      const from = path.resolve(site.workspace, glob.cwd ?? '.');
      const matches = await expandGlob(pattern, from);
      return matches?.map((m) => (path.isAbsolute(pattern) ? m : path.relative(from, m)));
    });
    if (!found) continue;
    pathFindings.push({
      subject: found.command,
      action: 'ask',
      rule: 'shell:glob-option',
      reason: found.reason,
    });
    written.push(found.analysis);
  }
  for (const use of [...analysis.paths, ...written.flatMap((w) => w.paths)]) {
    const resolved = await resolveUse(use, site, lexical);
    commandPaths.push(...resolved.paths);
    pathFindings.push(...resolved.findings);
  }
  const trees: PolicyTree[] = [];
  if (!lexical)
    for (const walk of analysis.walks) {
      if (!walk.glob) {
        await walkUse(walk, site, commandPaths, trees);
        continue;
      }
      // A glob root (`tar cf a.tar src/*`): every match is a root of its own.
      const matches = hasGlob(walk.root) ? await expandGlob(walk.root, site.workspace) : undefined;
      if (matches === undefined)
        pathFindings.push({
          subject: walk.via,
          action: 'ask',
          rule: 'path:dynamic',
          reason: `the tree ${walk.root} ${walk.via.split(' ')[0]} walks matches more than ${MAX_EXPANSION} paths, or is not a pattern the checker expands`,
        });
      for (const match of matches ?? []) await walkUse({ ...walk, root: match }, site, commandPaths, trees);
    }
  if (lexical && analysis.walks.some((w) => w.glob))
    pathFindings.push({
      subject: command,
      action: 'ask',
      rule: 'path:dynamic',
      reason: 'a walked tree is a glob, which is expanded only in a real workspace',
    });
  // A leading `cd DIR &&`: its paths were taken from DIR, which must be a folder inside the workspace.
  if (analysis.cwd !== undefined && !lexical) {
    const dir = await resolvePath(site.workspace, analysis.cwd, site.lookup);
    const isFolder =
      dir.inside &&
      dir.error === undefined &&
      (await stat(dir.absolute).then(
        (s) => s.isDirectory(),
        () => false,
      ));
    if (!isFolder)
      pathFindings.push({
        subject: command,
        action: 'ask',
        rule: 'path:cwd-changed',
        reason: `the command enters ${analysis.cwd}, which is not a folder inside the workspace, so its relative file targets cannot be resolved before it runs`,
      });
  }
  let analysed = analysis.effect;
  for (const w of written) if (ORDER[w.effect] > ORDER[analysed]) analysed = w.effect;
  const effect = tool.effect === 'irreversible' || ORDER[analysed] > ORDER.write ? 'irreversible' : analysed;
  const equivalents = [...analysis.equivalents, ...written.flatMap((w) => w.equivalents)];
  const repositoryCode =
    analysis.repositoryCode ??
    written.find((w) => w.repositoryCode !== undefined)?.repositoryCode ??
    (written.length > 0
      ? (pathFindings.find((f) => f.rule === 'shell:glob-option')?.reason ?? undefined)
      : undefined);
  return {
    input: {
      tool: tool.name,
      effect,
      paths: [...toolPaths, ...commandPaths],
      commands: [...analysis.parts, ...written.flatMap((w) => w.parts)].map((p) => p.text),
      findings: [...analysis.findings, ...written.flatMap((w) => w.findings), ...pathFindings],
      network: analysis.network || written.some((w) => w.network),
      ...(trees.length > 0 ? { trees } : {}),
      ...(equivalents.length > 0 ? { equivalents } : {}),
      ...(repositoryCode !== undefined ? { repositoryCode } : {}),
      ...(analysis.guards.length > 0 ? { guards: analysis.guards } : {}),
      ...(taintedBy.length > 0 ? { taintedBy } : {}),
      ...labels,
    },
    toolPaths,
    command,
    analysis,
  };
}

/** Decides a prepared call under a chain of configurations (a subagent's and its ancestors'): the strictest wins. */
export function decideCall(prepared: PreparedCall, configs: readonly HarnessConfig[]): PolicyDecision {
  return combineDecisions(configs.map((config) => decide(prepared.input, config)));
}

/** Options of {@link decideCommand}. */
export interface DecideCommandOptions extends Partial<CallSite> {
  /** The tool name shown in the decision. @default 'bash' */
  tool?: string;
}

/** A command's decision with the analysis behind it. */
export type CommandDecision = PolicyDecision & { analysis: CommandAnalysis; effect: EffectClass };

/**
 * Decides one bash command under `config`: every simple command after unwrapping, every finding
 * of the analysis, every file it reads or writes. Without `workspace`, paths are resolved
 * lexically against a virtual `/workspace` (links cannot be followed).
 */
export async function decideCommand(
  command: string,
  config: HarnessConfig,
  options: DecideCommandOptions = {},
): Promise<CommandDecision> {
  const lexical = options.workspace === undefined;
  const site: CallSite = {
    workspace: options.workspace ?? '/workspace',
    ...(options.home !== undefined ? { home: options.home } : {}),
    ...(options.taintedBy ? { taintedBy: options.taintedBy } : {}),
    ...(options.pathLabels ? { pathLabels: options.pathLabels } : {}),
  };
  const tool: ToolDefinition = {
    name: options.tool ?? 'bash',
    description: 'bash',
    parameters: { type: 'object' },
    effect: 'write',
    command: () => command,
    execute: async () => ({ ok: true, content: '' }),
  };
  const prepared = await prepareCall(tool, {}, site, lexical);
  return { ...decide(prepared.input, config), analysis: prepared.analysis!, effect: prepared.input.effect };
}
