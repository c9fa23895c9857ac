import { describe, expect, it } from 'vitest';
import { awkCommands, commandOfGitConfig, commandOfVariable, shellOfEditorCommand } from './code-strings.ts';

describe('code strings', () => {
  it('command-valued variables hold a command; others none', () => {
    expect(commandOfVariable('GIT_EDITOR', 'vim')).toBe('vim {}');
    expect(commandOfVariable('MANPAGER', 'sh -c x')).toBe('sh -c x {}');
    expect(commandOfVariable('LESSOPEN', '||/usr/bin/lesspipe %s')).toBe('/usr/bin/lesspipe {}');
    expect(commandOfVariable('PROMPT_COMMAND', 'touch x')).toBe('touch x');
    expect(commandOfVariable('LANG', 'C')).toBeUndefined();
    expect(commandOfVariable('LD_PRELOAD', 'x.so')).toBeUndefined();
  });

  it('git settings that name a command give it; others none', () => {
    expect(commandOfGitConfig('core.sshCommand=ssh -i k')).toBe('ssh -i k');
    expect(commandOfGitConfig('diff.x.textconv=strings')).toBe('strings');
    expect(commandOfGitConfig('alias.st=!rm -rf x')).toBe('rm -rf x');
    expect(commandOfGitConfig('alias.st=status -s')).toBe('git status -s');
    expect(commandOfGitConfig('credential.helper=!cat ~/.t')).toBe('cat ~/.t');
    expect(commandOfGitConfig('credential.helper=store')).toBe('git credential-store get');
    expect(commandOfGitConfig('user.name=me')).toBeUndefined();
    expect(commandOfGitConfig('core.pager=')).toBeUndefined();
  });

  it('awk: literal system, pipe and getline commands are given; built ones are dynamic', () => {
    expect(awkCommands('BEGIN { system("touch a") }').commands).toEqual(['touch a']);
    expect(awkCommands('{ print $1 | "sort -u" }').commands).toEqual(['sort -u']);
    expect(awkCommands('BEGIN { "date +%s" | getline t }').commands).toEqual(['date +%s']);
    expect(awkCommands('{ system($0) }').dynamic).toContain('system()');
    expect(awkCommands('{ print | cmd }').dynamic).toContain('pipes');
    expect(awkCommands('$1 == "a" || $2 { print }')).toEqual({
      commands: [],
      rest: '$1 == "a" || $2 { print }',
    });
  });

  it('editor commands that start with ! run a shell command', () => {
    expect(shellOfEditorCommand('!touch a')).toBe('touch a');
    expect(shellOfEditorCommand(':silent !touch a')).toBe('touch a');
    expect(shellOfEditorCommand('r !date')).toBe('date');
    expect(shellOfEditorCommand('wq')).toBeUndefined();
    expect(shellOfEditorCommand('set nu')).toBeUndefined();
  });
});
