import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Content, bodyText, contentEncodings, decodeContent, headerLists } from './body.ts';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('Content-Encoding decoding (vcrpy decode_response, plus every listed coding)', () => {
  it('round-trips gzip, deflate (zlib and raw), br and stacked codings for any body', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (body) => {
        expect(decodeContent(gzipSync(body), ['gzip']).bytes).toEqual(Buffer.from(body));
        expect(decodeContent(deflateSync(body), ['deflate']).bytes).toEqual(Buffer.from(body));
        expect(decodeContent(deflateRawSync(body), ['deflate']).bytes).toEqual(Buffer.from(body));
        expect(decodeContent(brotliCompressSync(body), ['br']).bytes).toEqual(Buffer.from(body));
        const stacked = brotliCompressSync(gzipSync(body));
        expect(decodeContent(stacked, ['gzip', 'br'])).toMatchObject({ decoded: ['br', 'gzip'], kept: [] });
      }),
    );
  });

  it('keeps a body that was stored already decoded under a compressing header', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (plain) => {
        fc.pre(!plain.startsWith('\u001f\u008b'));
        const bytes = Buffer.from(`{"text":${JSON.stringify(plain)}}`);
        for (const coding of ['gzip', 'br']) {
          const result = decodeContent(bytes, [coding]);
          expect(result.bytes).toEqual(bytes);
          expect(result.kept).toEqual([coding]);
        }
      }),
    );
  });

  it('leaves unknown codings and identity alone', () => {
    expect(contentEncodings({ 'content-encoding': ['identity', 'gzip, zstd'] })).toEqual(['gzip', 'zstd']);
    expect(decodeContent(Buffer.from('x'), ['zstd'])).toMatchObject({ decoded: [], kept: ['zstd'] });
  });

  it('reads every header shape importers meet', () => {
    expect(headerLists({ 'Content-Encoding': ['gzip'], X: 'y' })).toEqual({
      'content-encoding': ['gzip'],
      x: ['y'],
    });
    expect(headerLists(['Content-Type', 'a', 'content-type', 'b'])).toEqual({ 'content-type': ['a', 'b'] });
    expect(headerLists([{ name: 'Content-Encoding', value: 'br' }])).toEqual({ 'content-encoding': ['br'] });
    expect(headerLists('nonsense')).toEqual({});
  });

  it('reads Polly.JS base64 chunk arrays and plain base64', () => {
    const gz = gzipSync(Buffer.from('{"ok":true}'));
    const chunks = JSON.stringify([gz.subarray(0, 7).toString('base64'), gz.subarray(7).toString('base64')]);
    expect(text(decodeContent(base64Content(chunks), ['gzip']).bytes)).toBe('{"ok":true}');
    expect(text(base64Content(Buffer.from('hi').toString('base64')))).toBe('hi');
    expect(bodyText(gz, { 'content-encoding': ['gzip'] })).toBe('{"ok":true}');
    expect(bodyText(null, {})).toBeNull();
  });
});
