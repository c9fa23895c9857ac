/**
 * Golden tests of the report writers (fixture → exact text in `reports/golden/`), the JUnit file
 * held to the shape of Jenkins' `junit-10.xsd` (the schema Surefire, GitLab and GitHub reporters
 * read), and report.md's cut to GitHub's comment limit.
 */
import { describe, expect, it } from 'vitest';
import { summarise } from '../eval/results.ts';
import { fixture } from './fixture.test-helpers.ts';
import { renderJunit } from './junit.ts';
import { COMMENT_LIMIT, renderMarkdown } from './markdown.ts';
import { renderTable } from './table.ts';

const { results } = fixture();

describe('golden text', () => {
  it('report.md', async () => {
    await expect(renderMarkdown(results)).toMatchFileSnapshot('./golden/report.md');
  });
  it('junit.xml', async () => {
    await expect(renderJunit(results)).toMatchFileSnapshot('./golden/junit.xml');
  });
  it('the terminal table', async () => {
    await expect(renderTable(results, { color: false, width: 120 })).toMatchFileSnapshot(
      './golden/table.txt',
    );
  });
});

interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

/** A strict little XML reader: well-formed tags, quoted attributes, the five entities only. @throws on anything else */
function parseXml(text: string): XmlNode {
  const body = text.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, '');
  const root: XmlNode = { name: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  const token = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  const entities = (s: string) => {
    if (/&(?!(lt|gt|amp|quot|apos);)/.test(s))
      throw new Error(`bad entity in ${JSON.stringify(s.slice(0, 40))}`);
    return s;
  };
  let at = 0;
  for (let m = token.exec(body); m; m = token.exec(body)) {
    at = token.lastIndex;
    const [, close, name, attrText, selfClose, chars] = m;
    const top = stack[stack.length - 1]!;
    if (chars !== undefined) {
      top.text += entities(chars);
      continue;
    }
    if (close) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText!.matchAll(/([\w-]+)="([^"]*)"/g)) {
      if (a[1]! in attrs) throw new Error(`attribute ${a[1]} twice`);
      attrs[a[1]!] = entities(a[2]!);
    }
    const node: XmlNode = { name: name!, attrs, children: [], text: '' };
    top.children.push(node);
    if (!selfClose) stack.push(node);
  }
  if (at !== body.length) throw new Error(`not XML at ${at}: ${JSON.stringify(body.slice(at, at + 40))}`);
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1]!.name}> never closed`);
  if (root.children.length !== 1 || root.text.trim() !== '') throw new Error('one root element expected');
  return root.children[0]!;
}

/** The element and attribute rules of junit-10.xsd (jenkinsci/xunit-plugin; Surefire's report shape). */
const SHAPE: Record<string, { attrs: string[]; required: string[]; children: string[] }> = {
  testsuites: {
    attrs: ['name', 'time', 'tests', 'failures', 'disabled', 'errors', 'skipped'],
    required: [],
    children: ['testsuite'],
  },
  testsuite: {
    attrs: [
      'name',
      'tests',
      'failures',
      'errors',
      'time',
      'disabled',
      'skipped',
      'timestamp',
      'hostname',
      'id',
      'package',
    ],
    required: ['name', 'tests'],
    children: ['properties', 'testcase', 'system-out', 'system-err'],
  },
  testcase: {
    attrs: ['name', 'assertions', 'time', 'classname', 'status'],
    required: ['name'],
    children: ['skipped', 'error', 'failure', 'system-out', 'system-err'],
  },
  failure: { attrs: ['message', 'type'], required: [], children: [] },
  error: { attrs: ['message', 'type'], required: [], children: [] },
  skipped: { attrs: ['message'], required: [], children: [] },
};

function checkShape(node: XmlNode, problems: string[]): void {
  const rule = SHAPE[node.name];
  if (!rule) return void problems.push(`unknown element <${node.name}>`);
  for (const a of Object.keys(node.attrs))
    if (!rule.attrs.includes(a)) problems.push(`<${node.name}> has ${a}`);
  for (const a of rule.required) if (!(a in node.attrs)) problems.push(`<${node.name}> lacks ${a}`);
  for (const a of ['tests', 'failures', 'errors', 'skipped'])
    if (a in node.attrs && !/^\d+$/.test(node.attrs[a]!))
      problems.push(`<${node.name}> ${a}=${node.attrs[a]}`);
  if ('time' in node.attrs && !/^\d+(\.\d+)?$/.test(node.attrs.time!))
    problems.push(`<${node.name}> time=${node.attrs.time}`);
  for (const child of node.children) {
    if (!rule.children.includes(child.name)) problems.push(`<${child.name}> inside <${node.name}>`);
    checkShape(child, problems);
  }
  if (
    node.name === 'testcase' &&
    node.children.filter((c) => c.name !== 'system-out' && c.name !== 'system-err').length > 1
  )
    problems.push(`testcase ${node.attrs.name} has more than one outcome`);
}

describe('junit.xml', () => {
  it('has the junit-10.xsd shape, with counts that add up', () => {
    const root = parseXml(renderJunit(results));
    const problems: string[] = [];
    checkShape(root, problems);
    expect(problems).toEqual([]);
    expect(root.name).toBe('testsuites');
    const cases = root.children.flatMap((s) => s.children);
    expect(cases).toHaveLength(results.cases.length);
    expect(root.attrs).toMatchObject({ tests: '6', failures: '1', errors: '1', skipped: '1' });
  });

  it('puts every failed check and the command that reproduces it in the failure body', () => {
    const failure = parseXml(renderJunit(results))
      .children.flatMap((s) => s.children)
      .flatMap((c) => c.children)
      .find((c) => c.name === 'failure')!;
    expect(failure.text).toContain(
      'permissions.call_w: call_w was denied (rule paths:write:**), expected allow',
    );
    expect(failure.text).toContain('evidence.0: out.txt does not exist; expected it to equal &quot;x&quot;');
    expect(failure.text).toContain('reproduce: npx harness-bench run --filter');
  });

  it('the shape check fails a file that breaks the schema (the check can fail)', () => {
    const problems: string[] = [];
    checkShape(
      parseXml('<testsuites><testsuite tests="x"><testcase/><bogus/></testsuite></testsuites>'),
      problems,
    );
    expect(problems).toEqual([
      '<testsuite> lacks name',
      '<testsuite> tests=x',
      '<testcase> lacks name',
      '<bogus> inside <testsuite>',
      'unknown element <bogus>',
    ]);
    expect(() => parseXml('<a><b></a>')).toThrow(/closes/);
    expect(() => parseXml('<a>x & y</a>')).toThrow(/bad entity/);
  });
});

describe('report.md as a pull-request comment', () => {
  const many = (() => {
    const base = results.cases.find((c) => c.status === 'fail')!;
    const cases = Array.from({ length: 3000 }, (_, i) => ({
      ...base,
      id: `loop/case-${String(i).padStart(4, '0')}`,
    }));
    return { ...results, cases, summary: summarise(cases) };
  })();

  it(`fits GitHub's ${COMMENT_LIMIT}-character limit and says what it left out`, () => {
    const text = renderMarkdown(many);
    expect(text.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(text).toMatch(/> \*\*Truncated\*\*: \d+ more entries \(cases and skip groups\) left out/);
    expect(text).toContain('| strict | 0 | 3000 |');
    const shown = text.match(/^- \*\*loop\/case-/gm)!.length;
    const left = Number(text.match(/Truncated\*\*: (\d+) more/)![1]);
    expect(shown + left).toBe(3000);
  });

  it('is whole when it fits', () => {
    expect(renderMarkdown(results)).not.toContain('Truncated');
    expect(renderMarkdown(results, { limit: 400 })).toContain('Truncated');
  });
});
