/**
 * The layering of the repository, checked by dependency-cruiser (`npm run lint:deps`, part of
 * `npm run lint`). Written down in docs/architecture.md, "Layers"; change both together.
 *
 * - `harness/` knows nothing of the bench: no import of eval/, reports/, cli/, bench/, scripts/.
 * - Inside `harness/`, a module imports only its own layer and the layers below it:
 *     types → deps → parts (config, model, policy, sandbox, tools) → state (ledger, the run's
 *     types in run-types.ts, context, memory, tool implementations) → subagent (admission, child
 *     options, pool, report) → loop (loop/: the loop and the per-turn pipeline: dispatch,
 *     preflight, execute, overlap) → entry (index, testing)
 *   The loop runs a subagent as itself (`loop/run.ts` calls `runHarness` for the child), so the
 *   subagent engine sits below it and never imports the loop.
 *   Tests (`*.test.ts`, `*.test-helpers.ts`) may import any layer of `harness/`.
 * - `eval/` never imports `cli/`; `reports/` takes only types from `eval/` and `harness/`.
 * - No cycles, type-only imports included (`tsPreCompilationDeps`).
 */

const TESTS = '\\.test\\.ts$|\\.test-helpers\\.ts$';
/** The vocabulary every layer shares: declarations, constant tables, the result envelope, errors. */
const TYPES = '^harness/(types|events|errors|loop/stop-reasons|policy/rules|[^/]+/types)\\.ts$';

/** The layers of `harness/` from the bottom up; `types` files are never part of a later layer. */
const LAYERS = [
  { name: 'types', path: TYPES },
  { name: 'deps', path: '^harness/deps\\.ts$' },
  {
    name: 'parts',
    path: '^harness/(config\\.ts$|model/|policy/|sandbox/|tools/(?!builtin/))',
  },
  { name: 'state', path: '^harness/(ledger\\.ts$|run-types\\.ts$|context/|memory/|tools/builtin/)' },
  { name: 'subagent', path: '^harness/subagent/' },
  { name: 'loop', path: '^harness/loop/' },
  { name: 'entry', path: '^harness/(index\\.ts$|testing\\.ts$|testing/)' },
];

/** A forbidden import: modules matching `from` may not import modules matching `to`. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

/** One rule per layer: its modules (tests aside) import nothing of a layer above. */
const layerRules = LAYERS.slice(0, -1).map((layer, index) => {
  const allowed = LAYERS.slice(0, index + 1).map((l) => l.name);
  return forbid(
    `harness-layer-${layer.name}`,
    `a ${layer.name} module imports only ${allowed.join(', ')} (docs/architecture.md, "Layers")`,
    { path: layer.path, pathNot: index === 0 ? TESTS : `${TESTS}|${TYPES}` },
    { path: LAYERS.slice(index + 1).map((l) => `(${l.path})`), pathNot: TYPES },
  );
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid(
      'no-circular',
      'no import cycle, type-only imports included: move the shared type down a layer',
      {},
      { circular: true },
    ),
    forbid(
      'harness-knows-no-bench',
      'harness/ is the product; the bench (eval, reports, cli) is built on it, never the other way',
      { path: '^harness/' },
      { path: '^(eval|reports|cli|bench|scripts|bin)/' },
    ),
    forbid(
      'eval-knows-no-cli',
      'eval/ runs cases; the command line is built on it',
      { path: '^eval/' },
      { path: '^(cli|bench|scripts|bin)/' },
    ),
    forbid(
      'reports-only-types',
      'reports/ renders a results file: it takes only types from eval/ and harness/',
      { path: '^reports/', pathNot: TESTS },
      { path: '^(eval|harness)/', dependencyTypesNot: ['type-only'] },
    ),
    forbid(
      'reports-knows-no-cli',
      'reports/ is used by the command line, never the other way',
      { path: '^reports/' },
      { path: '^(cli|bench|scripts|bin)/' },
    ),
    forbid(
      'not-to-unresolvable',
      'every import resolves (a typo or a missing dependency)',
      {},
      { couldNotResolve: true },
    ),
    ...layerRules,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|reports/latest|reports/out|bench/results)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
