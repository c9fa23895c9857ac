/**
 * Whole fuzz cases: a scenario (workspace, fake tools, approver, configuration and a script of
 * generated segments) and a transport. Families weight the segments differently so each test
 * file explores one area hard while still mixing in the others.
 */
import fc from 'fast-check';
import type { PartialConfig } from '../../harness/config.ts';
import type { ApproverSpec, FakeToolSpec, Scenario, ScriptedTurn, WorkspaceSpec } from '../scenario/types.ts';
import { injectionArb } from './turns.ts';
import {
  anyCallsSegment,
  conflictSegment,
  disagreeingSegment,
  errorSegment,
  oversizedSegment,
  repetitionSegment,
  type Segment,
  textSegment,
  validSegment,
} from './turns.ts';
import type { DeltaShape } from './deltas.ts';
import type { FuzzCase, Transport } from './types.ts';

/** The generator families, one per test file; `mixed` weights every segment alike. */
export const FAMILIES = ['arguments', 'calls', 'budgets', 'loops', 'stream', 'mixed'] as const;

/** One of {@link FAMILIES}. */
export type Family = (typeof FAMILIES)[number];

/**
 * The workspace every case starts from: text files, links inside (to a file, to a folder), links
 * out (a folder, a file, a dangling link that would create a file outside), a link to itself, and
 * a file outside.
 */
export const WORKSPACE: WorkspaceSpec = {
  files: {
    'a.txt': 'alpha\nbeta\n',
    'b.txt': 'bêta 😀\n',
    'src/main.ts': 'export const alpha = 1;\n',
  },
  dirs: ['sub'],
  symlinks: {
    'link.txt': 'a.txt',
    out: '$OUTSIDE',
    'notes.md': '$OUTSIDE/victim.txt',
    'draft.txt': '$OUTSIDE/not-yet.txt',
    'self.txt': 'self.txt',
    'sub-link': 'sub',
  },
  outside: { 'victim.txt': 'original\n' },
};

const oversizedText = fc
  .record({ size: fc.integer({ min: 2_000, max: 40_000 }), unit: fc.constantFrom('x', 'é', '😀 ', 'row\n') })
  .map(({ size, unit }) => `${unit.repeat(Math.ceil(size / unit.length))}END`);

const resultText = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('3 hits: a.txt, b.txt, src/main.ts', 'no hits', '') },
  { weight: 4, arbitrary: injectionArb },
  { weight: 1, arbitrary: oversizedText },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
);

// One schema object per fake tool for the whole process: the registry compiles a schema once per
// object, so fresh copies per case would cost an ajv compilation on every run.
const SEARCH_PARAMETERS = {
  type: 'object',
  properties: { query: { type: 'string' } },
  required: ['query'],
  additionalProperties: false,
};
const DEPLOY_PARAMETERS = {
  type: 'object',
  properties: { target: { enum: ['prod', 'staging'] } },
  required: ['target'],
};

/** The fake tools: an untrusted search (injection and oversized results), a polled status, an irreversible deploy, a path-less write. */
export const fakeToolsArb: fc.Arbitrary<Record<string, FakeToolSpec>> = fc
  .record({
    results: fc.array(resultText, { minLength: 1, maxLength: 3 }),
    untrusted: fc.boolean(),
    statuses: fc.constantFrom(['pending', 'pending', 'done'], ['pending'], ['running', 'done']),
    deployFails: fc.boolean(),
  })
  .map(({ results, untrusted, statuses, deployFails }) => ({
    search: {
      description: 'Search the project.',
      parameters: SEARCH_PARAMETERS,
      untrusted,
      results: results.map((output) => ({ output })),
    },
    status: { description: 'Build status.', results: statuses.map((output) => ({ output })) },
    deploy: {
      description: 'Deploy the build.',
      effect: 'irreversible',
      parameters: DEPLOY_PARAMETERS,
      results: [deployFails ? { error: 'deploy failed: quota' } : { output: 'deployed' }],
    },
    save_draft: { description: 'Save a draft.', effect: 'write', results: [{ output: 'saved' }] },
  }));

/** Scripted approvers: a default, and rules that approve or deny some tools and paths. */
export const approverArb: fc.Arbitrary<ApproverSpec | undefined> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc
      .record({
        default: fc.constantFrom('approve', 'deny'),
        rules: fc.subarray([
          { tool: 'write_file', match: 'a.txt', answer: 'deny' },
          { tool: 'deploy', answer: 'approve' },
          { tool: '*', match: 'src/**', answer: 'approve' },
          { tool: 'str_replace', answer: 'deny' },
          { tool: 'save_draft', answer: 'deny' },
          { tool: '*', answer: 'approve' },
        ] as const),
      })
      .map(({ default: d, rules }) => ({ default: d, rules: rules.map((r) => ({ ...r })) })),
  },
);

/** Configurations: small budgets, every permission mode, loop limits, small windows and caps. */
export function configArb(family: Family): fc.Arbitrary<PartialConfig> {
  const tight = family === 'budgets' ? 3 : 1;
  return fc
    .record({
      maxTurns: fc.integer({ min: 1, max: 14 }),
      maxToolCalls: fc.integer({ min: 1, max: 24 }),
      maxTokens: fc.oneof(
        { weight: 3, arbitrary: fc.constant(2_000_000) },
        { weight: tight, arbitrary: fc.integer({ min: 300, max: 60_000 }) },
      ),
      maxCostUsd: fc.oneof(
        { weight: 3, arbitrary: fc.constant(5) },
        { weight: tight, arbitrary: fc.double({ min: 0.0002, max: 0.05, noNaN: true }) },
      ),
      maxWallMs: fc.oneof(
        { weight: 3, arbitrary: fc.constant(1_800_000) },
        { weight: tight, arbitrary: fc.integer({ min: 5, max: 400 }) },
      ),
      maxConsecutiveTruncations: fc.integer({ min: 1, max: 4 }),
      wrapUpTurn: fc.boolean(),
      warnAt: fc.integer({ min: 2, max: 5 }),
      stopAt: fc.integer({ min: 2, max: 7 }),
      context: fc.oneof(
        { weight: 4, arbitrary: fc.constant(undefined) },
        fc.record({ windowTokens: fc.integer({ min: 1_500, max: 20_000 }) }),
        fc.record({ toolOutputMaxChars: fc.integer({ min: 40, max: 3_000 }) }),
      ),
      mode: fc.oneof(
        { weight: 6, arbitrary: fc.constant('interactive' as const) },
        fc.constantFrom('headless' as const, 'auto' as const, 'plan' as const),
      ),
      onDeny: fc.oneof(
        { weight: 4, arbitrary: fc.constant('continue' as const) },
        fc.constant('stop' as const),
      ),
      paths: fc.subarray([
        { pattern: 'src/**', access: 'write', action: 'allow' },
        { pattern: 'b.txt', access: 'read', action: 'deny' },
        { pattern: '*.txt', access: 'write', action: 'allow' },
      ] as const),
      taint: fc.record({
        enabled: fc.boolean(),
        onTainted: fc.constantFrom('ask' as const, 'deny' as const),
      }),
      textToolCalls: fc.constantFrom('correct' as const, 'ignore' as const),
    })
    .map((c) => ({
      sandbox: { kind: 'none' as const },
      limits: {
        maxTurns: c.maxTurns,
        maxToolCalls: c.maxToolCalls,
        maxTokens: c.maxTokens,
        maxCostUsd: c.maxCostUsd,
        maxWallMs: c.maxWallMs,
        maxConsecutiveTruncations: c.maxConsecutiveTruncations,
        wrapUpTurn: c.wrapUpTurn,
      },
      loop: { warnAt: c.warnAt, stopAt: c.stopAt },
      ...(c.context ? { context: c.context } : {}),
      permissions: { mode: c.mode, onDeny: c.onDeny, paths: c.paths.map((p) => ({ ...p })) },
      taint: c.taint,
      textToolCalls: c.textToolCalls,
    }));
}

type Weights = Record<
  'valid' | 'any' | 'disagree' | 'conflict' | 'repeat' | 'oversized' | 'text' | 'error',
  number
>;

const WEIGHTS: Record<Family, Weights> = {
  arguments: { valid: 2, any: 8, disagree: 1, conflict: 1, repeat: 1, oversized: 1, text: 1, error: 1 },
  calls: { valid: 3, any: 4, disagree: 1, conflict: 5, repeat: 1, oversized: 1, text: 1, error: 1 },
  budgets: { valid: 4, any: 2, disagree: 3, conflict: 1, repeat: 2, oversized: 2, text: 2, error: 3 },
  loops: { valid: 2, any: 1, disagree: 1, conflict: 1, repeat: 8, oversized: 1, text: 1, error: 1 },
  stream: { valid: 4, any: 4, disagree: 2, conflict: 1, repeat: 1, oversized: 1, text: 2, error: 1 },
  mixed: { valid: 2, any: 2, disagree: 2, conflict: 2, repeat: 2, oversized: 1, text: 1, error: 1 },
};

function segmentArb(family: Family): Segment {
  const w = WEIGHTS[family];
  return fc.oneof(
    { weight: w.valid, arbitrary: validSegment },
    { weight: w.any, arbitrary: anyCallsSegment },
    { weight: w.disagree, arbitrary: disagreeingSegment },
    { weight: w.conflict, arbitrary: conflictSegment },
    { weight: w.repeat, arbitrary: repetitionSegment },
    { weight: w.oversized, arbitrary: oversizedSegment },
    { weight: w.text, arbitrary: textSegment },
    { weight: w.error, arbitrary: errorSegment },
  );
}

/** A script: 1–6 segments, usually closed by a final answer (else the script may run out: `model_error`). */
export function scriptArb(family: Family): fc.Arbitrary<ScriptedTurn[]> {
  return fc
    .record({
      segments: fc.array(segmentArb(family), { minLength: 1, maxLength: 6 }),
      close: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, fc.constant(false)),
      stream: fc.boolean(),
    })
    .map(({ segments, close, stream }) => [
      ...segments.flat(),
      ...(close
        ? [{ content: 'Finished.', ...(stream && family === 'stream' ? { stream: true } : {}) }]
        : []),
    ]);
}

const shapeArb: fc.Arbitrary<DeltaShape | undefined> = fc.option(
  fc.record({
    cuts: fc.array(fc.nat({ max: 400 }), { maxLength: 12 }),
    repeatId: fc.boolean(),
    omitIndex: fc.boolean(),
    indexBase: fc.constantFrom(0 as const, 1 as const),
    pack: fc.boolean(),
  }),
  { nil: undefined, freq: 2 },
);

/** The wire transport for the stream family (byte cuts anywhere, or every few bytes; delta shapes), else the scripted model. */
const transportArb = (family: Family): fc.Arbitrary<Transport> =>
  family === 'stream'
    ? fc.oneof(
        {
          weight: 3,
          arbitrary: fc
            .record({ cuts: fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), shape: shapeArb })
            .map(({ cuts, shape }) => ({ kind: 'wire' as const, cuts, ...(shape ? { shape } : {}) })),
        },
        {
          weight: 1,
          arbitrary: fc
            .record({ step: fc.integer({ min: 1, max: 7 }), shape: shapeArb })
            .map(({ step, shape }) => ({
              kind: 'wire' as const,
              cuts: [-step],
              ...(shape ? { shape } : {}),
            })),
        },
        { weight: 1, arbitrary: fc.constant({ kind: 'scripted' as const }) },
      )
    : fc.constant({ kind: 'scripted' as const });

/** A whole case of `family`. The scenario id is fixed; the writer renames it. */
export function caseArb(family: Family): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      config: configArb(family),
      fakeTools: fakeToolsArb,
      approver: approverArb,
      model: scriptArb(family),
      transport: transportArb(family),
    })
    .map(({ config, fakeTools, approver, model, transport }) => {
      const scenario: Scenario = {
        id: `fuzz/${family}`,
        task: 'Update a.txt and report what src/main.ts exports.',
        tools: ['read_file', 'write_file', 'str_replace', 'list_dir'],
        config,
        workspace: structuredClone(WORKSPACE),
        fakeTools,
        ...(approver ? { approver } : {}),
        model,
        expect: { stopReason: 'final_answer' },
      };
      return { family, scenario, transport };
    });
}
