/**
 * Argument-parsing faults (`harness/tools/arguments.ts`, the retryable table of
 * `harness/tools/types.ts`, the truncation check of the dispatcher): the "helpful" repairs and
 * shortcuts that public reports show going wrong — intrafind/ihub-apps#1802 (a repair pass
 * corrupting valid arguments), netease-lcap/wave-agent#275 (invalid arguments turned into {}),
 * mangiucugna/json_repair#162 (repairs that hide corruption).
 */
import type { Fault } from '../types.ts';

const PARSE = 'const parsed = tryParse(raw);';

export const BAD_JSON_FAULTS: Fault[] = [
  {
    id: 'bad-json/trailing-commas-stripped',
    tag: 'bad-json',
    bug: 'trailing commas are stripped by a regular expression before parsing, inside strings too',
    patches: [
      {
        file: 'harness/tools/arguments.ts',
        search: PARSE,
        replace: "const parsed = tryParse(raw.replace(/,\\s*([}\\]])/g, '$1'));",
      },
    ],
  },
  {
    id: 'bad-json/single-quotes-swapped',
    tag: 'bad-json',
    bug: 'after a parse failure the parser retries with single quotes turned into double quotes',
    patches: [
      {
        file: 'harness/tools/arguments.ts',
        search: PARSE,
        replace: "let parsed = tryParse(raw);\n  if (!parsed.ok) parsed = tryParse(raw.replace(/'/g, '\"'));",
      },
    ],
  },
  {
    id: 'bad-json/python-literals-mapped',
    tag: 'bad-json',
    bug: 'after a parse failure True, False and None are mapped to JSON literals and parsed again',
    patches: [
      {
        file: 'harness/tools/arguments.ts',
        search: PARSE,
        replace:
          "let parsed = tryParse(raw);\n  if (!parsed.ok) parsed = tryParse(raw.replace(/\\bTrue\\b/g, 'true').replace(/\\bFalse\\b/g, 'false').replace(/\\bNone\\b/g, 'null'));",
      },
    ],
  },
  {
    id: 'bad-json/comments-stripped',
    tag: 'bad-json',
    bug: 'comments are stripped before parsing, so JSON5-style arguments run on a guess',
    patches: [
      {
        file: 'harness/tools/arguments.ts',
        search: PARSE,
        replace: "const parsed = tryParse(raw.replace(/\\/\\/[^\\n]*|\\/\\*[\\s\\S]*?\\*\\//g, ''));",
      },
    ],
  },
  {
    id: 'bad-json/first-value-wins',
    tag: 'bad-json',
    bug: 'extra data after the first JSON value is cut off, so the first of several concatenated objects runs',
    patches: [
      {
        file: 'harness/tools/arguments.ts',
        search: PARSE,
        replace:
          "const firstEnd = scanJson(raw)?.reason === 'extra data after the first JSON value' ? scanJson(raw)!.offset : raw.length;\n  const parsed = tryParse(raw.slice(0, firstEnd));",
      },
    ],
  },
  {
    id: 'bad-json/invalid-becomes-empty-object',
    tag: 'bad-json',
    bug: 'for a tool without required parameters, unparseable arguments fall back to {} and the tool runs',
    patches: [
      {
        file: 'harness/tools/arguments.ts',
        search:
          "if (!parsed.ok)\n    return { ok: false, errorType: 'invalid_json', reason: describeJsonError(raw), normalisations: [] };",
        replace:
          "if (!parsed.ok)\n    return emptyMeansObject ? { ok: true, args: {}, normalisations: ['invalid_to_object'], text: '{}' } : { ok: false, errorType: 'invalid_json', reason: describeJsonError(raw), normalisations: [] };",
      },
    ],
  },
  {
    id: 'bad-json/unwraps-every-layer',
    tag: 'bad-json',
    bug: 'double-encoded arguments are unwrapped until they stop being strings, not exactly once',
    patches: [
      {
        file: 'harness/tools/arguments.ts',
        search: 'const inner = tryParse(parsed.value);',
        replace:
          "let inner = tryParse(parsed.value);\n    while (inner.ok && typeof inner.value === 'string') inner = tryParse(inner.value);",
      },
    ],
  },
  {
    id: 'bad-json/not-retryable',
    tag: 'bad-json',
    bug: 'invalid_json is left out of the retryable error types, so the model is told not to try again',
    patches: [
      {
        file: 'harness/tools/types.ts',
        search: "new Set<ErrorType>([\n  'invalid_json',",
        replace: 'new Set<ErrorType>([',
      },
    ],
  },
  {
    id: 'bad-json/no-offset',
    tag: 'bad-json',
    bug: 'the parse error loses its character offset, so the model cannot find what to fix',
    patches: [
      {
        file: 'harness/tools/arguments.ts',
        search: '`arguments are not valid JSON: ${problem.reason} at character offset ${problem.offset}`',
        replace: '`arguments are not valid JSON: ${problem.reason}`',
      },
    ],
  },
  {
    id: 'bad-json/cut-off-parsed-as-invalid',
    tag: 'bad-json',
    bug: 'a call cut off by the output limit is treated as plain invalid JSON, losing the advice to split it',
    patches: [
      {
        file: 'harness/loop/preflight.ts',
        search: 'if (call.truncated)',
        replace: 'if (call.truncated && call.parsed.ok)',
      },
    ],
  },
];
