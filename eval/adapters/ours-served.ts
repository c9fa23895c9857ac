/**
 * Our own harness as a `module` adapter (`adapters/ours-served.json`): `runHarness` with the
 * OpenAI client (`harness/model/openai-model.ts`) against the bench's model endpoint, so our
 * harness can be benched the way any foreign one is. The equivalence test
 * (`run-adapter.test.ts`) holds it to the same pass/fail as the in-process run: what the
 * endpoint serves and what black-box scoring sees must mean what they mean in-process.
 *
 * The default configuration with the case's `config` block over it (`input.config`: the harness
 * reads our configuration's terms, which is why its adapter file declares every limit honoured
 * and opts in to our internals and conventions); the turn limit it is given; the case's scripted
 * human (`input.approver`); the real built-in tools of the names it is given (unknown names left
 * out, so a call to one is our `unknown_tool`); the sandbox of that configuration.
 */
import { DEFAULT_CONFIG, mergeConfig } from '../../harness/config.ts';
import { deterministicDeps } from '../../harness/deps.ts';
import { runHarness } from '../../harness/loop/run.ts';
import { OpenAIModel } from '../../harness/model/openai-model.ts';
import { BUILTIN_TOOLS, builtinTools } from '../../harness/tools/builtin/index.ts';
import { scriptedApprover } from '../scenario/approver.ts';
import { caseSandbox } from '../unavailable-sandbox.ts';
import type { LaunchInput } from './launch.ts';

/** The module contract of `docs/adapters.md`: runs our harness once and returns its final answer. */
export async function run(input: LaunchInput & { signal: AbortSignal }): Promise<{ finalAnswer?: string }> {
  const config = mergeConfig(mergeConfig(DEFAULT_CONFIG, input.config ?? {}), {
    limits: { maxTurns: input.maxTurns },
    model: { name: input.model },
  });
  const deps = deterministicDeps();
  deps.approver = scriptedApprover(input.approver, input.workspace);
  const names = input.tools.map((t) => t.name).filter((name) => Object.hasOwn(BUILTIN_TOOLS, name));
  const result = await runHarness({
    task: input.task,
    config,
    model: new OpenAIModel({ baseURL: input.baseURL, apiKey: input.apiKey, deps }),
    tools: builtinTools(names),
    sandbox: caseSandbox(config, input.workspace, false),
    workspace: input.workspace,
    deps,
    signal: input.signal,
  });
  return result.finalAnswer === null ? {} : { finalAnswer: result.finalAnswer };
}
