import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isArithmeticLiteral, isLiteralName } from './shell-arith.ts';
import { analyseCommandSync } from './shell-analysis.ts';
import { loadShellParser } from './shell-parser.ts';

beforeAll(async () => {
  await loadShellParser();
});

const rules = (command: string) =>
  analyseCommandSync(command)
    .findings.filter((f) => f.rule === 'shell:arithmetic' || f.rule === 'shell:indirection')
    .map((f) => f.rule);

/** Contexts that take `$x` (or the name x) somewhere bash may evaluate it again. */
const CONTEXTS = [
  '(( x ))',
  'echo $((x))',
  'echo $[x]',
  'echo "$(( x + 1 ))"',
  '[[ $x -eq 1 ]]',
  '[[ x -lt 1 ]]',
  '[[ 1 -ge x ]]',
  'let x',
  'let "y=$x"',
  'declare -i y; y=$x',
  'printf -v "$x" %s 1',
  'read "$x" <<< 1',
  'a=(1 2); echo ${a[x]}',
  'a=(1 2); echo ${a[$x]}',
  'echo ${#a[x]}',
  'b=(); b[x]=1',
  'echo ${x:x}',
  'echo ${x:0:x}',
  'set -- a b; echo ${@:x}',
  'echo ${!x}',
  'declare -n r="$x"; echo $r',
  'declare "$x"=1',
  'for ((i=x;i<1;i++)); do :; done',
  'case 1 in $((x))) ;; esac',
  '[[ -v $x ]]',
  'test -v "$x"',
  '[ -v "$x" ]',
  'v=$x; v+=1; (( v ))',
  'cat <<E\n$((x))\nE',
  // These do not evaluate (bash 5.2): kept to show the experiment can say no.
  '[ "$x" -eq 1 ]',
  'test "$x" -eq 1',
  'printf %d "$x"',
  'shift "$x"',
  'echo ${x/a/b}',
];

let marker = '';
let dir = '';
const bashOk = spawnSync('bash', ['-c', 'true']).status === 0;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hb-arith-'));
  marker = path.join(dir, 'ran');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** True when bash runs the substitution hidden in x's value when it meets `context`. */
function bashEvaluates(context: string): boolean {
  rmSync(marker, { force: true });
  spawnSync('bash', ['--norc', '--noprofile', '-c', `x='a[$(touch ${marker})]'\n${context}`], {
    stdio: 'ignore',
    env: { PATH: '/usr/bin:/bin' },
    timeout: 5000,
  });
  return existsSync(marker);
}

describe('arithmetic and indirect evaluation (shell-arith.ts)', () => {
  it.runIf(bashOk)(
    'every context in which the installed bash evaluates a value again asks (shell:arithmetic or shell:indirection)',
    () => {
      const missed: string[] = [];
      const evaluating: string[] = [];
      for (const context of CONTEXTS) {
        if (!bashEvaluates(context)) continue;
        evaluating.push(context);
        if (rules(context).length === 0) missed.push(context);
      }
      expect(missed).toEqual([]);
      // The experiment must find the kind (a broken marker would make the test pass vacuously).
      expect(evaluating.length).toBeGreaterThan(20);
      expect(evaluating).not.toContain('[ "$x" -eq 1 ]');
    },
  );

  it.each([
    ['echo $((1 + 2 * 3))', []],
    ['(( 0x1f & 16#ff ))', []],
    ['[[ 1 -eq 1 ]]', []],
    ['echo ${a[0]} ${a[@]} ${#a[*]} ${!a[@]} ${!prefix*}', []],
    ['echo ${x:1:2} ${x: -1}', []],
    ['declare -n r=x', []],
    ['printf -v out %s 1', []],
    ['read -r line', []],
    ['read -ra words', []],
    ['test -v x', []],
    ['unset x', []],
    ['export PATH=/usr/bin', []],
    ['echo ${x:-default} ${x#prefix}', []],
    ['for i in 1 2; do echo $i; done', []],
    ['(( i++ ))', ['shell:arithmetic']],
    ['for ((i=0;i<3;i++)); do :; done', ['shell:arithmetic']],
    ['declare -i n=1', ['shell:arithmetic']],
    ['printf -v "a[$i]" %s 1', ['shell:indirection']],
    ["unset 'a[$i]'", ['shell:indirection']],
    ['sh -c "(( x ))"', ['shell:arithmetic']],
    ['echo ${x#$((y))}', ['shell:arithmetic']],
  ])('%j → %j', (command, expected) => {
    expect(rules(command)).toEqual(expected);
  });

  it('asks also in plan mode: the call is not a read', () => {
    expect(analyseCommandSync('echo $((x))').effect).toBe('write');
  });

  it('literals: numbers in every base and operators; names with literal subscripts', () => {
    expect(isArithmeticLiteral(' (1 + 0x1F) << 2 ? 8#17 : 2#101 ')).toBe(true);
    expect(isArithmeticLiteral('x + 1')).toBe(false);
    expect(isArithmeticLiteral('$x')).toBe(false);
    expect(isArithmeticLiteral("'1'")).toBe(false);
    expect(isLiteralName('a')).toBe(true);
    expect(isLiteralName('a[3]')).toBe(true);
    expect(isLiteralName('a[@]')).toBe(true);
    expect(isLiteralName('a[i]')).toBe(false);
    expect(isLiteralName('a[$(id)]')).toBe(false);
  });
});
