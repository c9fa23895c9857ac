/**
 * Skills: folders holding a `SKILL.md` whose YAML front matter names the skill and says when to
 * use it (the Agent Skills layout, https://agentskills.io/specification). Project skills live
 * under `<workspace>/.agents/skills/<name>/SKILL.md`, user skills under
 * `<home>/.agents/skills/<name>/SKILL.md`; a project skill wins over a user skill of the same
 * name. Only names and descriptions go into the system prompt; the body is read on demand with
 * `read_skill` (progressive disclosure), so a hundred skills cost a hundred lines, not a hundred
 * files. Discovery is harness setup, not a tool, so it reads the disk directly.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { SkillReader } from './types.ts';
import { describeSystemError, WORKSPACE_LABEL } from '../path-display.ts';

/** A skill name: one path segment of letters, digits, `.`, `_` and `-`, not starting with a dot. */
export const SKILL_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]*$';
const NAME = new RegExp(SKILL_NAME_PATTERN);
/** Longest description kept in the prompt, in characters (the Agent Skills limit). */
const SKILL_DESCRIPTION_MAX = 1024;

/** One discovered skill. `file` is the absolute path of its `SKILL.md`. */
export interface Skill {
  name: string;
  description: string;
  source: 'project' | 'user';
  dir: string;
  /**
   * `dir` as the model is told it (`path-display.ts`): `$WS/.agents/skills/<folder>` for a
   * project skill, `~/.agents/skills/<folder>` for one of the user's skills home.
   */
  shownDir: string;
  file: string;
  /** Every front matter field, as parsed. */
  meta: Record<string, unknown>;
}

/** A skill folder that could not be used, and why. */
export interface SkillProblem {
  file: string;
  reason: string;
}

/**
 * Splits a `SKILL.md` into its YAML front matter and body. The front matter is the text between
 * a first line `---` and the next line `---`.
 * @returns `{ meta, body }`, or `{ error }` when the front matter is missing, not YAML, or not a mapping.
 */
export function parseSkillFile(
  text: string,
): { meta: Record<string, unknown>; body: string } | { error: string } {
  const normalised = text.replace(/^\ufeff/, '').replace(/\r\n/g, '\n');
  if (!normalised.startsWith('---\n'))
    return { error: 'no YAML front matter (the file must start with a line "---")' };
  const end = normalised.indexOf('\n---', 3);
  if (end < 0) return { error: 'the front matter is not closed by a line "---"' };
  const afterMarker = normalised.indexOf('\n', end + 4);
  const yamlText = normalised.slice(4, end + 1);
  let meta: unknown;
  try {
    meta = parseYaml(yamlText);
  } catch (error) {
    return { error: `the front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}` };
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta))
    return { error: 'the front matter is not a mapping of fields' };
  return {
    meta: meta as Record<string, unknown>,
    body: afterMarker < 0 ? '' : normalised.slice(afterMarker + 1),
  };
}

/** The entries of a folder, with their types. */
const readdirEntries = (root: string) => readdir(root, { withFileTypes: true });

async function scan(
  root: string,
  shownRoot: string,
  source: Skill['source'],
  problems: SkillProblem[],
): Promise<Skill[]> {
  let entries: Awaited<ReturnType<typeof readdirEntries>>;
  try {
    entries = await readdirEntries(root);
  } catch {
    return [];
  }
  const out: Skill[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || !NAME.test(entry.name)) continue;
    const dir = path.join(root, entry.name);
    const file = path.join(dir, 'SKILL.md');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    const parsed = parseSkillFile(text);
    if ('error' in parsed) {
      problems.push({ file, reason: parsed.error });
      continue;
    }
    const name =
      typeof parsed.meta.name === 'string' && NAME.test(parsed.meta.name) ? parsed.meta.name : entry.name;
    const description =
      typeof parsed.meta.description === 'string' ? parsed.meta.description.trim().replace(/\s+/g, ' ') : '';
    if (description === '') {
      problems.push({
        file,
        reason: 'the front matter has no description (say what the skill does and when to use it)',
      });
      continue;
    }
    out.push({
      name,
      description: description.slice(0, SKILL_DESCRIPTION_MAX),
      source,
      dir,
      shownDir: `${shownRoot}/${entry.name}`,
      file,
      meta: parsed.meta,
    });
  }
  return out;
}

/**
 * The skills a run can use. Build with {@link discoverSkills}; `promptBlock()` goes into the
 * system prompt, `read(name)` serves `read_skill`.
 */
export class SkillCatalog implements SkillReader {
  private readonly byName: Map<string, Skill>;

  constructor(
    readonly skills: readonly Skill[] = [],
    readonly problems: readonly SkillProblem[] = [],
  ) {
    this.byName = new Map(skills.map((s) => [s.name, s]));
  }

  /** Skill names, sorted. */
  names(): string[] {
    return [...this.byName.keys()].sort();
  }

  get(name: string): Skill | undefined {
    return this.byName.get(name);
  }

  /**
   * The system-prompt lines: one `- name: description` per skill after an instruction line, or
   * `''` when there are no skills.
   */
  promptBlock(): string {
    if (this.byName.size === 0) return '';
    const lines = this.names().map((name) => `- ${name}: ${this.byName.get(name)!.description}`);
    return [
      'Skills (call read_skill with the name to get the instructions before you use one; only names and descriptions are listed here):',
      ...lines,
    ].join('\n');
  }

  /**
   * The body of a skill (front matter removed) with a line naming its folder, read fresh from
   * disk. @returns `{ error }` for an unknown name (listing the real ones) or an unreadable file.
   */
  async read(name: string): Promise<{ text: string } | { error: string; unknown: boolean }> {
    const skill = this.byName.get(name);
    if (!skill)
      return {
        error: `no skill named ${JSON.stringify(name)}; available: ${this.names().join(', ') || '(none)'}`,
        unknown: true,
      };
    let text: string;
    try {
      text = await readFile(skill.file, 'utf8');
    } catch (error) {
      return { error: `skill ${name}: ${describeSystemError(error)}`, unknown: false };
    }
    const parsed = parseSkillFile(text);
    if ('error' in parsed) return { error: `skill ${name}: ${parsed.error}`, unknown: false };
    return { text: `${parsed.body.trimEnd()}\n\n[skill ${name} (${skill.source}) in ${skill.shownDir}]` };
  }
}

/**
 * Finds the skills of a workspace and, when `userHome` is given, of the user. Missing folders
 * mean no skills; a `SKILL.md` without front matter or description is listed in `problems`.
 */
export async function discoverSkills(options: {
  workspace: string;
  userHome?: string;
}): Promise<SkillCatalog> {
  const problems: SkillProblem[] = [];
  const user = options.userHome
    ? await scan(path.join(options.userHome, '.agents', 'skills'), '~/.agents/skills', 'user', problems)
    : [];
  const project = await scan(
    path.join(options.workspace, '.agents', 'skills'),
    `${WORKSPACE_LABEL}/.agents/skills`,
    'project',
    problems,
  );
  const merged = new Map<string, Skill>();
  for (const skill of [...user, ...project]) merged.set(skill.name, skill);
  return new SkillCatalog([...merged.values()], problems);
}
