import { describe, expect, it } from 'vitest';
import { destructiveEquivalent } from './destructive.ts';

const eq = (command: string) => {
  const [program, ...args] = command.split(' ');
  return destructiveEquivalent(program!, args)?.as;
};

describe('destructiveEquivalent', () => {
  it.each([
    ['git reset --merge', 'rm -rf .'],
    ['git checkout HEAD~2 -- lib', 'rm -rf lib'],
    ['git switch --discard-changes dev', 'rm -rf .'],
    ['git restore -W docs', 'rm -rf docs'],
    ['git clean -dfX build', 'rm -rf build'],
    ['git stash drop', 'rm -rf .git/refs/stash'],
    ['git branch -d --force old', 'rm -rf .git/refs/heads'],
    ['git prune --expire=now', 'rm -rf .git/objects'],
    ['git rm -r docs', 'rm -rf docs'],
    ['shred -n 3 -z notes.md', 'rm -rf notes.md'],
    ['truncate -s 0 log.txt', 'rm -rf log.txt'],
    ['mkfs.xfs /dev/vdb', 'rm -rf /dev/vdb'],
    ['wipefs -a /dev/vdb', 'rm -rf /dev/vdb'],
    ['dd if=x of=/dev/nvme0n1', 'rm -rf /dev/nvme0n1'],
    ['chmod 0000 secrets', 'rm -rf secrets'],
    ['chmod a= build', 'rm -rf build'],
    ['chown -R nobody:nogroup .', 'rm -rf .'],
    ['crontab jobs.txt', 'rm -rf ~/.crontab'],
    ['batch', 'rm -rf ~/.scheduled'],
    ['service nginx restart', 'rm -rf /run/systemd'],
    ['poweroff', 'rm -rf /'],
    ['find build -type f -delete', 'rm -rf build'],
    ['rsync -a --remove-source-files a/ b/', 'rm -rf b/'],
    ['mv notes.md /dev/null', 'rm -rf notes.md'],
  ])('%s is decided as %s', (command, as) => {
    expect(eq(command)).toBe(as);
  });

  it.each([
    'git reset HEAD~1',
    'git reset --soft HEAD~1',
    'git checkout main',
    'git checkout -b topic',
    'git switch dev',
    'git restore --staged a.txt',
    'git clean -n -d',
    'git clean -i',
    'git stash',
    'git stash pop',
    'git branch -d merged',
    'git gc',
    'git rm --cached secret.txt',
    'chmod 644 a.txt',
    'chmod go-w a.txt',
    'chmod u+x run.sh',
    'chown me a.txt',
    'crontab -l',
    'systemctl status nginx',
    'systemctl --user list-units',
    'service nginx status',
    'kill 1234',
    'find . -name x',
    'rsync -a a/ b/',
    'dd if=/dev/zero of=/dev/null',
    'mv a.txt b.txt',
    'cp a.txt b.txt',
  ])('%s is no destructive equivalent', (command) => {
    expect(eq(command)).toBeUndefined();
  });

  it('an argument built by an expansion is no operand', () => {
    expect(destructiveEquivalent('shred', [undefined, 'a'])?.as).toBe('rm -rf a');
  });
});
