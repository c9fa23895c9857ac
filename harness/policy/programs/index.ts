/**
 * The program records by name, and the questions the shell analysis asks about one simple
 * command: its effects (files, commands run, trees walked), its effect class, whether it reaches
 * the network, runs repository code, reads secrets, and what it wraps. A program without a record
 * is unknown: effect `write`, no files, nothing else known.
 */
import type { EffectClass } from '../../tools/types.ts';
import type { ShellWord } from '../shell-words.ts';
import { ARCHIVE } from './archive.ts';
import { BUILTINS } from './builtins.ts';
import { COREUTILS } from './coreutils.ts';
import { EDITORS } from './editors.ts';
import { GIT } from './git.ts';
import { optionEffects } from './helpers.ts';
import { NETWORK } from './network.ts';
import { scanProgramArgs, type ProgramScan } from './options.ts';
import { RUNTIMES } from './runtimes.ts';
import { SEARCH } from './search.ts';
import { secretsInArgs } from './secrets.ts';
import { TEXT } from './text.ts';
import {
  byCall,
  type ProgramCall,
  type ProgramEffects,
  type ProgramRecord,
  type WrapperInfo,
} from './types.ts';
import { unwrapFind, WRAPPERS } from './wrappers.ts';

export type { ProgramEffects, WrapperInfo } from './types.ts';
export { SHELLS } from './wrappers.ts';

const RECORDS = new Map<string, ProgramRecord>();
for (const family of [COREUTILS, SEARCH, TEXT, ARCHIVE, NETWORK, GIT, RUNTIMES, EDITORS, BUILTINS, WRAPPERS])
  for (const record of family)
    for (const name of record.names) {
      if (RECORDS.has(name)) throw new Error(`two program records for ${name}`);
      RECORDS.set(name, record);
    }
// find's `-exec` commands: the search record also wraps.
RECORDS.set('find', { ...RECORDS.get('find')!, wrapper: unwrapFind });

/** True when a program record answers to `name`. */
export function hasRecord(name: string): boolean {
  return RECORDS.has(name);
}

/** What the analysis learns about one simple command from its record. */
export interface ProgramFacts {
  effects: ProgramEffects;
  effect: EffectClass;
  network: boolean;
  /** Why it runs the repository's code, when it does. */
  repositoryCode?: string;
  /** It reads the environment or a credential (a secret for the exfiltration rule). */
  secrets: boolean;
  /** The harness guard it runs under, when it has one (`git`). */
  guard?: string;
  /** It runs code given inline (`python -c`, `node -e`): it may reach the network. */
  inlineCode: boolean;
  wrapper: WrapperInfo;
}

const NO_WRAPPER: WrapperInfo = { inner: [], assignments: [] };

/** Scans a call's arguments with its record (its own scan, or the option table). */
function scanOf(record: ProgramRecord | undefined, args: readonly ShellWord[]): ProgramScan {
  if (record?.scan) return record.scan(args);
  return scanProgramArgs(args, record?.options ?? {});
}

/**
 * Everything the records know about one simple command, given its normalised program name and
 * its arguments (the words after the program).
 */
export function programFacts(program: string, args: readonly ShellWord[]): ProgramFacts {
  const record = RECORDS.get(program);
  const call: ProgramCall = { program, args, scan: scanOf(record, args) };
  const effects: ProgramEffects = { files: [], runs: [], walks: [] };
  if (record) {
    if (record.options) optionEffects(call.scan, record.options, program, effects);
    const operands = record.operands;
    if (operands === 'read' || operands === 'write')
      effects.files.push(...call.scan.operands.map((word) => ({ word, access: operands })));
    else if (operands === 'destination') {
      const ops = call.scan.operands;
      if (ops.length >= 2)
        effects.files.push(...ops.slice(0, -1).map((word) => ({ word, access: 'read' as const })), {
          word: ops[ops.length - 1]!,
          access: 'write',
        });
    } else if (operands) operands(call, effects);
  }
  const network = byCall(record?.network, call, false);
  const effect: EffectClass = network ? 'irreversible' : byCall(record?.effect, call, 'write');
  const repositoryCode = byCall(record?.repositoryCode, call, undefined);
  return {
    effects,
    effect,
    network,
    ...(repositoryCode !== undefined ? { repositoryCode } : {}),
    secrets: byCall(record?.environment, call, false) || secretsInArgs(args),
    ...(record?.guard ? { guard: record.guard } : {}),
    inlineCode: byCall(record?.inlineCode, call, false),
    wrapper: record?.wrapper ? record.wrapper(args) : NO_WRAPPER,
  };
}

/** The files a command reads and writes, the commands it runs and the trees it walks (see {@link programFacts}). */
export function programEffects(program: string, args: readonly ShellWord[]): ProgramEffects {
  return programFacts(program, args).effects;
}
