/**
 * The bash parser: web-tree-sitter with the tree-sitter-bash grammar, whose wasm ships inside
 * the `tree-sitter-bash` package (resolved with `createRequire(import.meta.url)`, so it works
 * from any working directory and inside `node_modules`). Loading is asynchronous and happens
 * once per process; parsing afterwards is synchronous.
 */
import { createRequire } from 'node:module';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

export type { Node as ShellNode, Tree as ShellTree };

let loading: Promise<Parser> | undefined;
let ready: Parser | undefined;

/**
 * Loads the parser (once; later calls return the same promise).
 * @throws when the wasm files cannot be read (a broken installation).
 */
export function loadShellParser(): Promise<Parser> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    await Parser.init();
    const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    ready = parser;
    return parser;
  })();
  return loading;
}

/** True once {@link loadShellParser} has finished, so {@link parseShell} can run synchronously. */
export function shellParserReady(): boolean {
  return ready !== undefined;
}

/**
 * Parses a bash script. The caller must `delete()` the tree when done (wasm memory).
 * @throws Error when the parser is not loaded yet (await {@link loadShellParser} first) or the
 *   parser gives up (it returns no tree only when cancelled, which we never do).
 */
export function parseShell(script: string): Tree {
  if (!ready) throw new Error('the shell parser is not loaded: await loadShellParser() first');
  const tree = ready.parse(script);
  if (!tree) throw new Error('tree-sitter-bash returned no tree');
  return tree;
}
