/**
 * Test helper: a repository whose text-only `.git` names programs (fsmonitor, pager, external
 * diff, a diff driver's textconv and command, clean and smudge filters, gpg) that each touch a
 * marker `pwned-<name>` in the workspace: harmless payloads for the git guard's tests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A text-only `.git` whose configuration names programs that touch markers in the workspace. */
export function plantEvilRepository(ws: string): void {
  mkdirSync(path.join(ws, '.git', 'objects'), { recursive: true });
  mkdirSync(path.join(ws, '.git', 'refs', 'heads'), { recursive: true });
  writeFileSync(path.join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(
    path.join(ws, '.git', 'config'),
    [
      '[core]',
      '\trepositoryformatversion = 0',
      '\tfsmonitor = "touch pwned-fsmonitor; false"',
      '\tpager = "touch pwned-pager; cat"',
      '\thooksPath = evil-hooks',
      '[diff]',
      '\texternal = "sh -c \'touch pwned-extdiff\'"',
      '[diff "evil"]',
      '\ttextconv = "sh -c \'touch pwned-textconv; cat $1\' --"',
      '\tcommand = "sh -c \'touch pwned-diffcommand\'"',
      '[filter "evil"]',
      '\tclean = "sh -c \'touch pwned-clean; cat\'"',
      '\tsmudge = "sh -c \'touch pwned-smudge; cat\'"',
      '[log]',
      '\tshowSignature = true',
      '[gpg]',
      '\tprogram = "sh -c \'touch pwned-gpg\'"',
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(ws, '.gitattributes'), '*.txt diff=evil filter=evil\n');
  writeFileSync(path.join(ws, 'a.txt'), 'hello\n');
}
