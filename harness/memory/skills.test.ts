import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverSkills, parseSkillFile } from './skills.ts';

let root: string;
let ws: string;
let home: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-skills-')));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function skill(base: string, folder: string, text: string): void {
  mkdirSync(path.join(base, '.agents', 'skills', folder), { recursive: true });
  writeFileSync(path.join(base, '.agents', 'skills', folder, 'SKILL.md'), text);
}

describe('parseSkillFile', () => {
  it('splits YAML front matter from the body', () => {
    expect(
      parseSkillFile('---\nname: pdf\ndescription: "Fill PDF forms: use for any .pdf"\n---\n# PDF\nSteps.\n'),
    ).toEqual({
      meta: { name: 'pdf', description: 'Fill PDF forms: use for any .pdf' },
      body: '# PDF\nSteps.\n',
    });
    expect(parseSkillFile('\ufeff---\r\ndescription: x\r\n---\r\nbody')).toEqual({
      meta: { description: 'x' },
      body: 'body',
    });
  });

  it('says what is wrong with a file that cannot be a skill', () => {
    expect(parseSkillFile('# no front matter')).toEqual({
      error: 'no YAML front matter (the file must start with a line "---")',
    });
    expect(parseSkillFile('---\nname: x\n')).toEqual({
      error: 'the front matter is not closed by a line "---"',
    });
    expect(parseSkillFile('---\n- a\n- b\n---\n')).toEqual({
      error: 'the front matter is not a mapping of fields',
    });
    expect(parseSkillFile('---\nname: [unclosed\n---\n')).toMatchObject({
      error: expect.stringContaining('not valid YAML'),
    });
  });
});

describe('discoverSkills', () => {
  it('finds project and user skills; a project skill wins over a user skill of the same name', async () => {
    skill(ws, 'release', '---\nname: release\ndescription: Cut a release (project)\n---\nproject body\n');
    skill(home, 'release', '---\nname: release\ndescription: Cut a release (user)\n---\nuser body\n');
    skill(home, 'review', '---\ndescription: Review a diff\n  carefully\n---\nreview body\n');
    const catalog = await discoverSkills({ workspace: ws, userHome: home });
    expect(catalog.names()).toEqual(['release', 'review']);
    expect(catalog.get('release')).toMatchObject({
      source: 'project',
      description: 'Cut a release (project)',
    });
    expect(catalog.get('review')).toMatchObject({ source: 'user', description: 'Review a diff carefully' });
    expect(catalog.promptBlock()).toBe(
      'Skills (call read_skill with the name to get the instructions before you use one; only names and descriptions are listed here):\n- release: Cut a release (project)\n- review: Review a diff carefully',
    );
    const read = await catalog.read('review');
    expect(read).toMatchObject({
      text: 'review body\n\n[skill review (user) in ~/.agents/skills/review]',
    });
    expect(await catalog.read('release')).toEqual({
      text: 'project body\n\n[skill release (project) in $WS/.agents/skills/release]',
    });
  });

  it('without a home folder only project skills are found; broken skills are reported, not fatal', async () => {
    skill(home, 'mine', '---\ndescription: user only\n---\n');
    skill(ws, 'nodesc', '---\nname: nodesc\n---\nbody\n');
    skill(ws, 'nofm', 'just text\n');
    const catalog = await discoverSkills({ workspace: ws });
    expect(catalog.names()).toEqual([]);
    expect(catalog.promptBlock()).toBe('');
    expect(catalog.problems.map((p) => path.basename(path.dirname(p.file)))).toEqual(['nodesc', 'nofm']);
    expect(await catalog.read('mine')).toEqual({
      error: 'no skill named "mine"; available: (none)',
      unknown: true,
    });
  });
});
