/**
 * What counts as running the tests or the build, for completion evidence: command patterns
 * (`*` any characters, matched against the whole bash command and each simple command in it, as
 * `harness/policy/pattern.ts` matches), and tool names for scripted tools (`run_tests`, `build`).
 * The lists follow the test and build entry points of the common ecosystems: npm, yarn, pnpm,
 * bun, deno, vitest, jest, mocha, playwright, node --test; pytest, unittest, tox, nox; cargo;
 * go; make; Maven, Gradle; dotnet; RSpec, rake; mix; PHPUnit; CTest; SwiftPM.
 */
import type { CallRecord } from '../../harness/ledger.ts';
import { matchCommandPattern } from '../../harness/policy/pattern.ts';
import { commandsOf } from '../expect/ledger-facts.ts';

/** Commands that run a test suite. */
export const TEST_COMMANDS: readonly string[] = [
  'npm test*',
  'npm t',
  'npm t *',
  'npm run test*',
  'npm run-script test*',
  'yarn test*',
  'yarn run test*',
  'pnpm test*',
  'pnpm run test*',
  'bun test*',
  'bun run test*',
  'deno test*',
  'npx vitest*',
  'vitest*',
  'npx jest*',
  'jest*',
  'npx mocha*',
  'mocha*',
  'npx playwright test*',
  'node --test*',
  'pytest*',
  'python -m pytest*',
  'python3 -m pytest*',
  'py.test*',
  'python -m unittest*',
  'python3 -m unittest*',
  'tox*',
  'nox*',
  'cargo test*',
  'cargo nextest*',
  'go test*',
  'make test*',
  'make check*',
  'mvn test*',
  'mvn verify*',
  './mvnw test*',
  'gradle test*',
  './gradlew test*',
  'dotnet test*',
  'rspec*',
  'bundle exec rspec*',
  'rake test*',
  'bundle exec rake test*',
  'mix test*',
  'phpunit*',
  'vendor/bin/phpunit*',
  'ctest*',
  'swift test*',
];

/** Commands that build or type-check a project. */
export const BUILD_COMMANDS: readonly string[] = [
  'npm run build*',
  'yarn build*',
  'yarn run build*',
  'pnpm build*',
  'pnpm run build*',
  'bun run build*',
  'tsc',
  'tsc *',
  'npx tsc*',
  'cargo build*',
  'cargo check*',
  'go build*',
  'go vet*',
  'make',
  'make build*',
  'make all*',
  'mvn package*',
  'mvn compile*',
  'mvn install*',
  './mvnw package*',
  'gradle build*',
  './gradlew build*',
  'dotnet build*',
  'vite build*',
  'npx vite build*',
  'next build*',
  'npx next build*',
  'webpack*',
  'npx webpack*',
  'cmake --build*',
  'swift build*',
];

/** Scripted tools whose name says they run the tests (`run_tests`, `test`) or the build (`build`, `run_build`). */
const TEST_TOOL = /(?:^|_)(?:tests?|pytest)(?:_|$)/i;
const BUILD_TOOL = /(?:^|_)(?:build|compile|typecheck)(?:_|$)/i;

/** True when the call runs the tests: a test command, or a tool named for it. */
export function isTestRun(record: CallRecord): boolean {
  if (record.tool !== 'bash') return TEST_TOOL.test(record.tool);
  return commandsOf(record).some((c) => TEST_COMMANDS.some((p) => matchCommandPattern(p, c)));
}

/** True when the call builds: a build command, or a tool named for it. */
export function isBuildRun(record: CallRecord): boolean {
  if (record.tool !== 'bash') return BUILD_TOOL.test(record.tool);
  return commandsOf(record).some((c) => BUILD_COMMANDS.some((p) => matchCommandPattern(p, c)));
}
