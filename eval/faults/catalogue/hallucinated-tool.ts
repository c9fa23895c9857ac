/**
 * Tool-lookup faults (`harness/tools/registry.ts`, the unknown-tool branch of the dispatcher,
 * text-call detection in `harness/loop/notes.ts` and the loop, the scope check for subagents):
 * "friendly" name matching that re-routes a hallucinated call, hints that go missing, and calls
 * written as text that slip through. Public threads: OpenHands/OpenHands#5111,
 * gptscript-ai/gptscript#656, livekit/agents#6085, ollama/ollama#11662.
 */
import type { Fault } from '../types.ts';

const GET = 'return this.tools.get(name);';

export const HALLUCINATED_TOOL_FAULTS: Fault[] = [
  {
    id: 'hallucinated-tool/case-insensitive-lookup',
    tag: 'hallucinated-tool',
    bug: 'tool lookup ignores case, so Read_File and LIST_DIR run as read_file and list_dir',
    patches: [
      {
        file: 'harness/tools/registry.ts',
        search: GET,
        replace:
          'return this.tools.get(name) ?? [...this.tools.values()].find((t) => t.definition.name.toLowerCase() === name.toLowerCase());',
      },
    ],
  },
  {
    id: 'hallucinated-tool/separators-normalised',
    tag: 'hallucinated-tool',
    bug: 'tool lookup turns hyphens and spaces into underscores, so list-dir runs as list_dir',
    patches: [
      {
        file: 'harness/tools/registry.ts',
        search: GET,
        replace: "return this.tools.get(name.replace(/[-\\s]/g, '_'));",
      },
    ],
  },
  {
    id: 'hallucinated-tool/namespace-stripped',
    tag: 'hallucinated-tool',
    bug: 'tool lookup drops a dotted namespace prefix, so functions.read_file runs as read_file',
    patches: [
      {
        file: 'harness/tools/registry.ts',
        search: GET,
        replace: "return this.tools.get(name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name);",
      },
    ],
  },
  {
    id: 'hallucinated-tool/suggestion-executed',
    tag: 'hallucinated-tool',
    bug: 'an unknown tool with a close suggestion is run as the suggested tool instead of being answered',
    patches: [
      {
        file: 'harness/loop/preflight.ts',
        search: 'const tool = context.registry.get(name);',
        replace:
          'const tool = context.registry.get(name) ?? context.registry.get(context.registry.suggest(name) ?? name);',
      },
    ],
  },
  {
    id: 'hallucinated-tool/no-available-list',
    tag: 'hallucinated-tool',
    bug: 'the unknown_tool message no longer lists the available tools',
    patches: [
      {
        file: 'harness/loop/preflight.ts',
        search: "; available: ${context.registry.names().join(', ')}",
        replace: '',
      },
    ],
  },
  {
    id: 'hallucinated-tool/no-suggestion',
    tag: 'hallucinated-tool',
    bug: 'the "did you mean" hint is computed on the raw name, so case and separator slips get none',
    patches: [
      {
        file: 'harness/tools/registry.ts',
        search: "const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');",
        replace: 'const squash = (s: string) => s;',
      },
    ],
  },
  {
    id: 'hallucinated-tool/text-call-note-every-time',
    tag: 'hallucinated-tool',
    bug: 'the corrective note for a tool call written as text is sent every time, so a model that keeps writing text never gets an answer accepted',
    patches: [
      {
        file: 'harness/loop/step.ts',
        search: 'state.textCallsInRow === 0',
        replace: 'state.textCallsInRow >= 0',
      },
    ],
  },
  {
    id: 'hallucinated-tool/text-call-only-tagged',
    tag: 'hallucinated-tool',
    bug: 'text tool calls are detected only inside tags or fences, so bare JSON in the answer is taken as the final answer',
    patches: [
      {
        file: 'harness/loop/notes.ts',
        search: 'candidates.push(content);',
        replace: '',
      },
    ],
  },
  {
    id: 'hallucinated-tool/scope-not-enforced',
    tag: 'hallucinated-tool',
    bug: "a subagent's allowed tools are only withheld from its declaration, not refused at dispatch",
    patches: [
      {
        file: 'harness/loop/preflight.ts',
        search: 'if (context.allowedTools && !context.allowedTools.includes(name))',
        replace: 'if (false as boolean)',
      },
    ],
  },
];
