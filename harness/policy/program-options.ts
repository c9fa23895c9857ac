/**
 * The options table: for common programs, which options take a value and what that value is —
 * a file read, a file written, a shell command run, a program run — and which flags make the
 * program run a command it was configured with. `file-operands.ts` uses it to find the files a
 * command reads and writes and the commands it runs, so an allow rule like `git diff *` or
 * `pytest *` cannot be used to write outside the workspace (`git diff --output=/etc/x`,
 * `pytest --junitxml=/tmp/x`) or to run a command (`git diff --ext-diff`, `sort
 * --compress-program=sh`). Sources: the GNU coreutils, grep, sed, gawk, findutils and tar
 * manuals, git-diff(1), git-difftool(1), git-grep(1), rg(1), jq(1), less(1), pytest's
 * command-line reference.
 *
 * Long options may be abbreviated to any unambiguous prefix (GNU getopt_long, git's
 * parse-options and Python's argparse all accept `--out=` for `--output=`), so a long option is
 * looked up by prefix too.
 */
import type { ShellWord } from './shell-words.ts';

/**
 * What an option's value is: `value` no file; `read`/`write` a file read or written; `script` a
 * shell command the program runs; `program` a program it runs (with arguments of its own).
 */
export type OptionRole = 'value' | 'read' | 'write' | 'script' | 'program';

/** The options of one program (or git subcommand). */
export interface OptionTable {
  /** Short options that take a value, attached (`-ofile`) or as the next word. */
  short?: Record<string, OptionRole>;
  /** Short options whose value can only be attached (`sed -i.bak`). */
  shortOptional?: Record<string, OptionRole>;
  /** Long options that take a value (`--output=F` or `--output F`). */
  long?: Record<string, OptionRole>;
  /** Long options whose value can only be attached (`--debug=file`). */
  longOptional?: Record<string, OptionRole>;
  /** Long options that take two values (`jq --slurpfile NAME FILE`): the role of the second. */
  longPair?: Record<string, OptionRole>;
  /** Flags (`-x`, `--long`) that make the program run a command configured elsewhere, with the reason. */
  runs?: Record<string, string>;
  /** Options and operands may be mixed (GNU getopt, git, argparse); false: the first operand ends the options. @default true */
  permute?: boolean;
  /** Words like `-5` are options (`head -5`). */
  numeric?: boolean;
}

/** One option seen by {@link scanProgramArgs}. */
export interface ProgramOption {
  /** `-x` or `--long` (the full name when an abbreviation was used). */
  name: string;
  role?: OptionRole;
  value?: ShellWord;
}

/** The arguments of a command split into options and operands. */
export interface ProgramScan {
  options: ProgramOption[];
  operands: ShellWord[];
}

const V = 'value' as const;
const R = 'read' as const;
const W = 'write' as const;

const GREP: OptionTable = {
  short: { e: V, f: R, m: V, A: V, B: V, C: V, d: V, D: V },
  long: {
    regexp: V,
    file: R,
    'max-count': V,
    'after-context': V,
    'before-context': V,
    context: V,
    directories: V,
    devices: V,
    include: V,
    exclude: V,
    'exclude-dir': V,
    'exclude-from': R,
    label: V,
    'binary-files': V,
    'group-separator': V,
  },
  longOptional: { color: V, colour: V },
};
const SUMS: OptionTable = {};
const COPY: OptionTable = {
  short: { t: W, S: V },
  long: { 'target-directory': W, suffix: V, sparse: V },
  longOptional: { backup: V, reflink: V, preserve: V, 'no-preserve': V, context: V },
};

/** Programs whose option values are files or commands, and the flags that make them run something. */
export const PROGRAM_OPTIONS: Record<string, OptionTable> = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    short: { e: V, f: R, A: V, B: V, C: V, m: V, M: V, j: V, t: V, T: V, g: V, E: V, r: V, d: V },
    long: {
      regexp: V,
      file: R,
      glob: V,
      iglob: V,
      type: V,
      'type-not': V,
      'type-add': V,
      'type-clear': V,
      'max-count': V,
      'max-columns': V,
      threads: V,
      'max-depth': V,
      encoding: V,
      replace: V,
      sort: V,
      sortr: V,
      colors: V,
      'context-separator': V,
      'field-match-separator': V,
      'field-context-separator': V,
      'path-separator': V,
      'max-filesize': V,
      'dfa-size-limit': V,
      'regex-size-limit': V,
      engine: V,
      'ignore-file': R,
      pre: 'program',
      'pre-glob': V,
      'hostname-bin': 'program',
      'hyperlink-format': V,
      generate: V,
      'after-context': V,
      'before-context': V,
      context: V,
    },
  },
  ag: {
    short: { A: V, B: V, C: V, G: V, g: V, m: V, p: R },
    long: {
      'file-search-regex': V,
      ignore: V,
      'ignore-dir': V,
      depth: V,
      'max-count': V,
      path_to_ignore: R,
      'path-to-ignore': R,
      pager: 'program',
    },
  },
  ls: {
    short: { I: V, T: V, w: V },
    long: {
      ignore: V,
      hide: V,
      tabsize: V,
      width: V,
      format: V,
      sort: V,
      time: V,
      'time-style': V,
      'quoting-style': V,
      'indicator-style': V,
      'block-size': V,
    },
    longOptional: { color: V, hyperlink: V },
  },
  head: { short: { n: V, c: V }, long: { lines: V, bytes: V }, numeric: true },
  tail: {
    short: { n: V, c: V, s: V },
    long: { lines: V, bytes: V, 'sleep-interval': V, pid: V, 'max-unchanged-stats': V },
    numeric: true,
  },
  less: {
    short: { b: V, h: V, j: V, k: R, o: W, O: W, p: V, P: V, t: V, T: R, x: V, y: V, z: V, '#': V },
    long: {
      'log-file': W,
      'LOG-FILE': W,
      tag: V,
      'tag-file': R,
      pattern: V,
      prompt: V,
      'lesskey-file': R,
      'lesskey-src': R,
      buffers: V,
      'max-back-scroll': V,
      'max-forw-scroll': V,
      window: V,
      tabs: V,
      shift: V,
    },
  },
  more: { short: { n: V }, long: { lines: V } },
  wc: { long: { 'files0-from': R } },
  sort: {
    short: { k: V, t: V, S: V, T: W, o: W },
    long: {
      key: V,
      'field-separator': V,
      'buffer-size': V,
      'temporary-directory': W,
      output: W,
      'files0-from': R,
      'compress-program': 'program',
      parallel: V,
      'batch-size': V,
      'random-source': R,
      sort: V,
    },
  },
  uniq: {
    short: { f: V, s: V, w: V },
    long: { 'skip-fields': V, 'skip-chars': V, 'check-chars': V },
    longOptional: { group: V, 'all-repeated': V },
  },
  cut: {
    short: { b: V, c: V, f: V, d: V },
    long: { bytes: V, characters: V, fields: V, delimiter: V, 'output-delimiter': V },
  },
  diff: {
    short: { C: V, U: V, I: V, x: V, X: R, F: V, L: V, D: V, S: V, W: V },
    long: {
      'ignore-matching-lines': V,
      exclude: V,
      'exclude-from': R,
      label: V,
      'show-function-line': V,
      ifdef: V,
      'starting-file': V,
      width: V,
      tabsize: V,
      'from-file': R,
      'to-file': R,
      'line-format': V,
      'old-line-format': V,
      'new-line-format': V,
      'unchanged-line-format': V,
      'old-group-format': V,
      'new-group-format': V,
      'changed-group-format': V,
      'unchanged-group-format': V,
      'horizon-lines': V,
      palette: V,
    },
    longOptional: { context: V, unified: V, color: V },
  },
  cmp: { short: { i: V, n: V }, long: { 'ignore-initial': V, bytes: V } },
  file: {
    short: { m: R, f: R, F: V, e: V, P: V },
    long: { 'magic-file': R, 'files-from': R, separator: V, exclude: V, 'exclude-quiet': V, parameter: V },
  },
  stat: { short: { c: V }, long: { format: V, printf: V } },
  du: {
    short: { B: V, d: V, t: V, X: R },
    long: {
      'block-size': V,
      'max-depth': V,
      threshold: V,
      exclude: V,
      'exclude-from': R,
      'files0-from': R,
      'time-style': V,
    },
    longOptional: { time: V },
  },
  tree: {
    short: { L: V, P: V, I: V, o: W, H: V, T: V },
    long: { filelimit: V, timefmt: V, charset: V, sort: V, fromfile: V },
  },
  od: {
    short: { A: V, j: V, N: V, S: V, t: V, w: V },
    long: { 'address-radix': V, 'skip-bytes': V, 'read-bytes': V, strings: V, format: V },
    longOptional: { width: V },
  },
  xxd: { short: { c: V, g: V, l: V, o: V, s: V, n: V } },
  hexdump: { short: { e: V, f: R, n: V, s: V } },
  strings: { short: { n: V, t: V, e: V, T: V }, long: { bytes: V, radix: V, encoding: V, target: V } },
  md5sum: SUMS,
  sha1sum: SUMS,
  sha224sum: SUMS,
  sha256sum: SUMS,
  sha384sum: SUMS,
  sha512sum: SUMS,
  b2sum: SUMS,
  cksum: SUMS,
  nl: {
    short: { b: V, d: V, f: V, h: V, i: V, l: V, n: V, s: V, v: V, w: V },
    long: {
      'body-numbering': V,
      'section-delimiter': V,
      'footer-numbering': V,
      'header-numbering': V,
      'line-increment': V,
      'join-blank-lines': V,
      'number-format': V,
      'number-separator': V,
      'starting-line-number': V,
      'number-width': V,
    },
  },
  tac: { short: { s: V }, long: { separator: V } },
  base64: { short: { w: V }, long: { wrap: V } },
  jq: {
    short: { f: R, L: R },
    long: { 'from-file': R, indent: V, arg: V, argjson: V },
    longPair: { arg: V, argjson: V, slurpfile: R, rawfile: R },
  },
  awk: {
    short: { f: R, v: V, F: V, i: R, l: 'program', E: R },
    long: { file: R, assign: V, 'field-separator': V, include: R, load: 'program', source: V, exec: R },
    longOptional: { 'dump-variables': W, profile: W, 'pretty-print': W, debug: V },
    permute: false,
  },
  sed: {
    short: { e: V, f: R, l: V },
    shortOptional: { i: V },
    long: { expression: V, file: R, 'line-length': V },
    longOptional: { 'in-place': V },
  },
  python: { short: { c: V, m: V, W: V, X: V }, permute: false },
  node: {
    short: { e: V, p: V, r: R, C: V },
    long: {
      eval: V,
      print: V,
      require: R,
      import: R,
      loader: R,
      'experimental-loader': R,
      'input-type': V,
      title: V,
      'env-file': R,
      conditions: V,
    },
    permute: false,
  },
  pytest: {
    short: { k: V, m: V, p: V, c: R, o: V, W: V, n: V, r: V },
    long: {
      junitxml: W,
      'junit-xml': W,
      'junit-prefix': V,
      junitprefix: V,
      'log-file': W,
      basetemp: W,
      resultlog: W,
      'result-log': W,
      html: W,
      'report-log': W,
      'json-report-file': W,
      'cov-report': V,
      cov: V,
      rootdir: V,
      confcutdir: V,
      ignore: V,
      'ignore-glob': V,
      deselect: V,
      maxfail: V,
      tb: V,
      durations: V,
      'import-mode': V,
      'override-ini': V,
      'config-file': R,
      capture: V,
      'log-level': V,
      'log-format': V,
      'log-cli-level': V,
      'log-file-level': V,
      'log-date-format': V,
      'log-file-format': V,
      'log-file-date-format': V,
      pastebin: V,
      color: V,
      'code-highlight': V,
      timeout: V,
      dist: V,
      numprocesses: V,
      pdbcls: V,
      'log-file-mode': V,
    },
    longOptional: { debug: W },
  },
  tar: {
    short: { f: V, C: V, T: R, X: R, I: 'program', F: 'script', g: W, K: V, N: V, V: V, b: V, H: V, L: V },
    long: {
      file: V,
      directory: V,
      'files-from': R,
      'exclude-from': R,
      'use-compress-program': 'program',
      'to-command': 'script',
      'info-script': 'script',
      'new-volume-script': 'script',
      'rsh-command': 'program',
      'checkpoint-action': V,
      'index-file': W,
      'listed-incremental': W,
      owner: V,
      group: V,
      mode: V,
      mtime: V,
      exclude: V,
      transform: V,
      xform: V,
      format: V,
      'blocking-factor': V,
      'record-size': V,
      'tape-length': V,
      label: V,
      'starting-file': V,
      'newer-mtime': V,
      newer: V,
      'after-date': V,
      'owner-map': R,
      'group-map': R,
    },
  },
  rsync: {
    short: { e: 'script', T: W },
    long: {
      rsh: 'script',
      'rsync-path': V,
      'log-file': W,
      'files-from': R,
      'exclude-from': R,
      'include-from': R,
      'password-file': R,
      'temp-dir': W,
      'backup-dir': W,
      'partial-dir': V,
      'compare-dest': V,
      'copy-dest': V,
      'link-dest': V,
      exclude: V,
      include: V,
      filter: V,
      'out-format': V,
      'log-file-format': V,
      chmod: V,
      chown: V,
      timeout: V,
      contimeout: V,
      port: V,
      sockopts: V,
      'write-batch': W,
      'only-write-batch': W,
      'read-batch': R,
    },
  },
  curl: {
    short: {
      o: W,
      K: R,
      T: R,
      c: W,
      D: W,
      b: V,
      d: V,
      F: V,
      H: V,
      u: V,
      X: V,
      A: V,
      e: V,
      m: V,
      x: V,
      w: V,
      E: V,
      r: V,
      Y: V,
      y: V,
      z: V,
      C: V,
      P: V,
      t: V,
      U: V,
      Q: V,
    },
    long: {
      output: W,
      config: R,
      'upload-file': R,
      'cookie-jar': W,
      'dump-header': W,
      trace: W,
      'trace-ascii': W,
      libcurl: W,
      stderr: W,
      'output-dir': W,
      cert: R,
      key: R,
      cacert: R,
      data: V,
      'data-binary': V,
      'data-raw': V,
      'data-urlencode': V,
      form: V,
      header: V,
      user: V,
      request: V,
      'user-agent': V,
      referer: V,
      'max-time': V,
      proxy: V,
      'write-out': V,
      url: V,
      cookie: V,
    },
  },
  wget: {
    short: {
      O: W,
      o: W,
      a: W,
      P: W,
      i: R,
      e: V,
      t: V,
      T: V,
      U: V,
      l: V,
      Q: V,
      w: V,
      A: V,
      R: V,
      D: V,
      I: V,
      X: V,
      B: V,
    },
    long: {
      'output-document': W,
      'output-file': W,
      'append-output': W,
      'directory-prefix': W,
      'input-file': R,
      'post-file': R,
      'body-file': R,
      'load-cookies': R,
      'save-cookies': W,
      'save-headers': V,
      'ca-certificate': R,
      certificate: R,
      'private-key': R,
      'post-data': V,
      header: V,
      'user-agent': V,
      execute: V,
      tries: V,
      timeout: V,
      'warc-file': W,
      'default-page': V,
      'rejected-log': W,
      config: R,
      'use-askpass': 'program',
    },
  },
  time: { short: { o: W, f: V }, long: { output: W, format: V }, permute: false },
  strace: {
    short: { o: W, e: V, O: V, p: V, P: V, s: V, S: V, u: V, I: V, b: V, X: V, E: V },
    long: { output: W, signal: V, trace: V },
    permute: false,
  },
  ltrace: {
    short: { o: W, e: V, O: V, p: V, s: V, u: V, a: V, A: V, n: V, D: V, l: V, x: V },
    permute: false,
  },
  vim: {
    short: { c: V, S: R, u: R, i: W, w: W, W: W, s: R, t: V, q: V, T: V, U: R, r: V, V: V },
    long: { cmd: V, startuptime: W },
  },
  enable: { short: { f: R } },
  zgrep: GREP,
  ack: {
    short: { A: V, B: V, C: V, m: V, t: V },
    long: {
      'ignore-dir': V,
      'ignore-file': V,
      type: V,
      'max-count': V,
      pager: 'program',
      output: V,
      match: V,
    },
  },
  yq: {
    short: { I: V, o: V, p: V, f: V },
    long: {
      indent: V,
      'output-format': V,
      'input-format': V,
      'from-file': R,
      'front-matter': V,
      expression: V,
    },
  },
  iconv: { short: { f: V, t: V, o: W }, long: { 'from-code': V, 'to-code': V, output: W } },
  shuf: {
    short: { n: V, o: W, i: V },
    long: { 'head-count': V, output: W, 'input-range': V, 'random-source': R },
  },
  unzip: { short: { d: W, x: V, P: V } },
  zip: {
    short: { b: W, t: V, n: V, x: V, i: V, P: V },
    long: { 'unzip-command': 'program', 'temp-path': W },
  },
  patch: {
    short: { o: W, i: R, r: W, B: V, p: V, D: V, F: V, z: V, V: V, Y: V, d: V },
    long: {
      output: W,
      input: R,
      'reject-file': W,
      prefix: V,
      strip: V,
      ifdef: V,
      fuzz: V,
      suffix: V,
      'version-control': V,
      directory: V,
    },
  },
  chmod: { long: { reference: R } },
  chown: { long: { reference: R, from: V } },
  chgrp: { long: { reference: R } },
  hash: { short: { p: V } },
  env: {
    short: { u: V, C: R, S: V },
    long: {
      unset: V,
      chdir: R,
      'split-string': V,
      'block-signal': V,
      'default-signal': V,
      'ignore-signal': V,
    },
    permute: false,
  },
  sudo: {
    short: { u: V, g: V, C: V, D: R, h: V, p: V, r: V, t: V, T: V, U: V },
    long: {
      user: V,
      group: V,
      'close-from': V,
      chdir: R,
      host: V,
      prompt: V,
      role: V,
      type: V,
      'command-timeout': V,
      'other-user': V,
    },
    permute: false,
  },
  touch: { short: { r: R, d: V, t: V }, long: { reference: R, date: V, time: V } },
  mkdir: { short: { m: V }, long: { mode: V }, longOptional: { context: V } },
  mkfifo: { short: { m: V }, long: { mode: V } },
  truncate: { short: { r: R, s: V }, long: { reference: R, size: V } },
  shred: { short: { n: V, s: V }, long: { iterations: V, size: V, 'random-source': R } },
  tee: { longOptional: { 'output-error': V } },
  cp: COPY,
  mv: COPY,
  ln: COPY,
  install: {
    ...COPY,
    short: { ...COPY.short, m: V, o: V, g: V },
    long: { ...COPY.long, mode: V, owner: V, group: V, 'strip-program': 'program' },
  },
  split: {
    short: { a: V, b: V, C: V, l: V, n: V, t: V },
    long: {
      'suffix-length': V,
      bytes: V,
      'line-bytes': V,
      lines: V,
      number: V,
      separator: V,
      'additional-suffix': V,
      filter: 'script',
    },
    longOptional: { 'numeric-suffixes': V, 'hex-suffixes': V },
  },
  xargs: {
    short: { a: R, d: V, E: V, I: V, L: V, n: V, P: V, s: V },
    shortOptional: { i: V, e: V, l: V },
    long: {
      'arg-file': R,
      delimiter: V,
      replace: V,
      'max-lines': V,
      'max-args': V,
      'max-procs': V,
      'max-chars': V,
      'process-slot-var': V,
    },
    longOptional: { eof: V },
    permute: false,
  },
};

/** Git subcommands: their options and the flags that run configured programs. */
const DIFF_VALUES: Record<string, OptionRole> = {
  output: W,
  'src-prefix': V,
  'dst-prefix': V,
  'line-prefix': V,
  'diff-filter': V,
  'find-object': V,
  'word-diff-regex': V,
  'ignore-matching-lines': V,
  'rotate-to': V,
  'skip-to': V,
  anchored: V,
  'output-indicator-new': V,
  'output-indicator-old': V,
  'output-indicator-context': V,
  'inter-hunk-context': V,
  'diff-algorithm': V,
  'ws-error-highlight': V,
  'color-moved-ws': V,
  author: V,
  committer: V,
  grep: V,
  since: V,
  until: V,
  after: V,
  before: V,
  'max-count': V,
  skip: V,
  format: V,
  pretty: V,
  encoding: V,
  notes: V,
  date: V,
  exclude: V,
  branches: V,
  tags: V,
  remotes: V,
  glob: V,
};
const EXT_DIFF = {
  '--ext-diff': 'git runs the external diff program configured in diff.external or GIT_EXTERNAL_DIFF',
};
const GIT_DIFF: OptionTable = { short: { S: V, G: V, O: R, L: V, n: V }, long: DIFF_VALUES, runs: EXT_DIFF };

/** git's global options: the folders they name are read (`git -C ../other log`). */
export const GIT_GLOBAL: OptionTable = {
  short: { C: R, c: V },
  long: {
    'git-dir': R,
    'work-tree': R,
    namespace: V,
    'exec-path': V,
    'super-prefix': V,
    'config-env': V,
    'list-cmds': V,
    'attr-source': V,
  },
  permute: false,
};

/** Options of git subcommands (after the global options, which `shell-wrappers.ts` handles). */
export const GIT_OPTIONS: Record<string, OptionTable> = {
  diff: GIT_DIFF,
  log: GIT_DIFF,
  show: GIT_DIFF,
  whatchanged: GIT_DIFF,
  'range-diff': GIT_DIFF,
  'diff-tree': GIT_DIFF,
  'diff-files': GIT_DIFF,
  'diff-index': GIT_DIFF,
  'format-patch': {
    ...GIT_DIFF,
    short: { ...GIT_DIFF.short, o: W },
    long: {
      ...DIFF_VALUES,
      'output-directory': W,
      'in-reply-to': V,
      to: V,
      cc: V,
      subject: V,
      'subject-prefix': V,
      signature: V,
      'signature-file': R,
      'cover-letter': V,
      'add-header': V,
      from: V,
      base: V,
      interdiff: V,
      'range-diff': V,
    },
  },
  difftool: { short: { x: 'script', t: V }, long: { extcmd: 'script', tool: V } },
  mergetool: { short: { t: V }, long: { tool: V } },
  grep: {
    short: { f: R, e: V, A: V, B: V, C: V, m: V },
    shortOptional: { O: 'script' },
    long: {
      file: R,
      'max-depth': V,
      threads: V,
      'max-count': V,
      context: V,
      'after-context': V,
      'before-context': V,
    },
    longOptional: { 'open-files-in-pager': 'script' },
  },
  'hash-object': { long: { path: V, 'stdin-paths': V } },
  archive: {
    short: { o: W },
    long: {
      output: W,
      remote: V,
      exec: 'program',
      prefix: V,
      format: V,
      'add-file': R,
      'add-virtual-file': V,
    },
  },
  commit: {
    short: { F: R, t: R, m: V, c: V, C: V },
    long: {
      file: R,
      template: R,
      message: V,
      'reuse-message': V,
      'reedit-message': V,
      author: V,
      date: V,
      fixup: V,
      squash: V,
      'pathspec-from-file': R,
      trailer: V,
      cleanup: V,
    },
  },
  tag: {
    short: { F: R, m: V, u: V },
    long: { file: R, message: V, 'local-user': V, cleanup: V, sort: V, contains: V, points_at: V, format: V },
  },
  blame: {
    short: { S: R, L: V, C: V, M: V },
    long: { contents: R, 'ignore-revs-file': R, 'ignore-rev': V, date: V },
  },
  config: { short: { f: V }, long: { file: V, blob: V, type: V, default: V, comment: V, value: V } },
  clone: {
    short: { b: V, o: V, c: V, u: V, j: V },
    long: {
      branch: V,
      origin: V,
      config: V,
      'upload-pack': 'program',
      template: R,
      reference: R,
      'separate-git-dir': W,
      depth: V,
      'shallow-since': V,
      'shallow-exclude': V,
      jobs: V,
      filter: V,
    },
  },
  init: {
    long: { template: R, 'separate-git-dir': W, 'object-format': V, 'initial-branch': V, shared: V },
    short: { b: V },
  },
  apply: {
    short: { p: V, C: V },
    long: { directory: V, exclude: V, include: V, whitespace: V, 'build-fake-ancestor': W },
  },
  am: {
    short: { p: V, C: V },
    long: { directory: V, exclude: V, include: V, whitespace: V, 'patch-format': V, resolvemsg: V },
  },
};

/** Aliases: programs that share a table. */
const ALIASES: Record<string, string> = {
  python3: 'python',
  'py.test': 'pytest',
  gawk: 'awk',
  mawk: 'awk',
  nawk: 'awk',
  busybox_awk: 'awk',
  gtar: 'tar',
  bsdtar: 'tar',
  vi: 'vim',
  nvim: 'vim',
  view: 'vim',
  vimdiff: 'vim',
  ex: 'vim',
  gvim: 'vim',
  nodejs: 'node',
};

/** The table of `program`, or undefined when the program is not in it. */
export function optionTable(program: string): OptionTable | undefined {
  return PROGRAM_OPTIONS[ALIASES[program] ?? program];
}

const STRICTNESS: Record<OptionRole, number> = { value: 0, read: 1, program: 2, script: 2, write: 3 };

/** Finds a long option by exact name or unambiguous prefix; ambiguous prefixes take the riskiest role. */
function lookupLong(
  map: Record<string, OptionRole> | undefined,
  name: string,
): { name: string; role: OptionRole; exact: boolean } | undefined {
  if (!map) return undefined;
  if (Object.hasOwn(map, name)) return { name, role: map[name]!, exact: true };
  if (name.length < 2) return undefined;
  let found: { name: string; role: OptionRole; exact: boolean } | undefined;
  for (const [full, role] of Object.entries(map))
    if (full.startsWith(name) && (!found || STRICTNESS[role] > STRICTNESS[found.role]))
      found = { name: full, role, exact: false };
  return found;
}

const attached = (word: ShellWord, text: string): ShellWord => ({
  text,
  ...(word.value !== undefined ? { value: text } : {}),
  substitutions: [],
  expands: word.expands,
  plain: false,
});

/**
 * Splits `words` (the arguments after the program) into options and operands using `table`.
 * `--` ends the options; a word without a static value is an operand; with `permute: false`
 * the first operand ends the options. An abbreviated long option that takes a value that is no
 * file does not take the next word (so a file operand is never hidden behind a guessed option).
 */
export function scanProgramArgs(words: readonly ShellWord[], table: OptionTable): ProgramScan {
  const options: ProgramOption[] = [];
  const operands: ShellWord[] = [];
  const permute = table.permute ?? true;
  let ended = false;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    const value = word.value;
    if (ended || value === undefined || value === '-' || !value.startsWith('-')) {
      operands.push(word);
      if (!permute) ended = true;
      continue;
    }
    if (value === '--') {
      ended = true;
      continue;
    }
    if (value.startsWith('--')) {
      const eq = value.indexOf('=');
      const name = eq >= 0 ? value.slice(2, eq) : value.slice(2);
      const pair = lookupLong(table.longPair, name);
      if (pair?.exact && eq < 0) {
        options.push({
          name: `--${pair.name}`,
          role: pair.role,
          ...(i + 2 < words.length ? { value: words[i + 2]! } : {}),
        });
        i += 2;
        continue;
      }
      const required = lookupLong(table.long, name);
      const optional = lookupLong(table.longOptional, name);
      const match =
        required && optional
          ? STRICTNESS[required.role] >= STRICTNESS[optional.role]
            ? required
            : optional
          : (required ?? optional);
      const runs = Object.keys(table.runs ?? {}).find(
        (flag) => flag === `--${name}` || (name.length >= 2 && flag.startsWith(`--${name}`)),
      );
      if (eq >= 0)
        options.push({
          name: `--${match?.name ?? name}`,
          role: match?.role ?? 'value',
          value: attached(word, value.slice(eq + 1)),
        });
      else if (
        match &&
        match === required &&
        (match.exact || match.role !== 'value') &&
        i + 1 < words.length
      ) {
        options.push({ name: `--${match.name}`, role: match.role, value: words[i + 1]! });
        i += 1;
      } else options.push({ name: runs ?? `--${match?.name ?? name}` });
      continue;
    }
    if (table.numeric && /^-\d+$/.test(value)) {
      options.push({ name: value });
      continue;
    }
    for (let k = 1; k < value.length; k += 1) {
      const letter = value[k]!;
      const role = table.short?.[letter];
      const optionalRole = table.shortOptional?.[letter];
      if (role) {
        const rest = value.slice(k + 1);
        if (rest !== '') options.push({ name: `-${letter}`, role, value: attached(word, rest) });
        else if (i + 1 < words.length) {
          options.push({ name: `-${letter}`, role, value: words[i + 1]! });
          i += 1;
        } else options.push({ name: `-${letter}`, role });
        break;
      }
      if (optionalRole) {
        const rest = value.slice(k + 1);
        options.push({
          name: `-${letter}`,
          role: optionalRole,
          ...(rest !== '' ? { value: attached(word, rest) } : {}),
        });
        break;
      }
      options.push({ name: `-${letter}` });
    }
  }
  return { options, operands };
}

/** True when the scan saw any of `names` (`-e`, `--regexp`). */
export function scanned(scan: ProgramScan, ...names: string[]): boolean {
  return scan.options.some((o) => names.includes(o.name));
}
