import { readFileSync } from 'node:fs';
import { stringify as toYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import { KNOWN_FORMATS, detectRecording } from './detect.ts';
import { REAL_SOURCES_DIR } from './import-real.ts';

const source = (name: string) => readFileSync(`${REAL_SOURCES_DIR}${name}`, 'utf8');
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

function reason(text: string, file = 'x'): string {
  try {
    detectRecording(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems[0]!.reason;
  }
  throw new Error('expected detection to fail');
}

describe('detectRecording: by content, whatever the file is called', () => {
  it('calls a Polly.JS HAR a HAR, also named .txt, and also written as YAML', () => {
    const har = source('mirascope-gpt5mini-resume-two-turns.har');
    expect(detectRecording(har, 'recording.txt').format).toBe('har');
    expect(detectRecording(toYaml(JSON.parse(har)), 'recording.har.yaml').format).toBe('har');
    const wrapped = JSON.stringify({ 'Polly-local-storage_1': JSON.parse(har) });
    expect(detectRecording(wrapped, 'local.json').format).toBe('har');
  });

  it('tells the VCR dialects apart', () => {
    expect(detectRecording(source('rubyllm-ollama-qwen3-placeholder-tool-loop.yml'), 'a').format).toBe(
      'ruby-vcr-yaml',
    );
    expect(detectRecording(source('crewai-gpt4o-gzip-telemetry-converter.yaml'), 'b').format).toBe(
      'vcr-yaml',
    );
    expect(detectRecording(source('openai-gpt5mini-tool-auto-loop.yaml'), 'c').format).toBe(
      'vcr-yaml-parsed-body',
    );
  });

  it('tells the response-only logs apart, a one-line chunk log included', () => {
    const chunks = source('vercel-groq-llama33-tool-call.chunks.txt');
    expect(detectRecording(chunks, 'a.json').format).toBe('chunk-log');
    expect(detectRecording(chunks.split('\n')[0]!, 'one.json').format).toBe('chunk-log');
    expect(detectRecording(source('vercel-anthropic-compat-sparse-index.sse'), 'b.json').format).toBe('sse');
  });

  it('names what it saw and the formats it knows for an unknown file', () => {
    const yamlMap = reason('messages:\n- role: user\n  content: hi\n');
    expect(yamlMap).toContain('unknown recording format: a YAML mapping with key "messages"');
    expect(yamlMap).toContain(KNOWN_FORMATS);
    expect(reason('{"choices_": 1, "object": "chat.completion"}')).toContain(
      'a JSON object with keys "choices_", "object"',
    );
    expect(reason('[{"url": "https://x"}]')).toContain('a JSON list of 1 item (the first has key "url")');
    expect(reason('{"log": {"version": "1.2"}}')).toContain('"log" (key "version") but no "log.entries"');
    expect(reason('# Real recordings\n\nSome: [text\n')).toContain('neither JSON nor YAML');
    // Why it is neither: the parser's own position, JSON for a file that opens like JSON.
    expect(reason('# Real recordings\n\nSome: [text\n')).toMatch(
      /YAML that does not parse \(.*line \d+, column \d+/,
    );
    expect(reason('{"a": [1, 2')).toMatch(/JSON that does not parse \(.*position \d+/);
    expect(reason('just some words')).toContain('text starting with "just some words"');
    expect(reason('  \n\n')).toBe('empty recording');
  });

  it('says a VCR file that does not parse is a recording with a YAML error, and where', () => {
    const lines = source('crewai-gpt4o-hierarchical-manager-workers.yaml').split('\n');
    const cut = lines.findIndex((line) => /^\s+body: '/.test(line));
    const broken = [...lines.slice(0, cut + 1), '    headers: {}'].join('\n');
    expect(reason(broken)).toMatch(/^a recording by its "interactions:" key, but not valid YAML: .*line \d+/);
  });

  it('says a harness-bench cassette needs no import', () => {
    const cassette = readFileSync(
      new URL('../../recordings/real/rubyopenai-groq-llama3-stream.json', import.meta.url),
      'utf8',
    );
    expect(reason(cassette)).toMatch(/already a harness-bench cassette .*run or replay it directly/);
  });

  it('detects the refusal fixtures as what they are (format first, traffic second)', () => {
    expect(detectRecording(fixture('openllmetryjs-anthropic-messages.har'), 'a').format).toBe('har');
    expect(detectRecording(fixture('openinference-ollama-native-chat.yaml'), 'b').format).toBe('vcr-yaml');
  });
});
