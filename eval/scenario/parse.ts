/**
 * Parses one scenario file's text, JSON or YAML, into a value and a locator that maps a JSON
 * pointer to its line and column in the source (for the problems `validate.ts` finds).
 */
import { LineCounter, parseDocument, type Document } from 'yaml';
import { jsonSyntaxProblem, type InputProblem } from '../errors.ts';
import { pointerSegments } from './json-pointer.ts';

/** Maps a JSON pointer to `line N, column M` in the source, when known. */
export type Locator = (pointer: string) => string | undefined;

/** The result of parsing one file's text. */
export type ParseResult =
  | { ok: true; value: unknown; locate: Locator }
  | { ok: false; problems: InputProblem[] };

/**
 * Parses JSON (a name ending in `.json`) or YAML (anything else). Parse errors carry line and
 * column. Duplicate keys are an error in YAML; in JSON the last one wins, as `JSON.parse` does.
 */
export function parseScenarioText(text: string, file: string): ParseResult {
  const source = text.replace(/^\uFEFF/, '');
  if (file.endsWith('.json')) {
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch {
      return { ok: false, problems: [jsonSyntaxProblem(source, file)] };
    }
    // Locations are only needed to report a problem: parse the text as YAML then, not for every
    // file (a YAML document per file was most of the memory of loading a 10,000-case suite).
    let located: Locator | undefined;
    const locate: Locator = (pointer) => {
      if (!located) {
        const { doc, counter } = yamlDocument(source);
        located = doc.errors.length === 0 ? locator(doc, counter) : () => undefined;
      }
      return located(pointer);
    };
    return { ok: true, value, locate };
  }
  const { doc, counter } = yamlDocument(source);
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((error) => {
        const at = error.linePos?.[0];
        const firstLine = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
        return {
          file,
          path: '',
          reason: `YAML syntax error${at ? ` at line ${at.line}, column ${at.col}` : ''}: ${firstLine}`,
        };
      }),
    };
  }
  return { ok: true, value: doc.toJS({ maxAliasCount: 1000 }) as unknown, locate: locator(doc, counter) };
}

function yamlDocument(source: string): { doc: Document; counter: LineCounter } {
  const counter = new LineCounter();
  const doc = parseDocument(source, { lineCounter: counter, prettyErrors: true, uniqueKeys: true });
  return { doc, counter };
}

function locator(doc: Document, counter: LineCounter): Locator {
  return (pointer) => {
    const segments = pointerSegments(pointer).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    const node = doc.getIn(segments, true) as { range?: [number, number, number] } | undefined;
    const offset = node?.range?.[0];
    if (offset === undefined) return undefined;
    const pos = counter.linePos(offset);
    return `line ${pos.line}, column ${pos.col}`;
  };
}
