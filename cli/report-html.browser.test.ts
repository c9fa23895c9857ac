/**
 * report.html opened in headless Chromium (Debian's `chromium`, driven by playwright-core; never a
 * downloaded browser) from `file://`, with every non-file request aborted and counted: it loads
 * with no console error, shows every case id, the A/B decision diff and a transcript open on a
 * click, and no `</script>` in an id or a transcript runs. Without `/usr/bin/chromium` the test is
 * skipped with the install hint; under `CI=true` a missing browser fails it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import { readCaseFile } from '../reports/case-file.ts';
import { EVIL_ID, EVIL_TEXT, fixture } from '../reports/fixture.test-helpers.ts';
import { renderHtml } from '../reports/html.ts';
import { main } from './main.ts';

const CHROMIUM = process.env.HB_CHROMIUM ?? '/usr/bin/chromium';
const HINT = `no Chromium at ${CHROMIUM}: install it (Debian/Ubuntu: apt-get install -y chromium) to run the browser test`;
const present = existsSync(CHROMIUM);
if (!present && !process.env.CI) console.warn(`skipped: ${HINT}`);

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe.skipIf(!present && !process.env.CI)('report.html in headless Chromium', () => {
  let dir = '';
  let context: BrowserContext;
  const blocked: string[] = [];

  beforeAll(async () => {
    if (!present) throw new Error(HINT);
    dir = mkdtempSync(path.join(tmpdir(), 'hb-html-'));
    context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      offline: true,
    });
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      blocked.push(url);
      return route.abort();
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens a page and collects its console errors and uncaught exceptions. */
  async function open(file: string): Promise<{ page: Page; errors: string[]; renderMs: number }> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const renderMs = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return Math.round(nav.loadEventEnd - nav.startTime);
    });
    return { page, errors, renderMs };
  }

  it('the fixture page: every id shown, diff and transcript open, nothing injected runs', async () => {
    const { results, sidecars } = fixture();
    const file = path.join(dir, 'fixture.html');
    writeFileSync(
      file,
      renderHtml(results, (c) => (c.transcript ? sidecars.get(c.transcript) : undefined)),
    );
    const { page, errors } = await open(file);
    const ids = await page.locator('button.case-id').allTextContents();
    expect(ids.sort()).toEqual([...new Set(results.cases.map((c) => c.id))].sort());
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(
      await page.evaluate(
        () =>
          typeof (window as unknown as { Chart?: { getChart(id: string): unknown } }).Chart?.getChart(
            'chart-status',
          ),
      ),
    ).toBe('object');

    const row = page.locator('tr.case-row', {
      has: page.getByRole('button', { name: EVIL_ID, exact: true }),
    });
    await row.getByRole('button').click();
    const detail = page.locator('tr.detail-row:not([hidden])');
    await expect.poll(() => detail.count()).toBe(1);
    const diff = detail.locator('table.ab-diff');
    expect(await diff.isVisible()).toBe(true);
    expect(await diff.locator('td.differs').count()).toBeGreaterThan(0);
    expect(await diff.textContent()).toContain('deny · rule paths:write:**');
    expect(await detail.textContent()).toContain('first diverging step: step 1: write_file');
    expect(await detail.textContent()).toContain('npx harness-bench run --filter');

    const transcripts = detail.locator('details.transcript');
    await transcripts.first().locator('summary').click();
    const body = transcripts.first().locator('.transcript-body');
    await expect.poll(() => body.isVisible()).toBe(true);
    expect(await body.textContent()).toContain(EVIL_TEXT);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    expect(blocked).toEqual([]);
    await page.close();
  }, 60_000);

  it('a real run of two configurations (sidecars from run --out): loads clean and opens a case', async () => {
    const out = path.join(dir, 'run');
    const io = {
      stdout: () => undefined,
      stderr: () => undefined,
      cwd: PACKAGE_ROOT,
      env: { NO_COLOR: '1' },
      isTTY: false,
    };
    const args = ['-s', 'scenarios/injection', '-s', 'scenarios/permissions', '-r', 'recordings/examples'];
    await main(
      ['node', 'hb', 'run', ...args, '-c', 'configs/default.json', '-c', 'configs/strict.json', '-o', out],
      io,
    );
    const file = path.join(out, 'report.html');
    const { page, errors, renderMs } = await open(file);
    for (const name of ['results.json', 'report.md', 'junit.xml', 'report.html'])
      expect(existsSync(path.join(out, name))).toBe(true);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as {
      cases: { id: string; transcript?: string }[];
    };
    expect(results.cases.every((c) => c.transcript && readCaseFile(out, c.transcript))).toBe(true);
    const ids = await page.locator('button.case-id').allTextContents();
    expect(ids.sort()).toEqual([...new Set(results.cases.map((c) => c.id))].sort());
    await page.locator('button.case-id').first().click();
    const detail = page.locator('tr.detail-row:not([hidden])');
    expect(await detail.locator('table.ab-diff, p.dim').first().isVisible()).toBe(true);
    const summary = detail.locator('details.transcript summary').first();
    await summary.click();
    await expect.poll(() => detail.locator('.transcript-body .msg').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    expect(blocked).toEqual([]);
    console.info(
      `report.html: ${ids.length} cases × 2 configurations, ${statSync(file).size} bytes, loaded in ${renderMs} ms`,
    );
    await page.close();
  }, 120_000);
});
