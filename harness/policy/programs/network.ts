/**
 * Programs that talk to other hosts: transfer tools (`curl`, `wget`, whose options name files
 * they read and send — `-T`, `-d @file`, `-F name=@file`, `--post-file` — or write), raw sockets
 * (`nc`, `socat`, `openssl s_client`), remote shells and copies (`ssh`, `scp`, `sftp`), DNS and
 * cloud clients. Every call of these is `irreversible`. Sources: curl(1) ("If you start the data
 * with the letter @, the rest should be a file name"), wget(1), scp(1), openssl-s_client(1).
 */
import type { ShellWord } from '../shell-words.ts';
import { firstOperand, literal, read, write } from './helpers.ts';
import type { ProgramCall, ProgramEffects, ProgramRecord } from './types.ts';

const V = 'value' as const;
const R = 'read' as const;
const W = 'write' as const;

/** curl options whose value, when it starts with `@` (or `<` in a form field), names a file sent. */
const CURL_DATA = new Set([
  '-d',
  '--data',
  '--data-binary',
  '--data-ascii',
  '--data-urlencode',
  '--json',
  '-F',
  '--form',
  '--form-string',
]);

/** The file a curl data or form value sends (`@file`, `name@file`, `name=@file;type=…`, `name=<file`), when it names one. */
export function curlDataFile(option: string, value: string): string | undefined {
  if (option === '--form-string') return undefined;
  if (option === '-F' || option === '--form') {
    const m = /^[^=]*=[@<]([^;]*)/.exec(value);
    return m?.[1] || undefined;
  }
  if (option === '--data-urlencode') {
    const m = /^[^=@]*@(.*)$/.exec(value);
    return m?.[1] || undefined;
  }
  return value.startsWith('@') ? value.slice(1) || undefined : undefined;
}

function curlOperands(call: ProgramCall, out: ProgramEffects): void {
  for (const option of call.scan.options) {
    const value = option.value?.value;
    if (value === undefined || !CURL_DATA.has(option.name)) continue;
    const file = curlDataFile(option.name, value);
    // `@-` is stdin: the pipe or redirection feeding curl is what it sends (shell-analysis.ts).
    if (file !== undefined && file !== '-') out.files.push(read(literal(file)));
  }
}

/** scp and sftp: operands with `host:` are remote; local ones are read, a local last operand is written. */
function scpOperands(call: ProgramCall, out: ProgramEffects): void {
  const ops = call.scan.operands;
  const local = (w: ShellWord) => {
    const v = w.value ?? w.text;
    return v.startsWith('/') || v.startsWith('.') || !/^[^/]*:/.test(v);
  };
  ops.forEach((op, i) => {
    if (!local(op)) return;
    out.files.push(i === ops.length - 1 && ops.length > 1 ? write(op) : read(op));
  });
}

const network = (names: string[], extra: Partial<ProgramRecord> = {}): ProgramRecord => ({
  names,
  network: true,
  ...extra,
});

/** The network records. */
export const NETWORK: readonly ProgramRecord[] = [
  network(['curl'], {
    options: {
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
        'data-ascii': V,
        'data-urlencode': V,
        json: V,
        form: V,
        'form-string': V,
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
    operands: curlOperands,
  }),
  network(['wget'], {
    options: {
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
  }),
  network(['scp'], {
    options: { short: { F: R, i: R, o: V, P: V, S: 'program', c: V, l: V, J: V } },
    operands: scpOperands,
  }),
  network(['sftp'], { options: { short: { b: R, F: R, i: R, o: V, P: V, S: 'program', B: V, R: V } } }),
  network(['ssh'], {
    options: {
      short: {
        F: R,
        i: R,
        o: V,
        p: V,
        l: V,
        L: V,
        R: V,
        D: V,
        J: V,
        E: W,
        S: V,
        W: V,
        b: V,
        c: V,
        m: V,
        O: V,
        Q: V,
        w: V,
        B: V,
        e: V,
      },
    },
  }),
  network(['nc', 'ncat', 'netcat', 'socat', 'telnet', 'websocat', 'ftp', 'tftp']),
  network(['http', 'https', 'xh', 'aria2c', 'dig', 'nslookup', 'host', 'ping']),
  network(['gh', 'glab', 'aws', 'gcloud', 'gsutil', 'az', 'kubectl']),
  network(['mail', 'sendmail', 'mutt']),
  {
    names: ['openssl'],
    network: (call) => ['s_client', 's_time', 'ocsp'].includes(firstOperand(call.args) ?? ''),
    scan: (args) => ({ options: [], operands: [...args] }),
    operands: (call, out) => {
      // `openssl enc -in f -out g`, `openssl dgst -sign key f`: single-dash long options.
      const args = call.args;
      for (let i = 0; i < args.length - 1; i += 1) {
        const v = args[i]!.value;
        if (v === '-in' || v === '-key' || v === '-inkey' || v === '-sign' || v === '-cert' || v === '-kfile')
          out.files.push(read(args[i + 1]!));
        else if (v === '-out') out.files.push(write(args[i + 1]!));
      }
    },
  },
];
