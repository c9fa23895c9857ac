/**
 * JUnit XML: one testsuite per configuration, one testcase per case × configuration; `fail` →
 * `<failure>` whose body lists every failed check and the command that reproduces it, `error` →
 * `<error>`, `skipped` → `<skipped message="reason; fix: …"/>`. The shape is the one Jenkins'
 * `junit-10.xsd` (Surefire's) describes and GitLab and GitHub reporters read: `testsuites` >
 * `testsuite` (`name`, `tests`, `failures`, `errors`, `skipped`, `time`) > `testcase` (`name`,
 * `classname`, `time`); `reports/junit.test.ts` holds the file to it.
 */
import type { ResultsFile } from '../eval/results.ts';
import { failedCheckLines, reproduceCommand } from './summary.ts';

const xml = (text: string) =>
  text
    .replace(
      /[<>&"']/g,
      (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch]!,
    )
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** Renders the results as JUnit XML (see the file comment); XML 1.0's forbidden control characters are dropped. */
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
    const seconds = cases.reduce((n, c) => n + c.usage.durationMs, 0) / 1000;
    out.push(
      `  <testsuite name="${xml(config.name)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds.toFixed(3)}">`,
    );
    for (const c of cases) {
      const open = `    <testcase classname="${xml(c.kind)}" name="${xml(c.id)}" time="${(c.usage.durationMs / 1000).toFixed(3)}"`;
      if (c.status === 'pass') out.push(`${open}/>`);
      else if (c.status === 'fail')
        out.push(
          `${open}><failure message="${xml(c.firstFailure ?? 'failed')}" type="checks">${xml([...failedCheckLines(c), `reproduce: ${reproduceCommand(results, c)}`].join('\n'))}</failure></testcase>`,
        );
      else if (c.status === 'skipped')
        out.push(
          `${open}><skipped message="${xml(c.skip ? `${c.skip.reason}; fix: ${c.skip.fix}` : 'skipped')}"/></testcase>`,
        );
      else
        out.push(
          `${open}><error message="${xml(c.error?.message.split('\n')[0] ?? 'error')}" type="error">${xml(`${c.error?.message ?? 'error'}\nreproduce: ${reproduceCommand(results, c)}`)}</error></testcase>`,
        );
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
