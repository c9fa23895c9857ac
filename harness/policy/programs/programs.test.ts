import { beforeAll, describe, expect, it } from 'vitest';
import { programEffects } from './index.ts';
import { scanProgramArgs } from './options.ts';
import { analyseCommandSync } from '../shell-analysis.ts';
import { loadShellParser } from '../shell-parser.ts';
import { literalWord } from '../shell-words.ts';

beforeAll(async () => {
  await loadShellParser();
});

/** The files of a command as `access:path`, through the whole analysis (words as the parser gives them). */
const files = (command: string) => analyseCommandSync(command).paths.map((p) => `${p.access}:${p.path}`);
const findings = (command: string) =>
  analyseCommandSync(command).findings.map((f) => `${f.action}:${f.rule}`);
const parts = (command: string) => analyseCommandSync(command).parts.map((p) => p.text);

describe('file operands of read programs (red-team P1)', () => {
  it.each([
    ['grep x /etc/shadow', ['read:/etc/shadow']],
    ['grep x ~/.ssh/id_rsa', ['read:~/.ssh/id_rsa']],
    ['grep -r PASSWORD /etc', ['read:/etc']],
    ['grep x ../../etc/passwd', ['read:../../etc/passwd']],
    ['grep -e x -e y a b', ['read:a', 'read:b']],
    ['grep -f pats.txt a', ['read:pats.txt', 'read:a']],
    ['grep --file=/etc/shadow a', ['read:/etc/shadow', 'read:a']],
    ['grep -A 3 -B2 --include "*.ts" -r x src', ['read:src']],
    ['grep --exclude-from=/etc/x -r y .', ['read:/etc/x', 'read:.']],
    ['egrep "a|b" f', ['read:f']],
    ['rg -g "*.ts" pat /etc', ['read:/etc']],
    ['rg --files /etc', ['read:/etc']],
    ['ls /root', ['read:/root']],
    ['ls ~/.ssh', ['read:~/.ssh']],
    ['ls -la -I "*.o" --hide=x docs', ['read:docs']],
    ['head -n 5 -c 3 a', ['read:a']],
    ['tail -5 -s 1 a', ['read:a']],
    ['less +G -o log.txt a', ['write:log.txt', 'read:a']],
    ['wc -l --files0-from=list a', ['read:list', 'read:a']],
    ['sort -t : -k 2 -o out a b', ['write:out', 'read:a', 'read:b']],
    ['uniq -c in out', ['read:in', 'write:out']],
    ['cut -d / -f 1 a', ['read:a']],
    ['diff -u -x "*.o" a /etc/b', ['read:a', 'read:/etc/b']],
    ['cmp a b 10 20', ['read:a', 'read:b']],
    ['file -m magic a', ['read:magic', 'read:a']],
    ['stat -c %s a', ['read:a']],
    ['du -d 1 -sh /', ['read:/']],
    ['tree -L 2 -o out.txt docs', ['write:out.txt', 'read:docs']],
    ['od -A x -t x1 a', ['read:a']],
    ['xxd -c 8 in out', ['read:in', 'write:out']],
    ['hexdump -C a', ['read:a']],
    ['strings -n 8 /bin/ls', ['read:/bin/ls']],
    ['sha256sum a b', ['read:a', 'read:b']],
    ['nl -b a f', ['read:f']],
    ['tac -s x f', ['read:f']],
    ['jq -r .a f.json', ['read:f.json']],
    ['jq -n --slurpfile a /etc/x --arg b c ".a" f', ['read:/etc/x', 'read:f']],
    ['jq -n ".a" --args x y', []],
    ['awk -F : "{print \\$1}" /etc/passwd', ['read:/etc/passwd']],
    ['awk -v n=1 "{print}" n=2 a', ['read:a']],
    ['sed -n 1,5p /etc/passwd', ['read:/etc/passwd']],
    ['sed -e s/a/b/ -i.bak f', ['write:f']],
    ['python x.py --out /etc/x', ['read:x.py']],
    // The words after an inline program are its arguments: files it may read.
    ['python3 -c "print(1)" /etc/x', ['read:/etc/x']],
    ['node ../evil.js', ['read:../evil.js']],
    ['pytest tests/test_a.py::test_b /tmp/t.py', ['read:tests/test_a.py', 'read:/tmp/t.py']],
    ['find . /etc -name "*.x" -newer ref -fprint out', ['read:ref', 'write:out', 'read:.', 'read:/etc']],
    ['find -L x -delete', ['write:x']],
    ['find . -newermt 2024-01-01 -newerma ref', ['read:ref', 'read:.']],
    ['cd /etc', ['read:/etc']],
    ['cd', ['read:~']],
  ])('%s → %j', (command, expected) => {
    expect(files(command)).toEqual(expected);
  });

  it.each([
    ['chmod 777 /etc/shadow', ['write:/etc/shadow']],
    ['chmod -R u+x,go-w d e', ['write:d', 'write:e']],
    ['chmod --reference=/etc/x f', ['read:/etc/x', 'write:f']],
    ['chown root:root /etc/x', ['write:/etc/x']],
    ['gzip -k /etc/x', ['write:/etc/x']],
    ['zcat /var/log/x.gz', ['read:/var/log/x.gz']],
    ['zip -r /tmp/x.zip docs', ['write:/tmp/x.zip', 'read:docs']],
    ['unzip x.zip -d /tmp', ['write:/tmp', 'read:x.zip']],
    ['patch -p1 /etc/x fix.diff', ['write:/etc/x', 'read:fix.diff']],
    ['ack -i pw /etc', ['read:/etc']],
    ['iconv -f a -t b -o out in', ['write:out', 'read:in']],
    ['yq .a /etc/x.yml', ['read:/etc/x.yml']],
    ['git hash-object -w /etc/shadow', ['read:/etc/shadow']],
  ])('programs that change or pack files: %s → %j', (command, expected) => {
    expect(files(command)).toEqual(expected);
  });

  it('wrappers name files only through their options', () => {
    expect(files('time -o /tmp/t ls')).toEqual(['write:/tmp/t']);
    expect(files('env -C /etc ls')).toEqual(['read:/etc']);
    expect(files('xargs -a list rm')).toEqual(['read:list', 'write:{}']);
    expect(files('git -C ../other log')).toEqual(['read:../other']);
  });
});

describe('options that write files or run commands (red-team P1)', () => {
  it('long options are found by unambiguous prefix, attached or as the next word', () => {
    expect(files('git diff --output=/etc/x')).toEqual(['write:/etc/x']);
    expect(files('git diff --outp=/etc/x')).toEqual(['write:/etc/x']);
    expect(files('git log --output /tmp/x')).toEqual(['write:/tmp/x']);
    expect(files('git diff --output-indicator-new=+')).toEqual([]);
    expect(files('pytest --junitxml=/tmp/x')).toEqual(['write:/tmp/x']);
    expect(files('pytest --junitx /tmp/x -q')).toEqual(['write:/tmp/x']);
    expect(
      files('pytest --basetemp=/tmp/b --log-file=l.txt -o cache_dir=/tmp/c --cov-report=html:/tmp/h'),
    ).toEqual(['write:/tmp/b', 'write:l.txt', 'write:/tmp/c', 'write:/tmp/h']);
    expect(files('sort --out=/tmp/x a')).toEqual(['write:/tmp/x', 'read:a']);
  });

  it('an abbreviated option that takes a plain value never hides the next word from the path check', () => {
    expect(
      scanProgramArgs([literalWord('--hid'), literalWord('/etc')], { long: { hide: 'value' } }).operands.map(
        (w) => w.value,
      ),
    ).toEqual(['/etc']);
  });

  it('git: diff operands are files (diff falls back to --no-index outside the repository); config and format-patch write', () => {
    expect(files('git diff --no-index /etc/shadow x')).toEqual(['read:/etc/shadow', 'read:x']);
    expect(files('git diff /etc/shadow x')).toEqual(['read:/etc/shadow', 'read:x']);
    expect(files('git config core.pager "rm x"')).toEqual(['write:.git/config']);
    expect(files('git config --global user.name x')).toEqual(['write:~/.gitconfig']);
    expect(files('git config user.name')).toEqual([]);
    expect(files('git config --get -f cfg a.b')).toEqual(['read:cfg']);
    expect(files('git format-patch -o /tmp HEAD~1')).toEqual(['write:/tmp']);
    expect(files('git archive -o /tmp/x.tar HEAD')).toEqual(['write:/tmp/x.tar']);
    expect(files('git commit -F /etc/shadow')).toEqual(['read:/etc/shadow']);
    expect(files('git status')).toEqual([]);
  });

  it('git: external diff and difftool run commands; an explicit command is analysed', () => {
    expect(findings('git diff --ext-diff')).toEqual(['ask:program:runs-command']);
    expect(findings('git difftool')).toEqual(['ask:program:runs-command']);
    expect(findings('git grep --open-files-in-pager x')).toEqual(['ask:program:runs-command']);
    expect(parts("git difftool -y -x 'rm x'")).toEqual(["git difftool -y -x 'rm x'", 'rm x']);
    expect(parts("git difftool --extcmd='curl http://evil'")).toContain('curl http://evil');
    expect(parts("git grep -O'rm x' foo")).toContain('rm x');
    expect(findings('git difftool -x "$CMD"')).toEqual(['ask:program:dynamic']);
  });

  it('find, tar, sort, rsync, rg: options that write or run', () => {
    expect(files('find . -fprint /etc/passwd')).toEqual(['write:/etc/passwd', 'read:.']);
    expect(files('find . -fprintf /tmp/x "%p" -fls l')).toEqual(['write:/tmp/x', 'write:l', 'read:.']);
    expect(files('tar -xf a.tar -C /tmp')).toEqual(['read:a.tar', 'write:/tmp']);
    expect(files('tar czf /tmp/x.tgz src')).toEqual(['write:/tmp/x.tgz', 'read:src']);
    expect(parts("tar --to-command='rm -rf x' -xf a.tar")).toContain('rm -rf x');
    expect(parts("tar -cf a.tar --checkpoint-action=exec='rm x' .")).toContain('rm x');
    expect(findings('tar -xPf a.tar')).toEqual(['ask:path:dynamic']);
    expect(parts('sort --compress-program=sh a')).toContain('sh {}');
    expect(parts('rg --pre rm x')).toContain('rm {}');
    expect(parts('rsync -e "sh -c \'rm x\'" a host:b')).toContain('rm x');
    expect(parts('python -m pytest --junitxml=/tmp/x')).toContain('pytest --junitxml=/tmp/x');
    expect(files('python -m pytest --junitxml=/tmp/x')).toEqual(['write:/tmp/x']);
  });

  it('sed and awk programs: e and system() run commands, w writes, r reads', () => {
    expect(files("sed 's/a/b/w /etc/x' f")).toEqual(['write:/etc/x', 'read:f']);
    expect(files("sed -n 'r /etc/shadow' f")).toEqual(['read:/etc/shadow', 'read:f']);
    // `e COMMAND` runs COMMAND: decided as the command it is (rm x), not asked about blindly.
    expect(findings("sed '1e rm x' f")).toEqual([]);
    expect(parts("sed '1e rm x' f")).toContain('rm x');
    expect(findings("sed 's/x/y/e' f")).toEqual(['ask:program:runs-command']);
    expect(findings('sed --sandbox "s/x/y/e" f')).toEqual([]);
    expect(findings('sed -f script.sed f')).toEqual(['ask:program:runs-command']);
    expect(findings(`awk 'BEGIN { system("rm x") }'`)).toEqual([]);
    expect(parts(`awk 'BEGIN { system("rm x") }'`)).toContain('rm x');
    expect(findings(`awk 'BEGIN { system(cmd) }'`)).toEqual(['ask:program:runs-command']);
    expect(findings(`awk '{ print | "sh" }' f`)).toEqual(['ask:program:runs-command']);
    expect(findings(`awk '{ print > "/etc/x" }' f`)).toEqual(['ask:program:runs-command']);
    expect(findings(`awk '$1 == "a" || $2 > 3 { print $1 }' f`)).toEqual([]);
  });

  it('editors and pagers: initial commands run shell commands; LESSOPEN asks', () => {
    // A shell command given to the editor, or a command-valued variable, is decided as the command it is.
    expect(findings("vim -c '!rm x' f")).toEqual([]);
    expect(parts("vim -c '!rm x' f")).toContain('rm x');
    expect(findings("vim -c 'call system(x)' f")).toEqual(['ask:program:runs-command']);
    expect(findings("less '+!rm x' f")).toEqual([]);
    expect(parts("less '+!rm x' f")).toContain('rm x');
    expect(findings("less '+|rm x' f")).toEqual(['ask:program:runs-command']);
    expect(findings("LESSOPEN='|rm x %s' less f")).toEqual([]);
    expect(parts("LESSOPEN='|rm x %s' less f")).toContain('rm x {}');
    expect(findings('LESSOPEN="$X" less f')).toEqual(['ask:env:dangerous-variable']);
  });

  it('enable -f loads code and hash -p redirects a command name: a rebinding, denied', () => {
    expect(findings('enable -f ./x.so x')).toEqual(['deny:shell:rebinding', 'ask:program:runs-command']);
    expect(files('enable -f /tmp/x.so x')).toEqual(['read:/tmp/x.so']);
    expect(findings('hash -p /tmp/evil ls')).toEqual(['deny:shell:rebinding', 'ask:program:runs-command']);
    expect(findings('hash -r')).toEqual([]);
  });

  it('cd - and pushd +N go to folders known only when they run', () => {
    expect(findings('cd -')).toEqual(['ask:path:dynamic']);
    expect(findings('pushd +1')).toEqual(['ask:path:dynamic']);
  });
});

describe('programEffects', () => {
  it('unknown programs have no files and run nothing', () => {
    expect(programEffects('frobnicate', [literalWord('-f'), literalWord('/etc/x')])).toEqual({
      files: [],
      runs: [],
      walks: [],
    });
  });

  it('make reads the makefile -f names and enters the folder -C names', () => {
    expect(
      programEffects('make', [
        literalWord('-f'),
        literalWord('/etc/x'),
        literalWord('-C'),
        literalWord('d'),
      ]).files.map((f) => `${f.access}:${f.word.value}`),
    ).toEqual(['read:/etc/x', 'read:d']);
  });
});
