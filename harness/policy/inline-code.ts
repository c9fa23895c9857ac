/**
 * Inline interpreter programs (`python -c`, `node -e`/`-p`, `perl -e`, `ruby -e`, `php -r`): what
 * the program text shows it reaches. Its string literals that look like paths are files it reads
 * (and writes, when the program writes files), so `open('/etc/passwd')` is a read outside the
 * workspace, denied whatever the configuration (as `cat /etc/passwd` is); the home folder reached
 * through the language (`expanduser`, `os.homedir()`, `ENV['HOME']`) is a read of `~`; network
 * modules and calls make it reach the network (with a secret read, the exfiltration deny);
 * deletion calls make it the destructive equivalent of `rm -rf` of its paths; the shell commands
 * it hands to the system (`os.system("…")`, `execSync("…")`, `system "…"`, backticks) are
 * analysed as the commands they are, and one built at run time asks. This is a reading of the
 * text, not an interpreter: a path assembled at run time is not seen (the box still confines it),
 * which is why the call counts as code-running for the taint rule.
 */

/** The interpreters whose inline programs are read, by program name, with their inline flags. */
export const INLINE_FLAGS: Readonly<Record<string, RegExp>> = {
  python: /^-[bBdEhiIOPqRsSuvx]*c$/,
  python3: /^-[bBdEhiIOPqRsSuvx]*c$/,
  node: /^(-e|-p|-pe|--eval|--print)$/,
  nodejs: /^(-e|-p|-pe|--eval|--print)$/,
  perl: /^-[a-zA-DF-Z0-9]*[eE]$/,
  ruby: /^-[a-zA-Z0-9]*e$/,
  php: /^-r$/,
};

/** What an inline program's text shows. */
export interface InlineFacts {
  /** Path-like string literals. */
  paths: string[];
  /** The program writes files (an `open` mode `w`/`a`/`x`, `writeFile`, `write_text`, `File.write`, `>` in perl's open). */
  writes: boolean;
  /** It reaches the home folder through the language. */
  home: boolean;
  /** The network module or call it uses, when it uses one. */
  network?: string;
  /** It reads the environment (a secret for the exfiltration rule). */
  environment: boolean;
  /** The deletion call it makes, when it makes one. */
  deletes?: string;
  /** Shell commands given as literals to the system. */
  commands: string[];
  /** A shell command built at run time, when there is one. */
  dynamicCommand?: string;
}

/** The bodies of the string literals of a program ('…', "…", `…` without interpolation). */
export function stringLiterals(code: string): string[] {
  const out: string[] = [];
  const re = /(['"`])((?:\\.|(?!\1)[^\\])*)\1/gs;
  for (const m of code.matchAll(re)) {
    if (m[1] === '`' && m[2]!.includes('${')) continue;
    out.push(m[2]!.replace(/\\(.)/g, '$1'));
  }
  return out;
}

/** A literal that names a path: absolute, home, dot-relative, a folder path or a file name with an extension; no URL, blank or format string. */
const PATH_LIKE =
  /^(?:~(?:\/|$)|\.{1,2}(?:\/|$)|\/[\w.@+-]|[\w.@+-]+\/[\w.@+/-]*$|\.[A-Za-z][\w.-]*$|[\w@+-][\w.@+-]*\.[A-Za-z0-9]{1,8}$)/;

const HOME =
  /\b(expanduser|Path\.home|homedir|os\.environ(?:\.get)?\s*[[(]\s*['"]HOME|getenv\s*\(\s*['"]HOME|process\.env\.HOME|ENV\s*[[{]\s*['"]?HOME|Dir\.home|File\.expand_path|getpwuid|\$HOME)\b|~\//;
const NETWORK_MODULE =
  /require\(\s*['"](?:node:)?(https?|net|dgram|tls|http2)['"]\s*\)|from\s+['"](?:node:)?(https?|net|dgram|tls)['"]/;
const NETWORK =
  /\b(urllib|urlopen|requests|http\.client|httplib|httpx|aiohttp|socket|ftplib|smtplib|telnetlib|fetch|XMLHttpRequest|WebSocket|https?\.(?:get|request)|require\(\s*['"](?:node:)?(?:https?|net|dgram|tls|http2)['"]\s*\)|axios|LWP|HTTP::Tiny|IO::Socket|Net::\w+|open-uri|URI\.open|TCPSocket|UDPSocket|curl_init|file_get_contents\s*\(\s*['"]https?:|fsockopen)\b/;
const ENVIRONMENT =
  /\b(os\.environ|environ\b|getenv|process\.env|%ENV|\$ENV\{|ENV\[|ENV\.|getenv\(|\$_ENV|\$_SERVER)/;
const DELETES =
  /\b(os\.(?:remove|unlink|rmdir|removedirs)|shutil\.rmtree|\.unlink\s*\(|\.rmdir\s*\(|rmSync|unlinkSync|rmdirSync|fs\.(?:rm|unlink|rmdir)\b|unlink\b|rmtree|remove_tree|File\.delete|FileUtils\.rm\w*|Dir\.delete|FileUtils\.remove\w*)/;
const WRITES =
  /open\s*\([^)]*,\s*['"][^'"]*[wax+]|writeFile|appendFile|createWriteStream|write_text|write_bytes|File\.write|IO\.write|open\s*\(?\s*\w*\s*,?\s*['"]\+?>|file_put_contents|\.write\s*\(/;
/** Calls that hand a string to the shell (or run a program), the command literal captured. */
const SHELL_CALL =
  /\b(os\.system|os\.popen|subprocess\.\w+|commands\.getoutput|execSync|execFileSync|spawnSync|spawn|system|popen|shell_exec|passthru|proc_open|Open3\.\w+|IO\.popen|Kernel\.\w+)\s*(\(|\s)\s*(?:\[\s*)?(['"`])((?:\\.|(?!\3)[^\\])*)\3/g;
const SHELL_NAMES =
  /\b(os\.system|os\.popen|subprocess\.\w+|commands\.getoutput|execSync|execFileSync|spawnSync|shell_exec|passthru|proc_open|Open3|IO\.popen|system\s*[( ]|qx[({/]|`)/;

/** Reads an inline program of `program` (see the file comment). */
export function inlineFacts(program: string, code: string): InlineFacts {
  const literals = stringLiterals(code);
  const facts: InlineFacts = {
    paths: literals.filter(
      (l) => PATH_LIKE.test(l) && !l.includes('://') && !/\s/.test(l) && !l.includes('%'),
    ),
    writes: WRITES.test(code),
    home: HOME.test(code),
    environment: ENVIRONMENT.test(code),
    commands: [],
  };
  const module = NETWORK_MODULE.exec(code);
  const network = NETWORK.exec(code)?.[1] ?? (module ? (module[1] ?? module[2]) : undefined);
  if (network !== undefined) facts.network = network;
  const deletes = DELETES.exec(code)?.[1];
  if (deletes !== undefined) facts.deletes = deletes;
  let rest = code;
  for (const m of code.matchAll(SHELL_CALL)) {
    // A list (`subprocess.run(['rm', '-rf', 'x'])`) is an argument vector: its words joined.
    const list = code.slice(m.index).match(/^[^[(]*[([]\s*\[((?:\s*(['"])(?:\\.|(?!\2)[^\\])*\2\s*,?)+)\]/);
    const words = list ? stringLiterals(list[1]!) : undefined;
    facts.commands.push(
      words
        ? words.map((w) => (/^[\w./=:,@%+-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ')
        : m[4]!.replace(/\\(.)/g, '$1'),
    );
    rest = rest.replace(m[0], ' ');
  }
  // Backticks and %x(…) in perl and ruby run a shell command.
  if (program === 'perl' || program === 'ruby')
    for (const m of code.matchAll(/`([^`]*)`|%x\(([^)]*)\)|qx\{([^}]*)\}/g)) {
      facts.commands.push(m[1] ?? m[2] ?? m[3] ?? '');
      rest = rest.replace(m[0], ' ');
    }
  const dynamic = SHELL_NAMES.exec(rest)?.[1];
  if (dynamic !== undefined) facts.dynamicCommand = dynamic.trim();
  return facts;
}

/** Where an inline program's facts go: the analysis's accumulator, seen through these hooks (`shell-commands.ts`). */
export interface InlineSink {
  /** A file the program reads or writes. */
  path(path: string, access: 'read' | 'write'): void;
  network(): void;
  secret(): void;
  /** The program deletes `targets` (the destructive equivalent `rm -rf`). */
  deletes(targets: string[], call: string): void;
  /** A shell command the program runs. */
  command(script: string): void;
  /** Something that cannot be known (a command built at run time). */
  unknown(reason: string): void;
}

/** Sends what the inline `program` text `code` reaches to `sink` (see {@link inlineFacts}). */
export function reportInline(program: string, code: string, sink: InlineSink): void {
  const f = inlineFacts(program, code);
  for (const p of f.paths) {
    sink.path(p, 'read');
    if (f.writes) sink.path(p, 'write');
  }
  if (f.home) sink.path('~', 'read');
  if (f.network !== undefined) sink.network();
  if (f.environment) sink.secret();
  if (f.deletes !== undefined) sink.deletes(f.paths.length > 0 ? f.paths : ['.'], f.deletes);
  for (const c of f.commands) sink.command(c);
  if (f.dynamicCommand !== undefined)
    sink.unknown(`the inline ${program} program runs a command built at run time (${f.dynamicCommand})`);
}
