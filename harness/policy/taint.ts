/**
 * Provenance and taint. Every message of a run has an origin (system, user, harness note, model,
 * or a tool, marked untrusted when the tool is); once content from an untrusted tool (a web page,
 * an issue text, an e-mail: `ToolDefinition.untrusted`, or a tool listed in
 * `taint.untrustedTools`) has entered the context, the run is tainted for good, and irreversible
 * or network-reaching calls ask a human or are denied (`taint.onTainted`). Tool text also cannot
 * pose as harness text: reserved tags and markers are escaped in tool output. Handed cases F02
 * (OpenHands/software-agent-sdk#2543) and F03 (google/site-kit-wp#12499); AgentDojo (Debenedetti
 * et al., 2024) for the attack model.
 */
import type { HarnessConfig } from '../config.ts';
import type { ChatMessage } from '../model/types.ts';
import type { ToolDefinition } from '../tools/types.ts';
import { contentText } from '../model/content.ts';
import type { CommandAnalysis } from './shell-analysis-types.ts';

/** Where a message came from. */
export type MessageOrigin =
  | { kind: 'system' }
  | { kind: 'user' }
  /** A note the harness added as a user message (`[harness] …`). */
  | { kind: 'harness' }
  | { kind: 'model' }
  | { kind: 'tool'; tool: string; untrusted: boolean };

/** True when content from `tool` counts as untrusted under `config`. */
export function isUntrusted(
  tool: Pick<ToolDefinition, 'name' | 'untrusted'>,
  config: HarnessConfig,
): boolean {
  return tool.untrusted === true || config.taint.untrustedTools.includes(tool.name);
}

/** The taint of a run: the untrusted tools whose content is in the context (empty: clean). Sticky. */
export interface TaintState {
  sources: string[];
}

/**
 * Records that results of `tools` entered the context; returns true when this tainted the run
 * further. `provenance[i]` is what the i-th result says about its content (`ToolOutput.untrusted`,
 * e.g. `read_file:README.md`, content of a file this run did not write): it taints the run when
 * `taint.untrustedFiles` is on.
 */
export function recordTaint(
  state: TaintState,
  tools: readonly (Pick<ToolDefinition, 'name' | 'untrusted'> | undefined)[],
  config: HarnessConfig,
  provenance: readonly (string | undefined)[] = [],
): boolean {
  if (!config.taint.enabled) return false;
  // A plain loop, no closure made per call (a named arrow costs a `__name` call under tsx).
  let changed = false;
  for (let i = 0; i < tools.length; i += 1) {
    const tool = tools[i];
    const source =
      tool && isUntrusted(tool, config) ? tool.name : config.taint.untrustedFiles ? provenance[i] : undefined;
    if (source === undefined || state.sources.includes(source)) continue;
    state.sources.push(source);
    changed = true;
  }
  return changed;
}

/** Programs whose output holds no file content (their arguments and the clock only). */
const CONTENT_FREE = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'pwd',
  'date',
  'sleep',
  'mkdir',
  'touch',
  'cd',
  'whoami',
  'id',
  'uname',
  'which',
  'type',
  'seq',
  'test',
  '[',
  'export',
  'basename',
  'dirname',
]);

/**
 * True when a command's output may carry the content (or the names) of files: it reads a file,
 * walks a tree, or runs a program other than the content-free ones. Its output is then untrusted
 * under `taint.untrustedFiles`.
 */
export function commandReadsFiles(analysis: Pick<CommandAnalysis, 'parts' | 'paths' | 'walks'>): boolean {
  if (analysis.walks.length > 0) return true;
  if (analysis.paths.some((p) => p.access === 'read')) return true;
  return analysis.parts.some((p) => !p.wrapper && !CONTENT_FREE.has(p.program));
}

/** Marker the harness puts at the start of its own notes. */
export const HARNESS_MARKER = '[harness]';

/**
 * The origin of every message, in order: tool messages are attributed through the tool call ids
 * of the assistant messages before them.
 */
export function messageOrigins(
  messages: readonly ChatMessage[],
  untrusted: (tool: string) => boolean,
): MessageOrigin[] {
  const toolByCall = new Map<string, string>();
  return messages.map((message): MessageOrigin => {
    switch (message.role) {
      case 'system':
        return { kind: 'system' };
      case 'user':
        return contentText(message.content).startsWith(HARNESS_MARKER)
          ? { kind: 'harness' }
          : { kind: 'user' };
      case 'assistant':
        for (const call of message.tool_calls ?? []) toolByCall.set(call.id, call.function.name);
        return { kind: 'model' };
      default: {
        const tool = toolByCall.get(message.tool_call_id) ?? '';
        return { kind: 'tool', tool, untrusted: untrusted(tool) };
      }
    }
  });
}

const RESERVED_TAG =
  /<(\/?)\s*(system(?:[-_](?:reminder|message|prompt|note))?|reminder|system-reminder|harness(?:[-_][a-z]+)?|tool_result|function_results|instructions)(\s[^<>]*)?\s*(\/?)>/g;
const SPECIAL_TOKEN = /<\|([a-z_]{2,30})\|>/g;
const RESERVED_MARKER = /\[(harness|system|reminder)\]/gi;
// The same patterns without `g`, to test before replacing: most tool output has none of them.
const HAS_RESERVED_TAG = new RegExp(RESERVED_TAG.source);
const HAS_SPECIAL_TOKEN = new RegExp(SPECIAL_TOKEN.source);
const HAS_RESERVED_MARKER = new RegExp(RESERVED_MARKER.source, 'i');

/**
 * Escapes reserved tags and markers in tool output, so text from a tool cannot pose as harness
 * or system text: `<system>` → `&lt;system&gt;`, `<|im_start|>` → `&lt;|im_start|&gt;`,
 * `[harness]` → `&#91;harness&#93;`. Everything else is left as it is. Each pattern is tested
 * (without `g`, so no `lastIndex` state) before it replaces: text without any is returned as it is.
 */
export function escapeReservedTags(text: string): string {
  let out = text;
  if (out.includes('<')) {
    if (HAS_RESERVED_TAG.test(out))
      out = out.replace(RESERVED_TAG, (match) => `&lt;${match.slice(1, -1)}&gt;`);
    if (HAS_SPECIAL_TOKEN.test(out))
      out = out.replace(SPECIAL_TOKEN, (_, name: string) => `&lt;|${name}|&gt;`);
  }
  if (out.includes('[') && HAS_RESERVED_MARKER.test(out))
    out = out.replace(RESERVED_MARKER, (_, name: string) => `&#91;${name}&#93;`);
  return out;
}
