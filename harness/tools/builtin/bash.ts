/**
 * `bash {command, timeout_s?}`: runs a command in the workspace through the sandbox (bubblewrap,
 * Seatbelt, or `none` only when configured so). Its output is shaped at the tool: the exit code,
 * then the head and tail of stdout and of stderr with a marked elision, never the whole flood.
 *
 * The class is `write` by default; the policy's shell analysis classes each command (the policy
 * sees the command through `command`). A command that ran is `ok: true` whatever its exit code
 * (a failing test run or a grep without matches is information, not a tool failure); a timeout
 * is `timeout`, a missing or unusable sandbox `sandbox_unavailable` with an install hint. A
 * command is never retried: it may not be idempotent. The output names the workspace `$WS` and
 * the run's labelled folders by their labels (`path-display.ts`), and the command's environment
 * sets `WS` to the workspace, so a path the model copies from the output means the same there.
 */
import { commandReadsFiles } from '../../policy/taint.ts';
import { analyseCommandSync } from '../../policy/shell-analysis.ts';
import { shellParserReady } from '../../policy/shell-parser.ts';
import { runPathLabels, showPathsIn, WORKSPACE_LABEL } from '../../path-display.ts';
import { scrubEnvironment } from '../../sandbox/local.ts';
import { SandboxUnavailableError, type ExecResult } from '../../sandbox/types.ts';
import type { ToolDefinition, ToolOutput } from '../types.ts';

/** Seconds a command may run when `timeout_s` is not given. */
export const BASH_DEFAULT_TIMEOUT_S = 120;
/** The largest `timeout_s` accepted. */
export const BASH_MAX_TIMEOUT_S = 600;
/** Characters kept from the start of each stream. */
export const BASH_HEAD_CHARS = 3000;
/** Characters kept from the end of each stream (errors and summaries are usually at the end). */
export const BASH_TAIL_CHARS = 5000;

/**
 * Keeps the first `head` and last `tail` characters of `text`, with a marker line saying how many
 * characters (and lines) were elided in between.
 */
export function headTail(text: string, head = BASH_HEAD_CHARS, tail = BASH_TAIL_CHARS): string {
  if (text.length <= head + tail) return text;
  const cut = text.slice(head, text.length - tail);
  const lines = cut.split('\n').length - 1;
  return `${text.slice(0, head)}\n[… ${cut.length} characters (${lines} lines) elided; redirect the output to a file and page through it with read_file or search_code …]\n${text.slice(text.length - tail)}`;
}

/**
 * The model-visible text of a finished command: `exit code N`, then each non-empty stream shaped
 * with {@link headTail} (`headChars: Infinity` keeps the streams whole, for the spill file).
 */
export function shapeCommandOutput(
  result: Pick<ExecResult, 'exitCode' | 'stdout' | 'stderr'>,
  headChars = BASH_HEAD_CHARS,
): string {
  const parts = [
    result.exitCode === null ? 'exit code: none (killed by a signal)' : `exit code: ${result.exitCode}`,
  ];
  const cut = (text: string) => (headChars === Infinity ? text : headTail(text, headChars));
  if (result.stdout !== '') parts.push(`stdout:\n${cut(result.stdout)}`);
  if (result.stderr !== '') parts.push(`stderr:\n${cut(result.stderr)}`);
  if (result.stdout === '' && result.stderr === '') parts.push('(no output)');
  return parts.join('\n');
}

/** `bash`: see the file comment. */
export const bashTool: ToolDefinition<{ command: string; timeout_s?: number }> = {
  name: 'bash',
  description: `Run a bash command in the workspace (sandboxed: no network, only the workspace is writable). Returns the exit code and the head and tail of stdout and stderr. Default timeout ${BASH_DEFAULT_TIMEOUT_S} s.`,
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['command'],
    properties: {
      command: {
        type: 'string',
        minLength: 1,
        description: 'The command line, run with bash -c in the workspace root.',
      },
      timeout_s: {
        type: 'integer',
        minimum: 1,
        maximum: BASH_MAX_TIMEOUT_S,
        description: `Seconds before the command and everything it started are killed (default ${BASH_DEFAULT_TIMEOUT_S}).`,
      },
    },
  },
  effect: 'write',
  command: (args) => args.command,
  async execute(args, context): Promise<ToolOutput> {
    const timeoutS = args.timeout_s ?? BASH_DEFAULT_TIMEOUT_S;
    let result: ExecResult;
    try {
      result = await context.sandbox.exec(args.command, {
        cwd: context.workspace,
        timeoutMs: timeoutS * 1000,
        signal: context.signal,
        // The output shows the workspace as $WS: the variable makes `$WS/…` mean it in a command too.
        env: { ...scrubEnvironment(process.env), [WORKSPACE_LABEL.slice(1)]: context.workspace },
      });
    } catch (error) {
      if (error instanceof SandboxUnavailableError)
        return {
          ok: false,
          errorType: 'sandbox_unavailable',
          message: `${error.message}; the command was not run. ${error.hint}`,
        };
      return {
        ok: false,
        errorType: 'tool_failed',
        message: `bash could not run the command: ${(error as Error)?.message ?? String(error)}`,
      };
    }
    const labels = runPathLabels(context.workspace, context.deps.pathLabels);
    result = {
      ...result,
      stdout: showPathsIn(result.stdout, labels),
      stderr: showPathsIn(result.stderr, labels),
    };
    const details = {
      exitCode: result.exitCode,
      stdoutChars: result.stdout.length,
      stderrChars: result.stderr.length,
      timedOut: result.timedOut,
    };
    if (result.timedOut)
      return {
        ok: false,
        errorType: 'timeout',
        message: `the command ran longer than ${timeoutS} s and was killed with every process it started. Output so far:\n${shapeCommandOutput({ ...result, exitCode: null })}`,
        details,
      };
    if (context.signal.aborted)
      return {
        ok: false,
        errorType: 'interrupted',
        message: 'the run was cancelled while the command ran; it was killed',
        details,
      };
    const content = shapeCommandOutput(result);
    const whole = shapeCommandOutput(result, Infinity);
    // Output of a command that reads files carries content this run did not write (taint.untrustedFiles).
    const reads = !shellParserReady() || commandReadsFiles(analyseCommandSync(args.command));
    return {
      ok: true,
      content,
      details,
      ...(whole.length > content.length ? { fullText: whole } : {}),
      ...(reads ? { untrusted: 'bash' } : {}),
    };
  },
};
