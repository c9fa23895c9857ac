import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig, type PartialConfig } from '../config.ts';
import { makeCorpusWorkspace } from './brake-corpus.test-helpers.ts';
import { decideCommand } from './command-policy.ts';
const cmds = readFileSync('/tmp/cmds.txt', 'utf8').split('\n').filter(Boolean);
it('x', async () => {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-dbg-')));
  const ws = path.join(base, 'ws');
  makeCorpusWorkspace(ws, path.join(base, 'outside'));
  for (const f of ['--pre=sh', '--compress-program=sh', '-TT=sh x.sh']) writeFileSync(path.join(ws, f), '');
  const cfgs = Object.fromEntries(
    ['default', 'permissive'].map((n) => [
      n,
      mergeConfig(DEFAULT_CONFIG, JSON.parse(readFileSync(`configs/${n}.json`, 'utf8')) as PartialConfig),
    ]),
  );
  for (const line of cmds) {
    const [flags, c] = line.split('|', 2) as [string, string];
    const cfg = cfgs[flags.includes('p') ? 'permissive' : 'default']!;
    const d = await decideCommand(c, cfg, {
      workspace: ws,
      home: path.join(base, 'outside'),
      ...(flags.includes('t') ? { taintedBy: ['x'] } : {}),
    });
    console.log(`R ${flags.padEnd(2)} ${d.action}${d.requiresHuman ? '(H)' : ''} ${d.rule} :: ${c}`);
  }
});
