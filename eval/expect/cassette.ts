/**
 * Expectations on cassettes: a recorded live session checked for behaviour, not only for
 * determinism. The block lives in the cassette (`"expect"`, `"expectFor"`, `"scorers"` at its
 * top level) or in a sidecar file beside it, `<stem>.expect.json` for `<stem>.json`, holding the
 * same keys (the sidecar wins when both exist; a cassette is evidence and is never rewritten, so
 * the sidecar is how one adds expectations to a recording). The block is the scenario `expect`
 * format and goes through the same registry after the replay. A replay's workspace is gone when
 * the checks run, so `evidence` and `attack.goalFiles` are bad input here; claims about files
 * are judged from the edit calls alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import type { RunResult } from '../../harness/ledger.ts';
import type { Cassette } from '../cassette/types.ts';
import type { NamedConfig } from '../config-load.ts';
import { InputError, parseJsonInput, type InputProblem } from '../errors.ts';
import { describeFailure, type CaseResult } from '../results.ts';
import { expectationsFor } from '../scenario/check.ts';
import { describeSchemaErrors } from '../scenario/schema-errors.ts';
import { SCENARIO_SCHEMA } from '../scenario/schema.ts';
import { compileScenarioSchema } from '../scenario/validate.ts';
import type { Expectations, LoadedScenario } from '../scenario/types.ts';
import type { Check } from './check.ts';
import { runExpectations } from './registry.ts';
import { resolveScorers } from './scorers.ts';
import { expectationBlocks, expectationProblems, namedCallIds, withoutRemovals } from './validate.ts';

/** The expectations of one cassette and where they came from (the cassette or its sidecar file). */
export interface CassetteExpectations {
  /** The file the block came from, as shown (the cassette, or its sidecar). */
  file: string;
  /** Its absolute path (scorer modules are relative to it). */
  absoluteFile: string;
  expect: Expectations;
  expectFor?: Record<string, Partial<Expectations>>;
  /** Custom scorers: name → module path relative to `file`. */
  scorers?: Record<string, string>;
  /**
   * Per configuration name, the call at which a replay of our own cassette departs from the
   * recording by design: that configuration decides this call otherwise than the recording's
   * harness did (and no earlier one), so the replay cannot follow the recorded conversation past
   * it. The exact-replay checks (`replay.ledger`, `replay.divergences`, `replay.unusedExchanges`)
   * become one check, `replay.departsAt` (`eval/suite.ts`).
   */
  departsAt?: Record<string, string>;
}

let validator: ValidateFunction | undefined;

/** The validator of an expectation block: `{ expect, expectFor?, scorers?, $schema? }`, with the scenario schema's definitions. */
function blockValidator(): ValidateFunction {
  const {
    $id: _id,
    $schema: _s,
    title: _t,
    description: _d,
    required: _r,
    properties,
    ...rest
  } = SCENARIO_SCHEMA;
  validator ??= compileScenarioSchema({
    ...rest,
    required: ['expect'],
    properties: {
      $schema: properties.$schema,
      expect: properties.expect,
      expectFor: properties.expectFor,
      scorers: properties.scorers,
      departsAt: {
        type: 'object',
        description:
          'Per configuration name: the call at which the replay departs from the recording by design (its decision differs).',
        propertyNames: { type: 'string', minLength: 1 },
        additionalProperties: { type: 'string', minLength: 1 },
      },
    },
  });
  return validator;
}

/** The sidecar file of a cassette: `x.expect.json` beside `x.json`. */
export function sidecarPath(cassetteFile: string): string {
  return `${cassetteFile.replace(/\.json$/i, '')}.expect.json`;
}

/** Call ids a cassette can produce: the recorded ledger's, and those in its responses (bodies and stream deltas). */
function cassetteCallIds(cassette: Cassette): Set<string> {
  const ids = new Set<string>((cassette.ledger?.calls ?? []).map((c) => c.callId));
  const collect = (value: unknown) => {
    const choices = (value as { choices?: unknown })?.choices;
    if (!Array.isArray(choices)) return;
    for (const choice of choices) {
      const calls = (choice?.message ?? choice?.delta)?.tool_calls;
      if (Array.isArray(calls)) for (const call of calls) if (typeof call?.id === 'string') ids.add(call.id);
    }
  };
  for (const { response } of cassette.exchanges) {
    collect(response.body);
    for (const event of response.events ?? []) {
      try {
        collect(JSON.parse(event.data));
      } catch {
        // [DONE] and other non-JSON events hold no calls.
      }
    }
  }
  return ids;
}

/**
 * The expectations of a cassette read from `absoluteFile` (shown as `shownFile`), from its sidecar
 * or its own block; `undefined` when it has neither.
 * @throws InputError with every problem (schema, regexes, call ids the recording never made,
 *   keys a replay cannot check).
 */
export function loadCassetteExpectations(
  absoluteFile: string,
  shownFile: string,
  cassette: Cassette,
): CassetteExpectations | undefined {
  const sidecar = sidecarPath(absoluteFile);
  const own = cassette as Cassette & Partial<Omit<CassetteExpectations, 'file'>>;
  let block: unknown;
  let file: string;
  let absolute = absoluteFile;
  if (existsSync(sidecar)) {
    file = sidecarPath(shownFile);
    absolute = sidecar;
    block = parseJsonInput(readFileSync(sidecar, 'utf8'), file);
  } else if (own.expect !== undefined) {
    file = shownFile;
    block = {
      expect: own.expect,
      ...(own.expectFor ? { expectFor: own.expectFor } : {}),
      ...(own.scorers ? { scorers: own.scorers } : {}),
      ...(own.departsAt ? { departsAt: own.departsAt } : {}),
    };
  } else return undefined;
  const problems: InputProblem[] = [];
  const add = (at: string, reason: string) => problems.push({ file, path: at || '/', reason });
  const validate = blockValidator();
  const checked = withoutRemovals(block, add);
  if (!validate(checked))
    for (const p of describeSchemaErrors(validate.errors ?? [], checked)) add(p.path, p.reason);
  const root = (typeof block === 'object' && block !== null ? block : {}) as Record<string, unknown>;
  const ids = cassetteCallIds(cassette);
  for (const [value, at] of expectationBlocks(root)) {
    expectationProblems(value, at, add);
    const expect = (value ?? {}) as Partial<Expectations>;
    if (expect.evidence !== undefined)
      add(
        `${at}/evidence`,
        'a replay’s workspace is gone when cassette expectations run: check requests, events, calls or claims instead',
      );
    if (expect.attack?.goalFiles !== undefined)
      add(
        `${at}/attack/goalFiles`,
        'a replay’s workspace is gone when cassette expectations run: use goalCalls or goalCommands',
      );
    if (ids.size > 0)
      for (const [id, where] of namedCallIds(value, at))
        if (!ids.has(id)) add(where, `no call with id "${id}" in the recording; is it a typo?`);
  }
  if (ids.size > 0 && typeof root.departsAt === 'object' && root.departsAt !== null)
    for (const [name, id] of Object.entries(root.departsAt))
      if (typeof id === 'string' && !ids.has(id))
        add(`/departsAt/${name}`, `no call with id "${id}" in the recording; is it a typo?`);
  if (problems.length > 0) throw new InputError(problems);
  return { file, absoluteFile: absolute, ...(root as Omit<CassetteExpectations, 'file' | 'absoluteFile'>) };
}

/** The cassette's expectations as a scenario (what the registry and the scorer loader take). */
export function cassetteAsScenario(
  expectations: CassetteExpectations,
  subject: { id: string; tags?: string[]; task: string },
): LoadedScenario {
  return {
    file: expectations.file,
    absolutePath: expectations.absoluteFile,
    scenario: {
      id: subject.id,
      task: subject.task,
      model: [],
      expect: expectations.expect,
      ...(expectations.expectFor ? { expectFor: expectations.expectFor } : {}),
      ...(expectations.scorers ? { scorers: expectations.scorers } : {}),
    },
  };
}

/** The expectation checks of a replayed cassette under a configuration. @throws for a scorer fault or a bad scorer module. */
export async function cassetteChecks(
  expectations: CassetteExpectations,
  run: RunResult,
  config: Pick<NamedConfig, 'name' | 'bench'>,
  subject: { id: string; tags: string[]; task: string },
): Promise<Check[]> {
  const asScenario = cassetteAsScenario(expectations, subject);
  const scorers = await resolveScorers(config, asScenario);
  return runExpectations(expectationsFor(asScenario.scenario, config.name), {
    run,
    env: { workspace: '', outside: '', outsideChanges: [] },
    subject: { ...subject, config: config.name },
    scorers,
  });
}

/** A finished case with more checks: a pass becomes a fail when one of them failed; an error or a skip stays. */
export function withChecks(result: CaseResult, extra: readonly Check[]): CaseResult {
  if (result.status === 'error' || result.status === 'skipped') return result;
  const checks = [...result.checks, ...extra];
  const failed = checks.find((c) => !c.pass);
  const { firstFailure: _f, ...rest } = result;
  return failed
    ? { ...rest, checks, status: 'fail', firstFailure: describeFailure(failed) }
    : { ...rest, checks, status: 'pass' };
}
