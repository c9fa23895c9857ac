/**
 * The documentation names only what exists: every repository path a page mentions (a file or a
 * folder under one of the top-level folders, or a root file) is in the repository, and every
 * relative Markdown link resolves. `docs/how-a-run-works.md` must name a real file for each step.
 * Patterns (`harness/*\/types.ts`, `<id>.json`) and generated output (`reports/latest/`) are not
 * paths and are skipped. The pages stand alone: no issue, ticket or pull request is cited by
 * number (a reader outside the tracker cannot follow it; say what is meant), and the counts they
 * type (real recordings) are the repository's.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Every Markdown page of `docs/`, sorted. */
const DOCS = readdirSync(path.join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => `docs/${f}`);
const PAGES = [
  'README.md',
  ...DOCS,
  'cases/README.md',
  'eval/faults/README.md',
  'CONTRIBUTING.md',
  'AGENTS.md',
];
const FOLDERS = 'harness|eval|cli|reports|scenarios|recordings|configs|bench|docs|scripts|cases|bin|\\.ci';
const ROOT_FILES =
  'README\\.md|CONTRIBUTING\\.md|AGENTS\\.md|package\\.json|biome\\.json|knip\\.jsonc|tsconfig\\.json|' +
  'vitest\\.config\\.ts|test-setup\\.ts|\\.dependency-cruiser\\.cjs|\\.dependency-cruiser-known-violations\\.json';
const PATH = new RegExp(`(?<![\\w./~-])((?:${FOLDERS})/[\\w./-]*|(?:${ROOT_FILES})(?![\\w-]|\\.\\w))`, 'g');
/** What a path-looking token is followed by when it is a pattern or a placeholder, not a path. */
const PATTERN_NEXT = /^[*<{…$[]/;
/** Output folders that runs create and git ignores. */
const GENERATED = /^(reports\/(latest|out|mutation)|bench\/results|\.harness-bench)(\/|$)/;

/** Every repository path of `text`, trailing sentence punctuation removed. */
function pathsIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(PATH)) {
    const next = text.slice(match.index + match[0].length, match.index + match[0].length + 1);
    if (PATTERN_NEXT.test(next)) continue;
    const token = match[1]!.replace(/[.,:;]+$/, '');
    if (!GENERATED.test(token)) found.push(token);
  }
  return found;
}

/**
 * Citations of an issue, ticket or pull request by number in `text` ("issue 14", "issues #3",
 * "PR 7", "pull request #12", "ticket 4"), each with its line number. Another project's issue
 * named with its repository (`openai-agents-js#664`) is a public citation, not ours.
 */
function issueReferences(text: string): string[] {
  const found: string[] = [];
  for (const [i, line] of text.split('\n').entries())
    for (const match of line.matchAll(/\b(?:issues?|tickets?|PRs?|pull requests?)\s*#?\d+/gi))
      found.push(`${i + 1}: ${match[0]}`);
  return found;
}

function missing(page: string): string[] {
  const text = readFileSync(path.join(ROOT, page), 'utf8');
  const out: string[] = [];
  for (const token of pathsIn(text)) {
    const full = path.join(ROOT, token);
    if (!existsSync(full) || (token.endsWith('/') && !statSync(full).isDirectory())) out.push(token);
  }
  for (const link of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
    const target = link[1]!;
    if (/^[a-z]+:/.test(target)) continue;
    if (!existsSync(path.resolve(path.dirname(path.join(ROOT, page)), target))) out.push(`link ${target}`);
  }
  return out;
}

describe('documentation paths', () => {
  it('the detector finds paths and skips patterns, placeholders and generated output', () => {
    expect(
      pathsIn(
        'see `harness/loop/run.ts`, harness/policy/ and (eval/suite.ts). Also `harness/*/types.ts`, ' +
          'recordings/real/<id>.json, `reports/latest/results.json`, README.md, package.json.',
      ),
    ).toEqual(['harness/loop/run.ts', 'harness/policy/', 'eval/suite.ts', 'README.md', 'package.json']);
  });

  it.each(PAGES)('%s names only paths that exist', (page) => {
    expect(missing(page)).toEqual([]);
  });

  it('the detector finds issue references and leaves anchors, entities and ids alone', () => {
    expect(
      issueReferences(
        'after issue 14\nIssues #3 and PR 7, pull request #12, ticket 4.\n' +
          'see [x](#record-replay), openai-agents-js#664, 10 issues, issue-triage, prepare 3 files',
      ),
    ).toEqual(['1: issue 14', '2: Issues #3', '2: PR 7', '2: pull request #12', '2: ticket 4']);
  });

  it.each(PAGES)('%s cites no issue, ticket or pull request by number', (page) => {
    expect(issueReferences(readFileSync(path.join(ROOT, page), 'utf8'))).toEqual([]);
  });

  it('the number of real recordings a page types is the number in recordings/real/', () => {
    const real = readdirSync(path.join(ROOT, 'recordings/real')).filter((f) => f.endsWith('.json')).length;
    expect(real).toBeGreaterThan(0);
    for (const page of PAGES) {
      const text = readFileSync(path.join(ROOT, page), 'utf8');
      for (const match of text.matchAll(/\b(\d+) real (?:[\w-]+ )?recordings\b/g))
        expect(Number(match[1]), `${page}: "${match[0]}"`).toBe(real);
    }
  });

  it('how-a-run-works names a real file for every step, from the command to the report', () => {
    const paths = new Set(pathsIn(readFileSync(path.join(ROOT, 'docs/how-a-run-works.md'), 'utf8')));
    for (const step of [
      'bin/harness-bench.js',
      'cli/run-command.ts',
      'eval/suite.ts',
      'eval/run-scenario.ts',
      'harness/loop/run.ts',
      'harness/loop/dispatch.ts',
      'harness/policy/policy.ts',
      'harness/sandbox/bwrap.ts',
      'harness/context/prepare.ts',
      'harness/loop/stop-reasons.ts',
      'harness/ledger.ts',
      'eval/results.ts',
      'reports/write.ts',
    ])
      expect(paths.has(step), step).toBe(true);
    expect(paths.size).toBeGreaterThan(60);
  });

  it('npm start compares every shipped configuration, and the README tour names each one', () => {
    const start = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
    ).scripts.start;
    const named = [...start.matchAll(/-c (configs\/[\w-]+\.json)/g)].map((m) => m[1]);
    const shipped = ['default', 'strict', 'permissive', 'naive'].map((n) => `configs/${n}.json`);
    expect(named).toEqual(shipped);
    expect(start).toContain('--out reports/latest');
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const tour = readme.slice(
      readme.indexOf('## 60-second tour'),
      readme.indexOf('```sh\nnpx harness-bench run --filter'),
    );
    for (const file of shipped) expect(tour, file).toContain(`\`${file}\``);
  });
});

describe('documentation code blocks', () => {
  it('every fence is on a line of its own (a closing ``` followed by prose swallows the rest of the page)', () => {
    const pages = [
      'README.md',
      ...PAGES,
      ...[
        'docs/fuzzing.md',
        'docs/loop.md',
        'docs/recording-format.md',
        'docs/scaling.md',
        'docs/tracing.md',
      ],
    ];
    for (const page of new Set(pages)) {
      const lines = readFileSync(path.join(ROOT, page), 'utf8').split('\n');
      let open = false;
      for (const [i, line] of lines.entries()) {
        const fence = /^\s*```(.*)$/.exec(line);
        if (!fence) continue;
        const after = fence[1]!.trim();
        if (open) expect(after, `${page}:${i + 1}: text after a closing fence`).toBe('');
        else
          expect(after, `${page}:${i + 1}: an opening fence takes a language only`).toMatch(
            /^[\w-]*( doctest)?$/,
          );
        open = !open;
      }
      expect(open, `${page}: a code block is never closed`).toBe(false);
    }
  });
});
