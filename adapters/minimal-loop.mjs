#!/usr/bin/env node
/**
 * The seeds' minimal agent loop as a `command` adapter (adapters/minimal-loop.json): a plain while
 * loop with fetch — call the model, run every tool call, append the results, stop on a text answer
 * or after HARNESS_MAX_TURNS model calls. JSON.parse with no repair, no policy, no sandbox (bash runs
 * on the host in the workspace). A tool call whose arguments do not parse, or that names a tool it
 * does not have, gets an error text as its tool result. The final answer is printed on stdout.
 *
 * Environment (docs/adapters.md, "Command adapters"): OPENAI_BASE_URL, OPENAI_API_KEY,
 * HARNESS_MODEL, HARNESS_TOOLS (JSON), HARNESS_MAX_TURNS, HARNESS_WORKSPACE; the task on stdin.
 */
import { readFileSync } from 'node:fs';
import { implementations, notImplemented } from './workspace-tools.mjs';

const env = process.env;
const workspace = env.HARNESS_WORKSPACE ?? process.cwd();
const tools = JSON.parse(env.HARNESS_TOOLS ?? '[]');
const maxTurns = Number(env.HARNESS_MAX_TURNS ?? 20);
const task = env.HARNESS_TASK ?? readFileSync(0, 'utf8');

const messages = [{ role: 'user', content: task }];
let answer = '';
for (let turn = 0; turn < maxTurns; turn++) {
  const response = await fetch(`${env.OPENAI_BASE_URL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${env.OPENAI_API_KEY ?? ''}` },
    body: JSON.stringify({
      model: env.HARNESS_MODEL ?? 'model',
      messages,
      tools: tools.map((t) => ({ type: 'function', function: t })),
    }),
  });
  if (!response.ok) {
    process.stderr.write(`model call failed: HTTP ${response.status} ${await response.text()}\n`);
    process.exit(1);
  }
  const message = (await response.json()).choices[0].message;
  messages.push(message);
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) {
    answer = message.content ?? '';
    break;
  }
  for (const call of calls) {
    let content;
    try {
      const name = call.function.name;
      if (!tools.some((t) => t.name === name)) throw new Error(`unknown tool ${name}`);
      const run = Object.hasOwn(implementations, name) ? implementations[name] : undefined;
      if (!run) throw notImplemented(name);
      content = await run(JSON.parse(call.function.arguments || '{}'), { workspace });
    } catch (error) {
      content = `error: ${error.message}`;
    }
    messages.push({ role: 'tool', tool_call_id: call.id, content });
  }
}
process.stdout.write(`${answer}\n`);
