/**
 * JUnit XML: one testsuite per configuration, one testcase per case; `fail` → `<failure>`,
 * `error` → `<error>`, `skipped` → `<skipped>` with the reason and the fix (the attributes
 * Jenkins, GitLab and GitHub reporters read: `tests`, `failures`, `errors`, `skipped`).
 */
import type { ResultsFile } from '../eval/results.ts';

const xml = (text: string) =>
  text
    .replace(
      /[<>&"']/g,
      (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch]!,
    )
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** Renders the results as JUnit XML. */
export function renderJunit(results: ResultsFile): string {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="harness-bench" tests="${results.summary.total}" failures="${results.summary.failed}" errors="${results.summary.errored}" skipped="${results.summary.skipped}">`,
  ];
  for (const config of results.configs) {
    const cases = results.cases.filter((c) => c.config === config.name);
    const failures = cases.filter((c) => c.status === 'fail').length;
    const errors = cases.filter((c) => c.status === 'error').length;
    const skipped = cases.filter((c) => c.status === 'skipped').length;
    out.push(
      `  <testsuite name="${xml(config.name)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    );
    for (const c of cases) {
      const open = `    <testcase classname="${xml(c.kind)}" name="${xml(c.id)}" time="${(c.usage.durationMs / 1000).toFixed(3)}"`;
      if (c.status === 'pass') out.push(`${open}/>`);
      else if (c.status === 'fail')
        out.push(`${open}><failure message="${xml(c.firstFailure ?? 'failed')}"/></testcase>`);
      else if (c.status === 'skipped')
        out.push(
          `${open}><skipped message="${xml(c.skip ? `${c.skip.reason}; fix: ${c.skip.fix}` : 'skipped')}"/></testcase>`,
        );
      else out.push(`${open}><error message="${xml(c.error?.message ?? 'error')}"/></testcase>`);
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
