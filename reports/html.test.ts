/** Structural tests of report.html (the browser test in `cli/report-html.browser.test.ts` opens it). */
import { describe, expect, it } from 'vitest';
import { caseFilePath } from './case-file.ts';
import { EVIL_ID, EVIL_TEXT, fixture } from './fixture.test-helpers.ts';
import { escapeHtml, renderHtml } from './html.ts';
import { pageData, scriptJson } from './html-data.ts';

const { results, sidecars } = fixture();
const html = renderHtml(results, (c) => (c.transcript ? sidecars.get(c.transcript) : undefined));

describe('report.html', () => {
  it('is self-contained: no remote script, style, image or link, and a CSP that forbids them', () => {
    expect(html).not.toMatch(/<(script|img|iframe|link)[^>]*\s(src|href)=/i);
    expect(html).not.toMatch(/url\(\s*['"]?https?:/i);
    expect(html).toContain(
      `content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"`,
    );
    expect(html).toMatch(/\/\*!\n \* Chart\.js v4\.\d+\.\d+\n[\s\S]*Released under the MIT License/);
  });

  it('escapes every id and text: the only </script> are the page’s own', () => {
    expect(html.match(/<\/script>/g)).toHaveLength(4);
    expect(html).toContain(`>${escapeHtml(EVIL_ID)}</button>`);
    expect(html).not.toContain(EVIL_TEXT);
    const json = html.match(/<script type="application\/json" id="hb-data">([^<]*)<\/script>/)![1]!;
    expect(JSON.parse(json)).toEqual(
      JSON.parse(
        JSON.stringify(pageData(results, (c) => (c.transcript ? sidecars.get(c.transcript) : undefined))),
      ),
    );
  });

  it('shows the summary, the confusion matrices and one row per case id', () => {
    expect(html).toContain('<th>default</th><td>2</td><td>0</td><td>0</td><td>1</td><td>100.0% (2/2)</td>');
    expect(html).toMatch(
      /<h4>permission verdict per call<\/h4><table>.*<th>allow<\/th><td class="miss">1<\/td>/,
    );
    expect(html.match(/<tr class="case-row/g)).toHaveLength(3);
    expect(html).toContain('<h2>Comparisons against default</h2>');
    expect(html).toMatch(
      /<th>strict vs default<\/th><td>2<\/td><td class="st fail">1<\/td><td>0<\/td><td>1<\/td><td>0<\/td><td>1\.00<\/td><td>pass rate -50\.0 pts; tokens\/case \+0\.0<\/td>/,
    );
    expect(html).toContain(
      `${escapeHtml(EVIL_ID)}</span> <b>regression</b> (pass → fail): status pass → fail, verdicts 1 allow → 1 deny`,
    );
  });

  it('embeds per case the diff, the first diverging step and the reproducing command', () => {
    const data = pageData(results, (c) => (c.transcript ? sidecars.get(c.transcript) : undefined));
    const evil = data.cases.find((c) => c.id === EVIL_ID)!;
    expect(evil.diff).toHaveLength(1);
    expect(evil.diff[0]!.differs).toBe(true);
    expect(evil.under.strict!.firstDiverging).toBe(
      'step 1: write_file({"path":"out.txt","content":"x"}) verdict deny (rule paths:write:**), not executed, policy_violation under strict; write_file({"path":"out.txt","content":"x"}) verdict allow (rule effects:write), executed under default',
    );
    expect(evil.under.default!.firstDiverging).toBeUndefined();
    expect(evil.under.strict!.repro).toBe(
      "npx harness-bench run --filter 'injection/evil-</script><b>bold</b>&amp;' -c configs/strict.json --verbose",
    );
    expect(
      data.cases.find((c) => c.id === 'loop/identical-call')!.under.strict!.firstDiverging,
    ).toBeUndefined();
  });

  it('renders without sidecars (a results file written with --json)', () => {
    const bare = renderHtml(results);
    expect(bare).toContain('"hasSidecar":false');
  });
});

describe('scriptJson', () => {
  it('leaves no <, >, & or line separator that could end the element', () => {
    const text = scriptJson({ a: '</script><!-- & \u2028\u2029' });
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ a: '</script><!-- & \u2028\u2029' });
  });
});

describe('caseFilePath', () => {
  it('keeps the id folders and replaces unsafe characters', () => {
    expect(caseFilePath('default', 'injection/suite/u1')).toBe('cases/default/injection/suite/u1.json');
    expect(caseFilePath('a b', '../x/<y>:z')).toBe('cases/a_b/__/x/_y__z.json');
    expect(caseFilePath('.', 'recording/x')).toBe('cases/_/recording/x.json');
  });
});
