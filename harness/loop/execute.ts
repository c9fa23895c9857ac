/**
 * Step 8 of the tool-call pipeline (`docs/architecture.md` §4): runs a call that passed its
 * checks (`preflight.ts`) and shapes its output for the model. A tool's failure or throw is a
 * structured result (`tool_failed`, `sandbox_unavailable`); nothing is retried here, so a tool
 * never runs twice.
 */
import { capOutput } from '../context/shape.ts';
import { describeSystemError, runPathLabels } from '../path-display.ts';
import { escapeReservedTags } from '../policy/taint.ts';
import { SandboxUnavailableError } from '../sandbox/types.ts';
import type { CallOutcome, DispatchContext, ReadyCall } from './preflight.ts';
import type { Verdict } from '../policy/types.ts';
import { failure, type ToolContext, type ToolOutput } from '../tools/types.ts';

/** Executes `ready` and returns its outcome (`executed: true`, its outcome recorded by the loop detector). Never rejects for tool failures. */
export async function executeCall(ready: ReadyCall, context: DispatchContext): Promise<CallOutcome> {
  const { call, tool, args, prepared, verdict } = ready;
  const name = call.name;
  const escapeTags = context.config.taint.enabled;
  let output: ToolOutput;
  try {
    const toolContext: ToolContext = {
      callId: call.callId,
      sandbox: context.sandbox,
      deps: context.deps,
      signal: context.signal,
      workspace: context.workspace,
      resolvedPaths: prepared.toolPaths.map((r) => r.absolute),
    };
    // Set after the others, as spreads would (the same keys in the same order), without the copies.
    if (context.notesPath !== undefined) toolContext.notesPath = context.notesPath;
    if (context.services) toolContext.services = context.services;
    output = await tool.execute(args, toolContext);
  } catch (error) {
    if (error instanceof SandboxUnavailableError)
      return done(failure(name, 'sandbox_unavailable', `${error.message}; ${error.hint}`), verdict);
    return done(
      failure(
        name,
        'tool_failed',
        shape(
          `${name} failed: ${describeSystemError(error, runPathLabels(context.workspace, context.deps.pathLabels))}`,
          escapeTags,
        ),
      ),
      verdict,
    );
  }
  if (!output.ok) return done(failure(name, output.errorType, shape(output.message, escapeTags)), verdict);
  const data = context.shapeOutput
    ? await context.shapeOutput(shape(output.content, escapeTags), {
        callId: call.callId,
        tool: name,
        ...(output.fullText !== undefined ? { fullText: shape(output.fullText, escapeTags) } : {}),
      })
    : capOutput(shape(output.content, escapeTags), context.config.context.toolOutputMaxChars).text;
  const outcome = done({ ok: true, tool: name, data }, verdict);
  if (output.untrusted !== undefined) outcome.untrusted = output.untrusted;
  return outcome;
}

/** Tool text must not pose as harness text (reserved tags escaped) while taint tracking is on. */
function shape(text: string, escapeTags: boolean): string {
  return escapeTags ? escapeReservedTags(text) : text;
}

function done(result: CallOutcome['result'], verdict: Verdict): CallOutcome {
  return { result, executed: true, verdict, recordLoop: true };
}
