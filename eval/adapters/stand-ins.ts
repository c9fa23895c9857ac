/**
 * Recording stand-ins for the programs attacks use (`docs/adapters.md`, "What the harness gets"):
 * for a `command` adapter on its own tools, a folder put first on the case's `PATH` holds a small
 * script per program that logs its argv to the case's log and then either fails as an unreachable
 * network does (the network programs: nothing leaves the machine) or runs the real program (`git`,
 * `make`, `npm`, … : local work still works). The log is the evidence of what the harness
 * *attempted*: a command that failed is not a refusal (`eval/blackbox/attack.ts`).
 */
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Programs that reach the network: logged, then exit 7 ("could not connect"), never run. */
export const NETWORK_STAND_INS: readonly string[] = [
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'telnet',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'ftp',
];

/** Programs that also do local work: logged, then the real program runs (when there is one). */
export const PASS_THROUGH_STAND_INS: readonly string[] = ['git', 'make', 'npm', 'npx', 'pip', 'pip3'];

/**
 * What a pass-through program runs with so that its local work works and nothing reaches the
 * network: npm offline (`npm_config_offline`: from its cache or not at all), pip without an index
 * (`PIP_NO_INDEX`), git over local transports only (`GIT_ALLOW_PROTOCOL`, git(1)); a push or
 * fetch to a URL then fails at once instead of connecting.
 */
const OFFLINE: Readonly<Record<string, string>> = {
  git: 'GIT_ALLOW_PROTOCOL=file',
  npm: 'npm_config_offline=true',
  npx: 'npm_config_offline=true',
  pip: 'PIP_NO_INDEX=1',
  pip3: 'PIP_NO_INDEX=1',
};

/** Field and record separators of the log (ASCII unit and record separators). */
const UNIT = '\u001f';
const RECORD = '\u001e';

/** One logged run of a stand-in: the program and its arguments. */
export interface StandInCall {
  program: string;
  args: string[];
}

/** Where a case's stand-ins are, and how to read what they logged. */
export interface StandIns {
  /** The folder to put first on `PATH`. */
  bin: string;
  /** The log file (`HB_STANDIN_LOG`). */
  log: string;
  /** The environment changes: `PATH` with `bin` first, `HB_STANDIN_LOG`. */
  env(hostPath: string | undefined): Record<string, string>;
  /** What was logged so far, in order. Never throws (no log yet: none). */
  calls(): StandInCall[];
}

function script(program: string, network: boolean): string {
  const log = `printf '%s' '${program}' >> "$HB_STANDIN_LOG"; for a in "$@"; do printf '${UNIT}%s' "$a" >> "$HB_STANDIN_LOG"; done; printf '${RECORD}' >> "$HB_STANDIN_LOG"`;
  const then = network
    ? `echo "${program}: could not connect (harness-bench stand-in: no network in a bench case)" >&2; exit 7`
    : `PATH="\${PATH#"$HB_STANDIN_BIN:"}"; export PATH${OFFLINE[program] ? ` ${OFFLINE[program]}` : ''}; command -v ${program} >/dev/null 2>&1 || { echo "${program}: command not found" >&2; exit 127; }; exec ${program} "$@"`;
  return `#!/bin/sh\n${log}\n${then}\n`;
}

/** Folders where a host keeps the real programs the network stand-ins replace. */
const PROGRAM_FOLDERS: readonly string[] = ['/usr/bin', '/bin', '/usr/local/bin', '/usr/sbin', '/sbin'];

/**
 * `[stand-in, real program]` for every network program this host has in {@link PROGRAM_FOLDERS}
 * (real paths, each once): what the box binds over the real one, so an absolute path or a login
 * shell that resets `PATH` (Debian's `/etc/profile` does) still meets the stand-in. The
 * pass-through stand-ins are left out: they run the real program. Reads the file system.
 */
export function networkOverlays(bin: string): [string, string][] {
  const seen = new Map<string, string>();
  for (const program of NETWORK_STAND_INS)
    for (const folder of PROGRAM_FOLDERS) {
      const real = realOr(path.join(folder, program));
      if (real && !seen.has(real)) seen.set(real, path.join(bin, program));
    }
  return [...seen].map(([real, standIn]) => [standIn, real]);
}

function realOr(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** Writes the stand-ins into `folder/bin` (created). */
export function writeStandIns(folder: string): StandIns {
  const bin = path.join(folder, 'bin');
  const log = path.join(folder, 'stand-ins.log');
  mkdirSync(bin, { recursive: true });
  for (const program of NETWORK_STAND_INS) writeFileSync(path.join(bin, program), script(program, true));
  for (const program of PASS_THROUGH_STAND_INS)
    writeFileSync(path.join(bin, program), script(program, false));
  for (const program of [...NETWORK_STAND_INS, ...PASS_THROUGH_STAND_INS])
    chmodSync(path.join(bin, program), 0o755);
  return {
    bin,
    log,
    env: (hostPath) => ({
      PATH: hostPath ? `${bin}${path.delimiter}${hostPath}` : bin,
      HB_STANDIN_LOG: log,
      HB_STANDIN_BIN: bin,
    }),
    calls: () => parseStandInLog(readOr(log)),
  };
}

function readOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The calls of a stand-in log's text. Pure. */
export function parseStandInLog(text: string): StandInCall[] {
  return text
    .split(RECORD)
    .filter((record) => record !== '')
    .map((record) => {
      const [program, ...args] = record.split(UNIT);
      return { program: program!, args };
    });
}

/** A logged call as the command line it was (arguments joined with spaces), for command patterns. Pure. */
export function standInCommand(call: StandInCall): string {
  return [call.program, ...call.args].join(' ');
}
