/**
 * Importing a module the user names by path (a custom scorer, a module adapter). TypeScript
 * files (`.ts`, `.mts`, `.cts`, `.tsx`) go through tsx's `tsImport`, so they load whether the CLI
 * runs from its sources under tsx or from the bundle (`dist/cli.mjs`, where no TypeScript loader
 * is registered for the whole process); anything else through `import()`.
 */
import { pathToFileURL } from 'node:url';

const TYPESCRIPT = /\.(?:[cm]?ts|tsx)$/;
const loaded = new Map<string, Promise<Record<string, unknown>>>();

/**
 * The module at absolute path `file`, imported once per path (later calls share the first
 * import, as `import()` does). Rejects with what the import throws (a missing file, a syntax
 * error, the module's own exception).
 */
export function importUserModule(file: string): Promise<Record<string, unknown>> {
  let module = loaded.get(file);
  if (!module) {
    module = TYPESCRIPT.test(file)
      ? import('tsx/esm/api').then(({ tsImport }) => tsImport(pathToFileURL(file).href, import.meta.url))
      : import(pathToFileURL(file).href);
    loaded.set(file, module);
  }
  return module;
}
