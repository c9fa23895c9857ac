import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig } from '../../harness/config.ts';
import { SessionRecorder } from './session-recorder.ts';

const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-session-sandbox-')));
const session = (kind: 'auto' | 'none' | 'bwrap') =>
  new SessionRecorder({
    baseURL: 'http://127.0.0.1:9/v1',
    apiKey: 'k',
    model: 'm',
    config: mergeConfig(DEFAULT_CONFIG, { sandbox: { kind } }),
    workspace,
  });

describe('SessionRecorder sandbox', () => {
  it('uses the sandbox the configuration asks for (record and chat run bash boxed, never unboxed by default)', () => {
    expect(session('bwrap').sandbox.kind).toBe('bwrap');
    expect(session('none').sandbox.kind).toBe('none');
    if (process.platform === 'linux') expect(session('auto').sandbox.kind).toBe('bwrap');
  });
});
