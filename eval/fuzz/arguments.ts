/**
 * Generators of tool-call arguments as models really send them: valid, broken in every way JSON
 * breaks (truncated anywhere, missing or extra punctuation, single quotes, comments, Python
 * literals, raw control characters, bad escapes, concatenated values, fences and tags around the
 * object), valid JSON that breaks the schema (wrong types, missing or extra keys, deep nesting),
 * double-encoded, arrays, `null`, scalars, and non-string values (an object sent as an object).
 * Sources of the shapes: handed cases A01–A05 (openai-agents-js#723, #664, qwen-code#288,
 * openai-node#596, llama.cpp#20198) and the real recordings.
 */
import fc from 'fast-check';

/** Text with the characters that break naive code: multi-byte UTF-8, astral (surrogate pairs), controls. */
export const trickyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('alpha', 'hello world', 'x', '', 'line1\nline2') },
  fc.constantFrom(
    'é',
    'naïve café',
    '日本語テキスト',
    '😀',
    '👩‍💻 done',
    '𝒳𝒴',
    'a\u0000b',
    '\u2028\u2029',
    'tab\there',
  ),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);

/** A relative path, or one that tries to leave the workspace, or an alias of another. */
export const pathArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a.txt', 'b.txt', 'src/main.ts', 'new.txt', 'sub/new.txt') },
  { weight: 2, arbitrary: fc.constantFrom('./a.txt', 'sub/../a.txt', 'link.txt', 'A.TXT', 'a.txt/') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'notes.md',
      'draft.txt',
      'self.txt',
      'sub-link/new.txt',
      'out/new.txt',
      '.harness-bench/spill',
    ),
  },
  fc.constantFrom('../escape.txt', '/etc/passwd', 'out/victim.txt', '.git/hooks/pre-commit', '~/x', ''),
  fc.constantFrom('.', 'missing.txt', 'dir with space/f.txt', 'ü.txt'),
);

/** Argument objects that fit one of the file tools or the fake tools. */
export const validArgs: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ path: pathArb }),
  fc.record({ path: pathArb, content: trickyText }),
  fc.record({ path: pathArb, old_str: fc.constantFrom('alpha', 'zzz', ''), new_str: trickyText }),
  fc.record({ query: trickyText }),
  fc.record({ target: fc.constantFrom('prod', 'staging') }),
  fc.constant({}),
);

/** Arguments that fit `name`'s schema (the file tools and the fake tools of `case.ts`). */
export function argsFor(name: string): fc.Arbitrary<Record<string, unknown>> {
  switch (name) {
    case 'read_file':
      return fc.oneof(
        fc.record({ path: pathArb }),
        fc.record({
          path: pathArb,
          offset: fc.integer({ min: 1, max: 3 }),
          limit: fc.integer({ min: 1, max: 5 }),
        }),
      );
    case 'list_dir':
      return fc.record({
        path: fc.constantFrom(
          '.',
          'src',
          'sub',
          'out',
          '..',
          'missing',
          'sub-link',
          'self.txt',
          '.harness-bench/spill',
        ),
      });
    case 'write_file':
      return fc.record({ path: pathArb, content: trickyText });
    case 'str_replace':
      return fc.record({
        path: pathArb,
        old_str: fc.constantFrom('alpha', 'beta', 'zzz', ''),
        new_str: trickyText,
      });
    case 'search':
      return fc.record({ query: trickyText });
    case 'deploy':
      return fc.record({ target: fc.constantFrom('prod', 'staging') });
    default:
      return fc.oneof(fc.constant({}), fc.record({ path: pathArb }));
  }
}

/** Every way a JSON object's text breaks, applied to `text` (a valid JSON object text). */
export function breakJson(text: string, how: number, at: number): string {
  const n = text.length;
  const cut = n === 0 ? 0 : at % n;
  const variants: (() => string)[] = [
    () => text.slice(0, Math.max(1, cut)), // truncated anywhere (not empty)
    () => text.slice(0, -1), // missing closing brace
    () => text.slice(1), // missing opening brace
    () => `${text}}`, // extra closing brace
    () => text.replace(':', ' '), // missing colon
    () => text.replace(',', ' '), // missing comma
    () => text.replace(/}$/, ',}'), // trailing comma
    () => text.replaceAll('"', "'"), // single quotes
    () => text.replace(/"([A-Za-z_]+)":/g, '$1:'), // unquoted keys
    () => `${text.slice(0, -1)} // comment\n}`, // comment
    () => `/* c */${text}`,
    () => text.replace(/}$/, ', "flag": True}'), // Python literals
    () => text.replace(/}$/, ', "n": NaN}'),
    () => text.replace(/}$/, ', "n": undefined}'),
    () => text.replace(/"([^"]*)"/, '"$1\nraw"'), // raw control character inside a string
    () => text.replace(/"([^"]*)"/, '"$1\\x41"'), // invalid escape
    () => text.replace(/"([^"]*)"/, '"$1\\u12"'), // short unicode escape
    () => `${text.slice(0, -1)}\\`, // lone backslash at the end
    () => `${text}${text}`, // two objects back to back
    () => `${text}\n\nNow I will read it.`, // prose after the object
    () => `\`\`\`json\n${text}\n\`\`\``, // markdown fence
    () => `<tool_call>${text}</tool_call>`, // tag around the object
    () => `\uFEFF${text}`, // byte-order mark
    () => text.replace(/}$/, ', "n": 01}'), // leading zero
    () => text.replace(/}$/, ', "n": 0x10}'), // hex
    () => text.replace(/}$/, ', "n": .5}'),
    () => `{"a":${'['.repeat(64)}`, // unclosed nesting
    () => text.replace('{', '{{'),
    () => text.replaceAll('"', '\\"'), // escaped once too often, without the outer quotes
  ];
  return variants[how % variants.length]!();
}

/** Valid JSON objects that break a tool's schema. */
const schemaInvalid: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ path: fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.constant(['a.txt'])) }),
  fc.record({
    path: pathArb,
    content: fc.oneof(fc.integer(), fc.constant(null), fc.constant({ text: 'x' })),
  }),
  fc.record({ path: pathArb, extra: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ file_path: pathArb }),
  fc.record({ Path: pathArb }),
  fc.record({ query: fc.constant({ nested: true }) }),
  fc.record({ path: pathArb, offset: fc.constantFrom(-1, 1.5, 1e308, '3') }),
  fc.constant(JSON.parse('{"path": "a.txt", "__proto__": {"polluted": true}}') as Record<string, unknown>),
  fc.constant(JSON.parse('{"__proto__": {"path": "a.txt"}, "constructor": 1}') as Record<string, unknown>),
  fc.constant(JSON.parse('{"path": "a.txt", "path": "b.txt"}') as Record<string, unknown>),
  fc.integer({ min: 200, max: 1500 }).map((depth) => ({ path: 'a.txt', deep: nested(depth) })),
);

/** Nesting too deep for recursive code (as text only: `structuredClone` and `JSON.stringify` overflow at ~5,000 levels). */
const deepText = fc
  .integer({ min: 2_000, max: 20_000 })
  .map((depth) => `{"path":"a.txt","deep":${'['.repeat(depth)}0${']'.repeat(depth)}}`);

function nested(depth: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
}

/** Oversized but otherwise valid arguments (a long content or query). */
export const oversizedArgs: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    size: fc.integer({ min: 3_000, max: 30_000 }),
    unit: fc.constantFrom('x', 'é', '😀', 'line\n', '日本'),
    path: pathArb,
  })
  .map(({ size, unit, path }) => ({ path, content: unit.repeat(Math.ceil(size / unit.length)) }));

/** Any raw `arguments` value: a string (valid, broken, encoded), or a non-string JSON value. */
export const argumentsArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: validArgs.map((a) => JSON.stringify(a)) },
  { weight: 2, arbitrary: validArgs },
  {
    weight: 6,
    arbitrary: fc
      .tuple(validArgs, fc.nat(), fc.nat())
      .map(([a, how, at]) => breakJson(JSON.stringify(a), how, at)),
  },
  { weight: 2, arbitrary: schemaInvalid.map((a) => JSON.stringify(a)) },
  { weight: 1, arbitrary: schemaInvalid },
  { weight: 2, arbitrary: validArgs.map((a) => JSON.stringify(JSON.stringify(a))) },
  { weight: 1, arbitrary: validArgs.map((a) => JSON.stringify(JSON.stringify(JSON.stringify(a)))) },
  { weight: 1, arbitrary: validArgs.map((a) => JSON.stringify([a])) },
  { weight: 1, arbitrary: validArgs.map((a) => [a]) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\n',
      'null',
      '[]',
      '{}',
      '0',
      'true',
      '"{}"',
      '"',
      '{',
      '}',
      'undefined',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, 7, true, false, [], 0, -1.5) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: oversizedArgs.map((a) => JSON.stringify(a)) },
  { weight: 1, arbitrary: deepText },
);

/** The same object with its keys in another order (as text): identical for loop detection. */
export function shuffledKeys(args: Record<string, unknown>, seed: number): string {
  const keys = Object.keys(args);
  for (let i = keys.length - 1; i > 0; i -= 1) {
    const j = (seed + i * 7) % (i + 1);
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  const spacing = seed % 2 === 0 ? undefined : 2;
  return JSON.stringify(Object.fromEntries(keys.map((k) => [k, args[k]])), null, spacing);
}
