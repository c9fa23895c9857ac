import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_SOURCES_DIR } from '../eval/import/import-real.ts';
import type { CliIo } from './io.ts';
import { main } from './main.ts';

async function run(...args: string[]) {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    cwd: REAL_SOURCES_DIR,
    env: { NO_COLOR: '1' },
    isTTY: false,
  };
  return { code: await main(['node', 'harness-bench', 'import', ...args], io), out, err };
}

describe('harness-bench import', () => {
  it('prints the format, the model exchanges and the non-model traffic kept apart', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'hb-import-'));
    const result = await run('openllmetry-langchain-gpt35-langsmith-tavily-agent.yaml', '--out', out);
    expect(result.code).toBe(0);
    expect(result.out.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(/^imported openllmetry-.*\.yaml \(vcr-yaml, 2 model exchanges, 3 non-model\) → /),
      '  non-model, not replayed: LangSmith API (tracing, prompt hub) ×2: GET https://api.smith.langchain.com/info → 200',
      '  non-model, not replayed: search API (tool traffic): POST https://api.tavily.com/search → 200',
    ]);
    expect(existsSync(path.join(out, 'openllmetry-langchain-gpt35-langsmith-tavily-agent.json'))).toBe(true);
  });

  it('refuses a recording without model traffic (exit 2, nothing written), naming what it holds', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'hb-import-')), 'out');
    const fixture = path.resolve(
      __dirname,
      '../eval/import/fixtures/openllmetry-openai-agents-responses-telemetry.yaml',
    );
    const result = await run('rubyopenai-groq-llama3-stream.yml', fixture, '--out', out);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/no model traffic: .*OpenAI Responses API/);
    expect(existsSync(out)).toBe(false);
  });
});
