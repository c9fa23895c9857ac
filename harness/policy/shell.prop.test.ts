/**
 * Properties of the shell analysis and the command policy: for any composition
 * (operators, nesting, wrappers, substitutions, quoting) that contains a denied command anywhere,
 * the verdict is deny; allow only when every part is allowed; normalisation is idempotent.
 * Substitutions are generated with spaces, `$( A )`, because `$((` starts arithmetic in bash.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig } from '../config.ts';
import { decideCommand } from './command-policy.ts';
import { analyseCommandSync } from './shell-analysis.ts';
import { loadShellParser, parseShell } from './shell-parser.ts';
import { normaliseProgram } from './shell-words.ts';

beforeAll(async () => {
  await loadShellParser();
});

const config = mergeConfig(DEFAULT_CONFIG, {
  permissions: {
    bash: [
      { pattern: '*', action: 'ask' },
      ...[
        'ls*',
        'cat *',
        'grep *',
        'git status*',
        'echo *',
        'true*',
        '[ *',
        'wc *',
        'timeout *',
        'nice *',
        'env *',
        'nohup *',
        'command *',
        'xargs *',
        'sh -c *',
        'bash -c *',
        'eval *',
        'sudo *',
        'find *',
      ].map((pattern) => ({ pattern, action: 'allow' as const })),
      ...['rm *', 'curl *', 'git push*', 'chmod *'].map((pattern) => ({ pattern, action: 'deny' as const })),
    ],
  },
});

const ALLOWED = ['ls', 'ls -la', 'cat a.txt', 'grep -n x src', 'git status', 'echo hi', 'true', 'wc -l'];
const ASKED = ['make', 'npm test', 'python x.py', 'git commit -m wip'];
const DENIED = [
  'rm -rf x',
  '"r"m -rf x',
  '\\rm -rf x',
  '/bin/rm -rf x',
  "r''m -fr x",
  "$'\\x72m' -rf x",
  'rm -f -r x',
  'RM -rf x',
  '/usr/bin/rm x',
  'curl http://x',
  '"curl" -s http://x',
  '/usr/bin/curl http://x',
  'git push origin main',
  'git push',
  'chmod +x f',
];

/**
 * Contexts the grammar leaves partly unparsed (red-team P0): the operand of `${x#…}` and the
 * other operators, array subscripts, `[[ ]]` and `[ ]` tests; the sweep of `shell-sweep.ts`
 * must find the command in each.
 */
const HIDDEN_SHAPES = [
  'echo ${x#$( A )}',
  'echo "${x%%$( A )}"',
  'echo ${x^^$( A )}',
  'echo "${x,$( A )}"',
  'echo ${x,,$( A )}',
  'echo ${x##$( A )}',
  'echo ${x/$( A )/y}',
  'ls ${x%$( A )}',
  'a[$( A )]=1',
  'x[$( A )]+=1',
  '[[ ${x#$( A )} ]]',
  '[ "${x#$( A )}" ]',
  'ls <<EOF\n${x#$( A )}\nEOF',
];
/** Backticks the grammar leaves unparsed: in `${…}` operands and here-document bodies. */
const BACKTICK_SHAPES = [
  'echo `A`',
  'echo ${x:+`A`}',
  'echo ${x:=`A`}',
  'echo ${x-`A`}',
  'echo ${x#`A`}',
  'ls <<EOF\n`A`\nEOF',
  'ls <<EOF\ntext "`A`" more\nEOF',
];
/** Single-quoted text bash evaluates again: `"${y:-'…'}"`, subscripts and arithmetic. */
const QUOTED_SHAPES = [
  `echo "\${y:-'$( A )'}"`,
  "unset 'a[$( A )]'",
  "a['$( A )']=1",
  "[[ 'a[$( A )]' -eq 1 ]]",
  "(( 'a[$( A )]' ))",
];

/**
 * Whether tree-sitter-bash parses a generated command without an error. Every generated
 * command is valid bash, but the grammar reports errors for some nestings bash accepts
 * (backticks inside `${…}` or a here-document holding a `}` or `$(…)`, a subscript assignment
 * inside backticks), also in text it leaves unparsed, which the sweep parses on its own.
 * Those commands ask (analysis:unparseable) and their commands are still found, so the deny
 * property covers them; the properties about allowed commands leave them out.
 */
function parsesCleanly(text: string): boolean {
  // Backticks holding `$`, braces or brackets: the grammar fails on some of them inside `${…}` and here-documents.
  if (/`[^`]*[${}[][^`]*`/.test(text)) return false;
  const tree = parseShell(text);
  try {
    return !tree.rootNode.hasError;
  } finally {
    tree.delete();
  }
}

/** A generated composition: its text, whether it is a simple command (wrappers can prefix it), and which leaves it holds. */
interface Node {
  text: string;
  simple: boolean;
  leaves: string[];
}

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const leaf = (pool: string[]) =>
  fc.constantFrom(...pool).map((text): Node => ({ text, simple: true, leaves: [text] }));

function compositions(pool: fc.Arbitrary<Node>): fc.Arbitrary<Node> {
  const { node } = fc.letrec<{ node: Node }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      pool,
      fc.tuple(tie('node'), tie('node'), fc.constantFrom('&&', '||', ';', '|', '&', '\n')).map(
        ([a, b, op]): Node => ({
          text: `${a.text} ${op} ${b.text}`,
          simple: false,
          leaves: [...a.leaves, ...b.leaves],
        }),
      ),
      fc
        .tuple(
          tie('node'),
          fc.constantFrom(
            '( A )',
            '{ A\n}',
            'echo "$( A )"',
            'echo $( A )',
            'cat <( A )',
            'if A\nthen true\nfi',
            'for i in 1; do A\ndone',
            'f() { A\n}',
            'wc -l <<EOF\n$( A )\nEOF',
            'sh -c Q',
            'bash -c Q',
            'eval Q',
            "bash <<'EOF'\nA\nEOF",
          ),
        )
        .filter(([a, shape]) => !(shape.includes('EOF') && a.text.includes('EOF')))
        .map(
          ([a, shape]): Node => ({
            text: shape.replace('Q', () => sq(a.text)).replace('A', () => a.text),
            simple: false,
            leaves: a.leaves,
          }),
        ),
      fc
        .tuple(tie('node'), fc.constantFrom(...HIDDEN_SHAPES))
        .filter(([a, shape]) => !(shape.includes('EOF') && a.text.includes('EOF')))
        .map(
          ([a, shape]): Node => ({ text: shape.replace('A', () => a.text), simple: false, leaves: a.leaves }),
        ),
      fc
        .tuple(tie('node'), fc.constantFrom(...BACKTICK_SHAPES))
        .filter(
          ([a, shape]) =>
            !a.text.includes('`') &&
            !a.text.includes('\\') &&
            !(shape.includes('EOF') && a.text.includes('EOF')),
        )
        .map(
          ([a, shape]): Node => ({ text: shape.replace('A', () => a.text), simple: false, leaves: a.leaves }),
        ),
      fc
        .tuple(tie('node'), fc.constantFrom(...QUOTED_SHAPES))
        .filter(([a]) => !a.text.includes("'"))
        .map(
          ([a, shape]): Node => ({ text: shape.replace('A', () => a.text), simple: false, leaves: a.leaves }),
        ),
      fc
        .tuple(
          tie('node'),
          fc.constantFrom(
            'timeout 5 A',
            'nice -n 5 A',
            'env X=1 A',
            'nohup A',
            'command A',
            'sudo -u root A',
            'find . -exec A {} \\;',
            'echo x | xargs A',
          ),
        )
        .filter(([a]) => a.simple)
        .map(
          ([a, shape]): Node => ({
            text: shape.replace('A', () => a.text),
            simple: !shape.includes('|'),
            leaves: a.leaves,
          }),
        ),
    ),
  }));
  return node;
}

const anyLeaf = fc.oneof(leaf(ALLOWED), leaf(ASKED), leaf(DENIED));

describe('command policy (property)', () => {
  it('any composition containing a denied command anywhere is denied', async () => {
    const withDenied = compositions(anyLeaf).filter((n) => n.leaves.some((l) => DENIED.includes(l)));
    await fc.assert(
      fc.asyncProperty(withDenied, async (n) => {
        const d = await decideCommand(n.text, config);
        expect(
          d.action,
          `${JSON.stringify(n.text)} → ${d.action} (${d.rule}); parts ${JSON.stringify(d.parts.map((p) => p.subject))}`,
        ).toBe('deny');
      }),
      { numRuns: 600 },
    );
  });

  it('allow only when every part is allowed and every command in it is an allowed one', async () => {
    await fc.assert(
      fc.asyncProperty(compositions(anyLeaf), async (n) => {
        const d = await decideCommand(n.text, config);
        if (d.action !== 'allow') return;
        expect(d.parts.every((p) => p.action === 'allow')).toBe(true);
        expect(
          n.leaves.filter((l) => !ALLOWED.includes(l)),
          JSON.stringify(n.text),
        ).toEqual([]);
      }),
      { numRuns: 600 },
    );
  });

  it('a composition of allowed commands with allowed wrappers is allowed (no false alarms from the structure itself)', async () => {
    // eval always asks (what it runs is a string), a bare `bash` reading stdin and `unset` are commands of their own,
    // `ls ${x%…}` lists a folder known only when it runs, and subscripts and arithmetic with a substitution are
    // arithmetic contexts with non-literal operands, which ask by design (shell-arith.ts): left out here.
    const onlyAllowed = compositions(leaf(ALLOWED)).filter(
      (n) =>
        !n.text.includes('eval ') &&
        !n.text.includes('bash <<') &&
        !n.text.includes('unset ') &&
        !n.text.includes('ls ${') &&
        parsesCleanly(n.text),
    );
    await fc.assert(
      fc.asyncProperty(onlyAllowed, async (n) => {
        const d = await decideCommand(n.text, config);
        const unexpected = d.parts.filter(
          (p) =>
            p.action !== 'allow' &&
            !(p.rule === 'shell:arithmetic' && /\[|\(\(/.test(n.text)) &&
            // A composition that puts `&& b` on a here-document's end line is not what it looks like for bash: the
            // end line must hold the delimiter alone, so bash reads the rest as here-document (shell-bytes.ts).
            !(p.rule === 'shell:parser-differential' && /\nEOF[^\n]/.test(n.text)),
        );
        expect(unexpected, `${JSON.stringify(n.text)} → ${d.rule}: ${d.reason}`).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('normalisation (property)', () => {
  it('normalising a program name twice gives the same name', () => {
    const name = fc.oneof(
      fc.string({ minLength: 1 }),
      fc.constantFrom('/bin/rm', '//usr//bin/env', '/', '//', '/tmp/x/ls', './ls', 'rm/', '/usr/bin/'),
    );
    fc.assert(
      fc.property(name, (value) => {
        const once = normaliseProgram(value).name;
        expect(normaliseProgram(once).name).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });

  // Each part on its own: joined into one script, the parts would change each other's context.
  // The analysis feeds every text a script pipes or redirects into stdin to any shell of that
  // script that reads stdin (conservative: it does not pair a text with its reader), so a bare
  // `bash` part of a here-document's reader next to `echo x | xargs …` from its body made `x` a
  // part (seed -578618751 of this test, which compared the joined parts).
  it('analysing each normalised part again gives that part and only parts already found', () => {
    fc.assert(
      fc.property(
        compositions(anyLeaf).filter((n) => parsesCleanly(n.text)),
        (n) => {
          const parts = new Set(analyseCommandSync(n.text).parts.map((p) => p.text));
          for (const part of parts) {
            const again = analyseCommandSync(part).parts.map((p) => p.text);
            expect(again, `${JSON.stringify(n.text)}: ${JSON.stringify(part)}`).toContain(part);
            for (const other of again)
              expect(
                [...parts],
                `${JSON.stringify(n.text)}: ${JSON.stringify(part)} gave ${JSON.stringify(other)}`,
              ).toContain(other);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
