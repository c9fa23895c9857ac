/**
 * Destructive equivalents: commands that lose data or take the machine away as `rm -rf` does,
 * without its spelling — discarding git history or the work tree (`git reset --hard`,
 * `git clean -f`, `git checkout -- .`, `git stash clear`, `git branch -D`, `git reflog expire`),
 * truncation and shredding, raw device writes and file-system creation, permission wipes,
 * schedulers and service managers (`crontab -r`, `at`, `systemctl stop`), killing every process,
 * `find -delete`, `rsync --delete`. The policy decides each one also as the `rm -rf` of what it
 * destroys (`policy.ts`), so a configuration that denies `rm *` denies its equivalents, with the
 * reason, and one that allows `rm` allows them. Sources: git-reset(1), git-clean(1),
 * git-checkout(1), git-restore(1), git-stash(1), git-branch(1), git-reflog(1), git-gc(1),
 * truncate(1), shred(1), chmod(1), crontab(1), at(1), systemctl(1), kill(1), find(1) `-delete`,
 * rsync(1) `--delete`.
 */

/** A destructive equivalent: the `rm -rf` it is decided as, and why. */
export interface DestructiveEquivalent {
  /** The command it is decided as (`rm -rf .`). */
  as: string;
  /** What it destroys (`git reset --hard discards the uncommitted changes of the work tree`). */
  reason: string;
}

/** Operands: static words that are not options. */
const operands = (args: readonly (string | undefined)[]): string[] =>
  args.filter((a): a is string => a !== undefined && !a.startsWith('-'));
/** True when a word is one of `long`, or a cluster of short options holding `short`. */
const flag = (args: readonly (string | undefined)[], short: string, ...long: string[]): boolean =>
  args.some(
    (a) =>
      a !== undefined &&
      (long.includes(a) || (short !== '' && /^-[A-Za-z]+$/.test(a) && a.slice(1).includes(short))),
  );
const rm = (targets: readonly string[], reason: string): DestructiveEquivalent => ({
  as: `rm -rf ${targets.length > 0 ? targets.join(' ') : '.'}`,
  reason,
});

/** Device files that are no data (`dd of=/dev/null`). */
const HARMLESS_DEVICE = /^\/dev\/(null|zero|stdout|stderr|tty|fd\/\d+)$/;

function git(args: readonly (string | undefined)[]): DestructiveEquivalent | undefined {
  const [sub, ...rest] = args;
  const dash = rest.indexOf('--');
  const paths = dash >= 0 ? operands(rest.slice(dash + 1)) : [];
  switch (sub) {
    case 'reset':
      return flag(rest, '', '--hard', '--merge', '--keep')
        ? rm(['.'], 'git reset --hard discards the uncommitted changes of the work tree')
        : undefined;
    case 'checkout':
      if (flag(rest, 'f', '--force', '--discard-changes') || dash >= 0 || rest.includes('.'))
        return rm(
          paths.length > 0 ? paths : ['.'],
          'git checkout of paths (or --force) overwrites the uncommitted changes of the work tree',
        );
      return undefined;
    case 'switch':
      return flag(rest, 'f', '--force', '--discard-changes')
        ? rm(['.'], 'git switch --discard-changes overwrites the uncommitted changes of the work tree')
        : undefined;
    case 'restore': {
      const staged = flag(rest, 'S', '--staged');
      const worktree = flag(rest, 'W', '--worktree');
      if (staged && !worktree) return undefined;
      const targets = operands(rest).filter((a) => !a.startsWith('--'));
      return rm(targets, 'git restore overwrites the uncommitted changes of the work tree');
    }
    case 'clean':
      return flag(rest, 'f', '--force') && !flag(rest, 'n', '--dry-run') && !flag(rest, 'i', '--interactive')
        ? rm(paths.length > 0 ? paths : operands(rest), 'git clean -f deletes the untracked files')
        : undefined;
    case 'stash':
      return rest[0] === 'drop' || rest[0] === 'clear'
        ? rm(['.git/refs/stash'], `git stash ${rest[0]} discards stashed changes`)
        : undefined;
    case 'branch':
      return flag(rest, 'D') || (flag(rest, 'd', '--delete') && flag(rest, 'f', '--force'))
        ? rm(['.git/refs/heads'], 'git branch -D deletes a branch whether or not it is merged')
        : undefined;
    case 'reflog':
      return rest[0] === 'expire' || rest[0] === 'delete'
        ? rm(['.git/logs'], `git reflog ${rest[0]} discards the history that recovers lost commits`)
        : undefined;
    case 'gc':
      return rest.some((a) => a?.startsWith('--prune'))
        ? rm(['.git/objects'], 'git gc --prune deletes unreachable commits')
        : undefined;
    case 'prune':
      return rm(['.git/objects'], 'git prune deletes unreachable commits');
    case 'filter-branch':
    case 'filter-repo':
      return rm(['.git'], `git ${sub} rewrites the whole history`);
    case 'update-ref':
      return flag(rest, 'd', '--delete') ? rm(['.git/refs'], 'git update-ref -d deletes a ref') : undefined;
    case 'rm':
      return flag(rest, '', '--cached') ? undefined : rm(operands(rest), 'git rm deletes the files');
    case 'worktree':
      return rest[0] === 'remove' && flag(rest, 'f', '--force')
        ? rm(operands(rest.slice(1)), 'git worktree remove --force deletes the work tree with its changes')
        : undefined;
    default:
      return undefined;
  }
}

/** Values of options that take one (`truncate -s 0`): not operands. */
function withoutValues(args: readonly (string | undefined)[], valued: RegExp): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (let i = 0; i < args.length; i += 1) {
    out.push(args[i]);
    if (args[i] !== undefined && valued.test(args[i]!)) i += 1;
  }
  return out;
}

const PERMISSION_WIPE = /^(0+|[ugoa]*=|[ugoa]*-[rwxXst]*r[rwxXst]*)$/;
const SERVICE_READS = /^(status|show|cat|help|list-\S+|is-\S+|--version|-h|--help)$/;

/**
 * The destructive equivalent of one simple command (its normalised program name and the static
 * values of its arguments, undefined where an expansion decides), or undefined when it is none.
 */
export function destructiveEquivalent(
  program: string,
  args: readonly (string | undefined)[],
): DestructiveEquivalent | undefined {
  const ops = operands(args);
  switch (program.startsWith('mkfs.') ? 'mkfs' : program) {
    case 'git':
      return git(args);
    case 'truncate':
      return rm(
        operands(withoutValues(args, /^-[sr]$|^--(size|reference)$/)),
        'truncate cuts the files to a size, losing their content',
      );
    case 'shred':
      return rm(operands(withoutValues(args, /^-[ns]$/)), 'shred overwrites the files beyond recovery');
    case 'unlink':
    case 'rmdir':
      return rm(ops, `${program} deletes`);
    case 'mkfs':
    case 'mke2fs':
    case 'mkswap':
    case 'wipefs':
    case 'fdisk':
    case 'sfdisk':
    case 'cfdisk':
    case 'sgdisk':
    case 'parted':
    case 'blkdiscard':
      return rm(ops.length > 0 ? ops : ['/'], `${program} writes a device, destroying the file system on it`);
    case 'dd': {
      const of = args.find((a) => a?.startsWith('of='))?.slice(3);
      return of?.startsWith('/dev/') && !HARMLESS_DEVICE.test(of)
        ? rm([of], 'dd writes a raw device, destroying the file system on it')
        : undefined;
    }
    case 'chmod': {
      const mode = ops[0];
      return mode?.split(',').every((clause) => PERMISSION_WIPE.test(clause))
        ? rm(
            ops.slice(1),
            `chmod ${mode} takes the permissions away, so the files can no longer be read or written`,
          )
        : undefined;
    }
    case 'chown':
    case 'chgrp':
      return flag(args, 'R', '--recursive')
        ? rm(ops.slice(1), `${program} -R hands every file under the folders to another owner`)
        : undefined;
    case 'setfacl':
      return flag(args, 'b', '--remove-all') && flag(args, 'R', '--recursive')
        ? rm(ops, 'setfacl -R -b removes the access lists of every file under the folders')
        : undefined;
    case 'crontab':
      return flag(args, 'l', '--list') && !flag(args, 'r', '')
        ? undefined
        : rm(
            ['~/.crontab'],
            'crontab replaces or removes the user’s scheduled jobs, which run outside the command',
          );
    case 'at':
    case 'batch':
    case 'atrm':
    case 'systemd-run':
    case 'launchctl':
      return flag(args, 'l', '--list') || args[0] === 'list'
        ? undefined
        : rm(['~/.scheduled'], `${program} schedules or removes jobs that run outside the command`);
    case 'systemctl':
    case 'service': {
      const action = program === 'service' ? ops[1] : ops[0];
      return action === undefined || SERVICE_READS.test(action)
        ? undefined
        : rm(['/run/systemd'], `${program} ${action} changes the services of the machine`);
    }
    case 'shutdown':
    case 'reboot':
    case 'halt':
    case 'poweroff':
    case 'telinit':
      return rm(['/'], `${program} takes the machine down`);
    case 'kill':
      return args.includes('-1') && args.indexOf('-1') === args.length - 1
        ? rm(['/proc'], 'kill -1 signals every process the user may signal')
        : undefined;
    case 'killall':
    case 'pkill':
      return rm(['/proc'], `${program} kills every process whose name matches`);
    case 'find':
      return args.includes('-delete')
        ? rm(
            args
              .slice(
                0,
                Math.max(
                  0,
                  args.findIndex((a) => a === undefined || /^[-(!]/.test(a)),
                ),
              )
              .filter((a): a is string => a !== undefined),
            'find -delete deletes every file it finds',
          )
        : undefined;
    case 'rsync':
      return args.some((a) => a?.startsWith('--delete') || a === '--remove-source-files')
        ? rm(ops.slice(-1), 'rsync --delete deletes the files of the destination that the source lacks')
        : undefined;
    case 'mv':
      return ops.length >= 2 && ops[ops.length - 1] === '/dev/null'
        ? rm(ops.slice(0, -1), 'mv to /dev/null deletes the files')
        : undefined;
    case 'cp':
      return ops.length === 2 && ops[0] === '/dev/null'
        ? rm(ops.slice(1), 'cp /dev/null empties the file')
        : undefined;
    default:
      return undefined;
  }
}
