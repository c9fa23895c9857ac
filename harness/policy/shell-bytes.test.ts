import { execFileSync, spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { ambiguousBytes } from './shell-bytes.ts';
import { analyseCommandSync } from './shell-analysis.ts';
import { loadShellParser, parseShell } from './shell-parser.ts';

beforeAll(async () => {
  await loadShellParser();
});

const flagged = (command: string) => {
  const tree = parseShell(command);
  try {
    return ambiguousBytes(tree.rootNode, command) !== undefined;
  } finally {
    tree.delete();
  }
};

/** Probes that expose a character read as a blank by one reader and a word character by the other. */
const PROBES = [
  (c: string) => `P a${c}b`,
  (c: string) => `P a ${c}#x; P y`,
  (c: string) => `P a${c}#x; P y`,
  (c: string) => `x=1${c}P z; P w`,
  (c: string) => `P a\\${c}\nP q`,
  (c: string) => `P a \\${c}# x; P y`,
  (c: string) => `P "a${c}b" 'c${c}d'`,
];
const CANDIDATES = [
  ...Array.from({ length: 31 }, (_, i) => i + 1),
  0x7f,
  0x85,
  0xa0,
  0x1680,
  0x2000,
  0x2003,
  0x200a,
  0x200b,
  0x2028,
  0x2029,
  0x202f,
  0x3000,
  0xfeff,
].map((code) => String.fromCodePoint(code));

let bash: string | undefined;
try {
  bash = execFileSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).trim();
} catch {
  bash = undefined;
}

/** The argument vectors of the `P` commands bash runs for `probe`, one line each. */
function bashRuns(probe: string, attempt = 1): string {
  const run = spawnSync(
    bash!,
    ['--norc', '--noprofile', '-c', `P() { printf '<%s>' "$@"; echo; }\n${probe}`],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { PATH: '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
    },
  );
  // A loaded machine can refuse the fork (EAGAIN): try again, then say why.
  if (run.error && attempt < 3) return bashRuns(probe, attempt + 1);
  if (run.error) throw run.error;
  return run.stdout.trimEnd();
}

/** The argument vectors of the `P` commands the analysis reports for `probe`. */
function analysisRuns(probe: string): string {
  return analyseCommandSync(probe)
    .parts.filter((p) => p.program === 'P')
    .map((p) =>
      p.argv
        .slice(1)
        .map((a) => `<${a}>`)
        .join(''),
    )
    .join('\n');
}

describe('ambiguousBytes: characters bash and the parser read differently', () => {
  it.each([
    ['echo a\r# ; id', true],
    ['echo a\v# ; id', true],
    ['echo a\f# ; id', true],
    ['echo a\\\r\nid', true],
    ['echo "a\rb"', true],
    ['echo a\0b', true],
    ['echo a \\ # ; id', true],
    ['echo \\\tx', true],
    ['echo a\\ b', false],
    ['echo "a \\ b"', false],
    ["echo 'a \\ b'", false],
    ['echo a # \\ x', false],
    ['echo a\u00a0b', false],
    ['echo a\u0001b', true],
    ["echo $'\\r'", false],
  ])('%j → %s', (command, expected) => {
    expect(flagged(command)).toBe(expected);
  });

  it('a flagged command asks, in every mode (shell:ambiguous-bytes)', () => {
    const a = analyseCommandSync('echo ok\r# ; touch pwned');
    expect(a.findings.map((f) => `${f.action}:${f.rule}`)).toContain('ask:shell:ambiguous-bytes');
    expect(a.effect).toBe('write');
  });

  it.runIf(bash !== undefined)(
    'the set is what an experiment against the installed bash finds: every character that makes bash run other commands than the analysis reports is flagged, and no other',
    () => {
      const disagreeing: string[] = [];
      const wrong: string[] = [];
      for (const c of CANDIDATES) {
        let differs = false;
        for (const probe of PROBES) {
          const text = probe(c);
          if (bashRuns(text) !== analysisRuns(text)) differs = true;
          if (bashRuns(text) !== analysisRuns(text) && !flagged(text))
            wrong.push(
              `${JSON.stringify(text)}: bash ${JSON.stringify(bashRuns(text))}, analysis ${JSON.stringify(analysisRuns(text))}`,
            );
        }
        if (differs) disagreeing.push(`U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
      }
      expect(wrong).toEqual([]);
      // Established on bash 5.2 and tree-sitter-bash 0.25: CR, VT, FF (and the backslash before them, a space or a tab).
      expect(disagreeing).toEqual(['U+0009', 'U+000b', 'U+000c', 'U+000d']);
    },
  );
});
