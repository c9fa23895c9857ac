/**
 * The brake's corpus (`brake-corpus.test-helpers.ts`) decided in a real workspace: no false
 * allow, no auto-approvable ask where a deny or a human is required, no needless block. The
 * counts are printed (the before/after measure of docs/policy.md).
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig, type HarnessConfig, type PartialConfig } from '../config.ts';
import { CORPUS, type CorpusEntry, makeCorpusWorkspace } from './brake-corpus.test-helpers.ts';
import { decideCommand } from './command-policy.ts';

let base: string;
let ws: string;
const configs: Record<string, HarnessConfig> = {};

beforeAll(() => {
  for (const name of ['default', 'permissive', 'strict']) {
    const file = path.join(import.meta.dirname, '..', '..', 'configs', `${name}.json`);
    configs[name] = mergeConfig(DEFAULT_CONFIG, JSON.parse(readFileSync(file, 'utf8')) as PartialConfig);
  }
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-brake-')));
  ws = path.join(base, 'ws');
  makeCorpusWorkspace(ws, path.join(base, 'outside'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

type Failure = 'false allow' | 'auto-approvable ask' | 'needless block' | 'needless ask';

/** How a decision fails what the entry needs, or undefined when it does not. */
function failure(entry: CorpusEntry, action: string, requiresHuman: boolean): Failure | undefined {
  const human = action === 'deny' || (action === 'ask' && requiresHuman);
  switch (entry.need) {
    case 'deny':
      return action === 'allow' ? 'false allow' : action === 'ask' ? 'auto-approvable ask' : undefined;
    case 'human':
      return action === 'allow' ? 'false allow' : human ? undefined : 'auto-approvable ask';
    case 'ask':
      return action === 'allow' ? 'false allow' : undefined;
    case 'allow':
      return action === 'allow' ? undefined : human ? 'needless block' : 'needless ask';
    case 'ok':
      return human ? 'needless block' : undefined;
  }
}

describe('the brake corpus', () => {
  it('gives no false allow, no auto-approvable ask where deny is required, no needless block', async () => {
    const counts: Record<string, number> = {};
    const failing: string[] = [];
    for (const entry of CORPUS) {
      const config = configs[entry.config ?? 'default']!;
      const d = await decideCommand(entry.command, config, {
        workspace: ws,
        home: path.join(base, 'outside'),
        ...(entry.tainted ? { taintedBy: ['get_issue'] } : {}),
      });
      const why = failure(entry, d.action, d.requiresHuman === true);
      if (why === undefined) continue;
      counts[why] = (counts[why] ?? 0) + 1;
      failing.push(
        `kind ${entry.kind} ${why} [${entry.config ?? 'default'}${entry.tainted ? ', tainted' : ''}] ${entry.command} → ${d.action}${d.requiresHuman ? ' (human)' : ''}: ${d.rule}`,
      );
    }
    console.info(`brake corpus: ${CORPUS.length} entries; ${JSON.stringify(counts)}`);
    expect(failing).toEqual([]);
  }, 60_000);
});
