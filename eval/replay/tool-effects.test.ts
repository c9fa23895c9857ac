import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../harness/config.ts';
import { InputError } from '../errors.ts';
import { loadCassettes } from '../suite.ts';
import { isSidecar, loadSidecar, sidecarPath, snakeName, toolEffect } from './tool-effects.ts';
import { REAL_DIR } from './fixtures.test-helpers.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hb-effects-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const effect = (tool: string) => toolEffect(tool, DEFAULT_CONFIG).effect;

describe('effect classes of recorded tools', () => {
  it('classifies by the verb a word of the name starts with; unknown tools get the conservative default', () => {
    expect(snakeName('getUserById')).toBe('get_user_by_id');
    expect(snakeName('Delegate work to coworker')).toBe('delegate_work_to_coworker');
    expect(effect('get_weather')).toBe('read');
    expect(effect('parallel_local_search_one')).toBe('read');
    expect(effect('final_result')).toBe('read');
    expect(effect('get_address')).toBe('read');
    expect(effect('createIssue')).toBe('write');
    expect(effect('save_note')).toBe('write');
    expect(effect('delegate_work_to_coworker')).toBe('write');
    expect(effect('delete_file')).toBe('irreversible');
    expect(effect('file_delete')).toBe('irreversible');
    expect(effect('send_email')).toBe('irreversible');
    expect(effect('multiplier')).toBe('write');
    expect(toolEffect('multiplier', DEFAULT_CONFIG)).toEqual({
      tool: 'multiplier',
      effect: 'write',
      rule: 'unknown',
    });
  });

  it('the sidecar comes first, then the configuration (first match wins), then replay.unknownToolEffect', () => {
    const config = {
      replay: {
        toolEffects: [{ pattern: 'multi*', effect: 'read' as const }],
        unknownToolEffect: 'irreversible' as const,
      },
    };
    expect(toolEffect('multiplier', config)).toEqual({
      tool: 'multiplier',
      effect: 'read',
      rule: 'config:multi*',
    });
    expect(toolEffect('multiplier', config, [{ pattern: 'MULTIPLIER', effect: 'write' }]).rule).toBe(
      'sidecar:MULTIPLIER',
    );
    expect(toolEffect('divide', config).effect).toBe('irreversible');
  });

  it('reads <cassette>.tools.json and rejects a broken one with file, path and reason', () => {
    const cassette = path.join(dir, 'rec.json');
    expect(sidecarPath(cassette)).toBe(path.join(dir, 'rec.tools.json'));
    expect(isSidecar('rec.tools.json')).toBe(true);
    expect(loadSidecar(cassette)).toEqual([]);
    writeFileSync(
      sidecarPath(cassette),
      JSON.stringify({ toolEffects: [{ pattern: 'failing_*', effect: 'read' }] }),
    );
    expect(loadSidecar(cassette)).toEqual([{ pattern: 'failing_*', effect: 'read' }]);
    writeFileSync(
      sidecarPath(cassette),
      JSON.stringify({ toolEffects: [{ pattern: 'x', effect: 'delete' }] }),
    );
    expect(() => loadSidecar(cassette)).toThrow(InputError);
    expect(() => loadSidecar(cassette)).toThrow(
      /rec\.tools\.json: \/toolEffects\/0\/effect: effect must be one of read, write, irreversible/,
    );
    writeFileSync(sidecarPath(cassette), '{"tools": []}');
    expect(() => loadSidecar(cassette)).toThrow(/needs a "toolEffects" list/);
  });

  it('a recordings folder never takes a sidecar for a cassette, and loads it beside its cassette', async () => {
    const source = path.join(REAL_DIR, 'crewai-gpt4omini-failing-tool.json');
    writeFileSync(path.join(dir, 'rec.json'), (await import('node:fs')).readFileSync(source));
    writeFileSync(
      path.join(dir, 'rec.tools.json'),
      JSON.stringify({ toolEffects: [{ pattern: 'failing_*', effect: 'read' }] }),
    );
    const loaded = await loadCassettes([dir], dir);
    expect(loaded.map((l) => [path.basename(l.file), l.toolEffects])).toEqual([
      ['rec.json', [{ pattern: 'failing_*', effect: 'read' }]],
    ]);
  });
});
