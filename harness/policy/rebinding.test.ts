import { beforeAll, describe, expect, it } from 'vitest';
import { definedFunctions, rebindingReason, shadowingReason } from './rebinding.ts';
import { loadShellParser, parseShell } from './shell-parser.ts';

beforeAll(async () => {
  await loadShellParser();
});

describe('rebinding', () => {
  it('hash -p, enable -f and -n, and aliases of known names rebind', () => {
    expect(rebindingReason('hash', ['-p', '/tmp/x', 'grep'])).toContain('hash -p');
    expect(rebindingReason('hash', ['-lp', '/tmp/x', 'grep'])).toContain('hash -p');
    expect(rebindingReason('enable', ['-f', './x.so', 'printf'])).toContain('shared library');
    expect(rebindingReason('enable', ['-n', 'test'])).toContain('turns a builtin off');
    expect(rebindingReason('alias', ['grep=sh x.sh'])).toContain('shadows the program grep');
    expect(rebindingReason('alias', ['cd=sh x.sh'])).toContain('shadows the builtin cd');
    expect(rebindingReason('alias', [undefined])).toContain('expansion');
  });

  it('listing and new names are no rebinding', () => {
    expect(rebindingReason('hash', ['-r'])).toBeUndefined();
    expect(rebindingReason('hash', [])).toBeUndefined();
    expect(rebindingReason('enable', ['-a'])).toBeUndefined();
    expect(rebindingReason('alias', [])).toBeUndefined();
    expect(rebindingReason('alias', ['ll=ls -l'])).toBeUndefined();
    expect(rebindingReason('type', ['ls'])).toBeUndefined();
  });

  it('functions named like programs, builtins or the not-found hook shadow them; others do not', () => {
    expect(shadowingReason('function', 'git')).toContain('shadows the program git');
    expect(shadowingReason('function', 'echo')).toContain('builtin');
    expect(shadowingReason('function', 'command_not_found_handle')).toContain('not found');
    expect(shadowingReason('function', 'build_all')).toBeUndefined();
    const tree = parseShell('f() { :; }; function cat { :; }; if x; then ls() { :; }; fi');
    try {
      expect(definedFunctions(tree.rootNode)).toEqual(['f', 'cat', 'ls']);
    } finally {
      tree.delete();
    }
  });
});
