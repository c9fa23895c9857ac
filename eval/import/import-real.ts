/**
 * Imports the 20 real recordings of `../shared/recordings-real/` into `recordings/real/<id>.json`.
 *
 *   npx tsx eval/import/import-real.ts [sourceDir] [outDir]
 *
 * Provenance (repository, path, snapshot commit, last change, licence) is the table of
 * `../shared/recordings-real/SOURCES.md`, hard-coded below with the abbreviated `…/` paths
 * written out; descriptions are read from that SOURCES.md when present. Source files are
 * checked against `SHA256SUMS` first. Prints one summary line per file and every warning.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { saveCassette } from '../cassette/load.ts';
import type { CassetteSource } from '../cassette/types.ts';
import { decodeRecordedResponse } from '../replay/decode.ts';
import { importRecordingDetailed } from './index.ts';

const PYD = 'pydantic/pydantic-ai';
const CREW = 'crewAIInc/crewAI';
const VERCEL = 'vercel/ai';
const PYD_CASS = 'tests/models/cassettes';
const CREW_CASS = 'lib/crewai/tests/cassettes';

/** One real recording: file name in the source folder, title, provenance, date of its last upstream change. */
export interface RealRecording {
  file: string;
  title: string;
  source: CassetteSource;
  /** ISO date of the last upstream change (fallback `recordedAt` when no response is dated). */
  changed: string;
}

const rec = (
  file: string,
  title: string,
  repository: string,
  path: string,
  commit: string,
  lastChange: string,
  changed: string,
): RealRecording => ({
  file,
  title,
  source: { repository, path, commit, license: repository === VERCEL ? 'Apache-2.0' : 'MIT', lastChange },
  changed,
});

/** The 20 recordings, in the order of SOURCES.md. */
export const REAL_RECORDINGS: readonly RealRecording[] = [
  rec(
    'openai-gpt4omini-stream-tool-loop.yaml',
    'OpenAI gpt-4o-mini, streamed tool call then streamed answer',
    PYD,
    `${PYD_CASS}/test_openai/test_run_stream_sync_streams_real_model.yaml`,
    '4fda38988f29',
    '77c820e245b4',
    '2026-07-03',
  ),
  rec(
    'openai-gpt5mini-tool-auto-loop.yaml',
    'OpenAI gpt-5-mini, tool_choice auto: one get_weather call, then the answer',
    PYD,
    `${PYD_CASS}/test_tool_choice_matrix/test_tool_choice_matrix[auto-openai].yaml`,
    '4fda38988f29',
    '98faf4c92551',
    '2026-05-08',
  ),
  rec(
    'openai-gpt5mini-tool-choice-none.yaml',
    'OpenAI gpt-5-mini, tools offered with tool_choice none: text answer',
    PYD,
    `${PYD_CASS}/test_tool_choice_matrix/test_tool_choice_matrix[none-openai].yaml`,
    '4fda38988f29',
    '98faf4c92551',
    '2026-05-08',
  ),
  rec(
    'openai-gpt4o-required-noarg-then-output-tool.yaml',
    'OpenAI gpt-4o, tool_choice required: zero-argument tool, then the output tool',
    PYD,
    `${PYD_CASS}/test_openai/test_openai_tool_output.yaml`,
    '4fda38988f29',
    '8039c20f6b57',
    '2025-06-24',
  ),
  rec(
    'openai-gpt5-moderation-refusal.yaml',
    'OpenAI gpt-5, no tools: refusal-style final answer with a moderation block',
    PYD,
    `${PYD_CASS}/test_openai/test_openai_moderation_flagged.yaml`,
    '4fda38988f29',
    'b6b97109e6e3',
    '2026-07-23',
  ),
  rec(
    'groq-gptoss120b-tool-use-failed.yaml',
    'Groq gpt-oss-120b: 400 tool_use_failed (malformed call), valid retry, answer',
    PYD,
    `${PYD_CASS}/test_groq/test_tool_use_failed_error.yaml`,
    '4fda38988f29',
    '32fb76e8a4fa',
    '2026-02-18',
  ),
  rec(
    'ollama-cloud-gptoss20b-output-tool-retry.yaml',
    'Ollama Cloud gpt-oss:20b: text instead of the output tool, re-prompt, output tool',
    PYD,
    `${PYD_CASS}/test_ollama/test_ollama_cloud_tool_output.yaml`,
    '4fda38988f29',
    'ec355a26da00',
    '2026-04-16',
  ),
  rec(
    'openrouter-mistral-small-tool-call.yaml',
    'OpenRouter mistral-small: one divide call filling an optional enum',
    PYD,
    `${PYD_CASS}/test_openrouter/test_openrouter_tool_calling.yaml`,
    '4fda38988f29',
    '05fbaaa3b26d',
    '2025-11-21',
  ),
  rec(
    'cerebras-qwen3coder-output-tool-retry.yaml',
    'Cerebras qwen-3-coder: text instead of the output tool, re-prompt, output tool',
    PYD,
    `${PYD_CASS}/test_openai/test_openai_model_cerebras_provider_qwen_3_coder.yaml`,
    '4fda38988f29',
    'd273775680ee',
    '2025-08-26',
  ),
  rec(
    'mistral-large-tool-any-loop.yaml',
    'Mistral large, tool_choice any: get_weather, then the output tool',
    PYD,
    `${PYD_CASS}/test_tool_choice_matrix/test_tool_choice_matrix[tools_plus_output-mistral].yaml`,
    '4fda38988f29',
    '98faf4c92551',
    '2026-05-08',
  ),
  rec(
    'gemini-openai-compat-noarg-tool-loop.yaml',
    'Gemini 2.5 pro (OpenAI-compatible): no-argument tool, then the answer',
    PYD,
    `${PYD_CASS}/test_openai/test_compatible_api_with_tool_calls_without_id.yaml`,
    '111dda9bcd3b',
    '111dda9bcd3b',
    '2026-02-02',
  ),
  rec(
    'crewai-gpt4omini-parallel-3-tools.yaml',
    'OpenAI gpt-4o-mini (crewAI): three parallel tool calls, then a summary',
    CREW,
    `${CREW_CASS}/agents/TestOpenAINativeToolCalling.test_openai_parallel_native_tool_calling_test_agent_kickoff.yaml`,
    'f4731f5025f8',
    'd09656664d36',
    '2026-02-19',
  ),
  rec(
    'crewai-azure-gpt5nano-parallel-3-tools.yaml',
    'Azure OpenAI gpt-5-nano (crewAI): three parallel tool calls, deployment URL',
    CREW,
    `${CREW_CASS}/agents/TestAzureNativeToolCalling.test_azure_parallel_native_tool_calling_test_agent_kickoff.yaml`,
    'f4731f5025f8',
    'd09656664d36',
    '2026-02-19',
  ),
  rec(
    'crewai-gpt41mini-9req-multiplier-loop.yaml',
    'OpenAI gpt-4.1-mini (crewAI): nine requests, four tasks in one history, a parallel pair',
    CREW,
    `${CREW_CASS}/agents/test_disabling_cache_for_agent.yaml`,
    'f4731f5025f8',
    'bd4d039f636b',
    '2026-01-22',
  ),
  rec(
    'crewai-gpt4o-stream-tool-call.yaml',
    'OpenAI gpt-4o (crewAI): one streamed get_weather call',
    CREW,
    `lib/crewai/tests/cassettes/test_handle_streaming_tool_calls_with_error.yaml`,
    'f4731f5025f8',
    'd1343b96ed6e',
    '2025-10-20',
  ),
  rec(
    'crewai-gpt4omini-failing-tool.yaml',
    'OpenAI gpt-4o-mini (crewAI): a failing tool, a summary, a request ending on an assistant message',
    CREW,
    `${CREW_CASS}/agents/test_native_tool_calling_error_handling.yaml`,
    'f4731f5025f8',
    '32d7b4a8d4b4',
    '2026-03-15',
  ),
  rec(
    'vercel-groq-llama33-tool-call.chunks.txt',
    'Groq llama-3.3-70b chunk log: whole tool call in one delta (response only)',
    VERCEL,
    'packages/groq/src/__fixtures__/groq-tool-call.chunks.txt',
    'ed857f50f112',
    'ef757a4c58dc',
    '2026-02-11',
  ),
  rec(
    'vercel-deepseek-reasoner-tool-call.chunks.txt',
    'DeepSeek reasoner chunk log: reasoning deltas, then a tool call (response only)',
    VERCEL,
    'packages/deepseek/src/chat/__fixtures__/deepseek-tool-call.chunks.txt',
    'ed857f50f112',
    '4d04f43117eb',
    '2025-12-02',
  ),
  rec(
    'vercel-xai-grok3mini-tool-call.chunks.txt',
    'xAI grok-3-mini chunk log: long reasoning, then a whole tool call (response only)',
    VERCEL,
    'packages/openai-compatible/src/chat/__fixtures__/xai-tool-call.chunks.txt',
    'ed857f50f112',
    'e63b6d9cdc3d',
    '2026-02-11',
  ),
  rec(
    'vercel-anthropic-compat-sparse-index.sse',
    'claude-haiku-4-5 via an OpenAI-compatible gateway: tool call at index 1 only (raw SSE, response only)',
    VERCEL,
    'packages/openai-compatible/src/chat/__fixtures__/anthropic-fallback-tool-call.sse',
    'ed857f50f112',
    '1bec07d118ba',
    '2026-08-04',
  ),
];

/** The "contents" column of SOURCES.md by file name (empty when the file is absent). */
function descriptions(sourceDir: string): Map<string, string> {
  const out = new Map<string, string>();
  const path = join(sourceDir, 'SOURCES.md');
  if (!existsSync(path)) return out;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const cells = line.split(' | ');
    const file = /^\| `([^`]+)`$/.exec(cells[0] ?? '')?.[1];
    if (file && cells.length >= 5) out.set(file, cells.slice(4).join(' | ').replace(/ \|$/, '').trim());
  }
  return out;
}

function checkDigests(sourceDir: string): string[] {
  const sums = join(sourceDir, 'SHA256SUMS');
  if (!existsSync(sums)) return ['SHA256SUMS not found: digests not checked'];
  const problems: string[] = [];
  for (const line of readFileSync(sums, 'utf8').split('\n')) {
    const match = /^([0-9a-f]{64})\s+\*?(.+)$/.exec(line.trim());
    if (!match) continue;
    const actual = createHash('sha256')
      .update(readFileSync(join(sourceDir, match[2]!)))
      .digest('hex');
    if (actual !== match[1]) problems.push(`${match[2]}: sha256 differs from SHA256SUMS`);
  }
  return problems;
}

/** Imports every recording; returns one summary line per file. */
export function importReal(
  sourceDir: string,
  outDir: string,
  log: (line: string) => void = console.log,
): void {
  for (const problem of checkDigests(sourceDir)) log(`WARNING ${problem}`);
  const described = descriptions(sourceDir);
  for (const recording of REAL_RECORDINGS) {
    const { cassette, format, warnings } = importRecordingDetailed(join(sourceDir, recording.file), {
      title: recording.title,
      source: recording.source,
      recordedAt: recording.changed,
      ...(described.get(recording.file) ? { description: described.get(recording.file)! } : {}),
      onWarning: () => {},
    });
    saveCassette(join(outDir, `${cassette.meta.id}.json`), cassette);
    const turns = cassette.exchanges.map((exchange, i) => {
      const kind = exchange.response.events ? `stream(${exchange.response.events.length})` : `json`;
      let calls = '';
      try {
        calls = decodeRecordedResponse(exchange.response, i)
          .toolCalls.map((c) => String(c.function?.name))
          .join('+');
      } catch (error) {
        calls = `error:${(error as Error).message.slice(0, 40)}`;
      }
      return `${exchange.response.status}/${kind}${calls ? `[${calls}]` : ''}`;
    });
    log(`${cassette.meta.id}: ${format}, ${cassette.exchanges.length} exchange(s): ${turns.join(' ')}`);
    for (const warning of warnings) log(`  WARNING ${warning}`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = fileURLToPath(new URL('.', import.meta.url));
  importReal(
    process.argv[2] ?? join(here, '../../../shared/recordings-real'),
    process.argv[3] ?? join(here, '../../recordings/real'),
  );
}
