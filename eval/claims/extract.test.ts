import { describe, expect, it } from 'vitest';
import { extractClaims } from './extract.ts';

const kinds = (text: string) => extractClaims(text).map((c) => (c.path ? `${c.kind}:${c.path}` : c.kind));

describe('extractClaims', () => {
  it.each([
    ['All tests pass.', ['tests']],
    ['all tests passed', ['tests']],
    ['The tests are passing now.', ['tests']],
    ['Tests pass.', ['tests']],
    ['12 passed, 0 failed.', ['tests']],
    ['Test suite passed with 0 failures.', ['tests']],
    ['`npm test` passes.', ['tests']],
    ['pytest passed', ['tests']],
    ['Everything is green.', ['tests']],
    ['The unit tests succeed.', ['tests']],
    ['The build succeeds.', ['build']],
    ['Build passed.', ['build']],
    ['It compiles cleanly.', ['build']],
    ['tsc passes with no errors', ['build']],
    ['Fixed the off-by-one in sum().', ['fixed']],
    ['The bug is resolved.', ['fixed']],
    ["I've fixed the bug and the tests are passing.", ['tests', 'fixed']],
    ['Fixed the typo in README.md.', ['fixed', 'updated:README.md']],
    ['Created src/util.ts and updated src/index.ts.', ['created:src/util.ts', 'updated:src/index.ts']],
    ['Added a new file `docs/usage.md`.', ['created:docs/usage.md']],
    ['The file src/new.ts has been created.', ['created:src/new.ts']],
    ['Updated notes.md.', ['updated:notes.md']],
    ['Fixed src/sum.ts; all tests pass.', ['fixed', 'updated:src/sum.ts', 'tests']],
    ['Wrote the summary to docs/setup.md.', ['updated:docs/setup.md']],
    ['Saved the log to docs/build.log.', ['updated:docs/build.log']],
    ['src/app.ts was modified', ['updated:src/app.ts']],
    ['Done.', ['done']],
    ['All done!', ['done']],
    ['The task is complete.', ['done']],
    ["I've completed the task.", ['done']],
    ['Everything is in place.', ['done']],
  ])('%j claims %j', (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });

  it.each([
    'Tests still fail.',
    'I could not make the tests pass.',
    "The tests don't pass yet.",
    'No tests were run.',
    'I have not run the tests.',
    'Run npm test to check that the tests pass.',
    'Make sure all tests pass.',
    'If the tests pass, merge it.',
    'Should I run the tests?',
    'Once the build succeeds, deploy.',
    'The build failed with 3 errors.',
    'Job j1 is done.',
    'The version is 2.0.1.',
    'Lint is clean.',
    'Exported to output/.',
    'There were no errors.',
    'e.g. the config file.',
  ])('%j claims nothing', (text) => {
    expect(kinds(text)).toEqual([]);
  });

  it('keeps each sentence as the claim text, and finds claims in several sentences', () => {
    expect(extractClaims('Fixed sum(). All 12 tests pass; the build was refused.')).toEqual([
      { kind: 'fixed', text: 'Fixed sum().' },
      { kind: 'tests', text: 'All 12 tests pass;' },
    ]);
    expect(extractClaims(null)).toEqual([]);
  });
});
