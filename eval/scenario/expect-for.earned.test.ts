/**
 * Every `expectFor` block of the bundled scenarios is earned: it states what its configuration
 * does differently, so scored against the run under `configs/default.json` it fails (the case
 * runs under the default configuration with the block's name, which picks the block). A block
 * that still passed under default would say nothing a comparison could use ("strict refuses as
 * designed" needs strict to refuse where default does not). Also: no key of a block repeats what
 * `expect` already says there.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig, PACKAGE_ROOT } from '../config-load.ts';
import { runScenario } from '../run-scenario.ts';
import { loadScenarios } from './load.ts';

const { scenarios } = await loadScenarios(['scenarios'], PACKAGE_ROOT);
const blocks = scenarios.flatMap((loaded) =>
  Object.keys(loaded.scenario.expectFor ?? {})
    .filter((name) => name !== 'default')
    .map((name) => ({ loaded, name })),
);
const base = loadConfig();

describe('expectFor blocks of the bundled scenarios', () => {
  it('exist for every shipped configuration that differs from default by design', () => {
    const names = new Set(blocks.map((b) => b.name));
    for (const name of ['strict', 'permissive', 'naive']) expect(names.has(name), name).toBe(true);
  });

  it('repeat nothing expect says at the same key', () => {
    for (const { loaded, name } of blocks) {
      const block = loaded.scenario.expectFor![name] as Record<string, unknown>;
      const own = loaded.scenario.expect as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(block))
        expect(JSON.stringify(value), `${loaded.file} expectFor.${name}.${key} repeats expect`).not.toBe(
          JSON.stringify(own[key]),
        );
    }
  });

  it('each fails when scored against the run under the default configuration', {
    timeout: 300_000,
  }, async () => {
    const passing: string[] = [];
    const queue = [...blocks];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { result } = await runScenario(next.loaded, { name: next.name, config: base.config });
        if (result.status === 'pass') passing.push(`${next.loaded.file} expectFor.${next.name}`);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(passing, 'blocks that hold under default too (they state nothing by design)').toEqual([]);
  });
});
