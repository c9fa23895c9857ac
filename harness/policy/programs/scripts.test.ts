import { describe, expect, it } from 'vitest';
import { awkProgramRisk, sedScriptEffects } from './scripts.ts';

describe('sedScriptEffects', () => {
  it.each([
    ['s/a/b/g', { reads: [], writes: [], commands: [] }],
    ['1,5p;$=', { reads: [], writes: [], commands: [] }],
    ['/start/,/end/{/x/d;p}', { reads: [], writes: [], commands: [] }],
    ['$!N;s/\\n/ /', { reads: [], writes: [], commands: [] }],
    ['s|a/b|c|w out.txt', { reads: [], writes: ['out.txt'], commands: [] }],
    ['s/[/]/X/w /dev/stderr', { reads: [], writes: ['/dev/stderr'], commands: [] }],
    ['s/[[:alpha:]/]/X/', { reads: [], writes: [], commands: [] }],
    ['y/abc/xyz/', { reads: [], writes: [], commands: [] }],
    ['1i\\\nheader\n$a footer', { reads: [], writes: [], commands: [] }],
    ['/x/w /tmp/x\nr /etc/shadow', { reads: ['/etc/shadow'], writes: ['/tmp/x'], commands: [] }],
    ['\\,x,W log', { reads: [], writes: ['log'], commands: [] }],
    [':a;N;ba', { reads: [], writes: [], commands: [] }],
  ])('%j → %j', (script, expected) => {
    expect(sedScriptEffects(script)).toEqual(expected);
  });

  it('the e command and the s///e flag run commands; what does not parse is a risk too', () => {
    expect(sedScriptEffects('1e rm x')).toEqual({ reads: [], writes: [], commands: ['rm x'] });
    expect(sedScriptEffects('1e').risk).toContain('e command');
    expect(sedScriptEffects('s/x/y/ge').risk).toContain('s///e');
    expect(sedScriptEffects('s/x/y').risk).toContain('unterminated s');
    expect(sedScriptEffects('1K').risk).toContain('unknown command');
  });
});

describe('awkProgramRisk', () => {
  it.each([
    ['{ print $1 }', undefined],
    ['$3 > 100', undefined],
    ['$1 == "a" || $2 == "b"', undefined],
    ['BEGIN { system("rm x") }', 'system()'],
    ['{ print | "sh" }', 'pipe'],
    ['{ "date" | getline d }', 'pipe'],
    ['{ print $0 > "/etc/x" }', 'redirects'],
    ['@load "x"', 'extension'],
  ])('%j → %j', (program, expected) => {
    const risk = awkProgramRisk(program);
    if (expected === undefined) expect(risk).toBeUndefined();
    else expect(risk).toContain(expected);
  });
});
