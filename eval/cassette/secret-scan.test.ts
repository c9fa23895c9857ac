import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scanForSecrets } from './secret-scan.ts';

const REAL = fileURLToPath(new URL('../../recordings/real/', import.meta.url));

describe('scanForSecrets', () => {
  it('finds an OpenAI project key shape and masks it', () => {
    const key = `sk-proj-${'Ab3_x-'.repeat(8)}`;
    const findings = scanForSecrets({
      exchanges: [{ request: { body: { messages: [{ role: 'user', content: `my key is ${key}` }] } } }],
    });
    expect(findings).toEqual([
      {
        path: '/exchanges/0/request/body/messages/0/content',
        kind: 'api-key',
        excerpt: `sk-proj-…(${key.length} chars)`,
      },
    ]);
    expect(JSON.stringify(findings)).not.toContain(key);
  });

  it('finds the other key shapes: sk-, gsk_, xai-, AIza, Bearer', () => {
    const text = [
      `sk-${'a'.repeat(24)}`,
      `gsk_${'b'.repeat(30)}`,
      `xai-${'c'.repeat(40)}`,
      `AIza${'d'.repeat(35)}`,
      'Authorization: Bearer abcdefghijklmnopqrstuvwxyz',
    ].join(' ');
    expect(scanForSecrets({ t: text }).map((f) => f.kind)).toEqual([
      'api-key',
      'api-key',
      'api-key',
      'google-api-key',
      'bearer-token',
    ]);
  });

  it('finds the credentials tool results carry: code hosts, clouds, chat, registries, private keys', () => {
    const shapes = [
      `ghp_${'A1b2'.repeat(9)}`,
      `github_pat_${'x'.repeat(22)}_${'Y'.repeat(59)}`,
      `glpat-${'z'.repeat(20)}`,
      'AKIAIOSFODNN7EXAMPLE',
      `xoxb-${'1'.repeat(12)}-${'a'.repeat(24)}`,
      `hf_${'q'.repeat(34)}`,
      `sk_live_${'4'.repeat(24)}`,
      `npm_${'n'.repeat(36)}`,
      '-----BEGIN OPENSSH PRIVATE KEY-----',
    ];
    for (const shape of shapes)
      expect(
        scanForSecrets({ t: `value: ${shape}\n` }).map((f) => f.kind),
        shape,
      ).toEqual([shape.startsWith('-----') ? 'private-key' : 'access-token']);
    // Look-alikes that are too short or have no such prefix.
    expect(scanForSecrets({ a: 'ghp_short', b: 'AKIA123', c: 'hf_abc', d: 'npm_install' })).toEqual([]);
  });

  it('ignores short look-alikes and ordinary ids', () => {
    expect(
      scanForSecrets({
        a: 'sk-short',
        b: 'call_ZR5UUuTt3pf61kjwAJIYdVMj',
        c: 'chatcmpl-Dx0XpqH8w09uBXwq1zFGYdETjtnEl',
        d: 'task-sk-',
      }),
    ).toEqual([]);
  });

  it('flags e-mail addresses in headers only', () => {
    const findings = scanForSecrets({
      response: { headers: { 'x-contact': 'ops@example.com' }, body: 'write to jo@example.org' },
    });
    expect(findings).toEqual([
      { path: '/response/headers/x-contact', kind: 'email-in-header', excerpt: 'ops@exam…(15 chars)' },
    ]);
  });

  it('escapes JSON pointer segments', () => {
    expect(scanForSecrets({ 'a/b~c': `sk-${'z'.repeat(30)}` })[0]!.path).toBe('/a~1b~0c');
  });

  it('finds nothing in the committed real recordings', () => {
    for (const file of readdirSync(REAL).filter((f) => f.endsWith('.json')))
      expect(scanForSecrets(JSON.parse(readFileSync(join(REAL, file), 'utf8'))), file).toEqual([]);
  });
});
