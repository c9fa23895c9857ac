/**
 * Ajv's errors on a scenario rewritten for a person (`validate.ts`, and the expectation blocks of
 * cassettes in `eval/expect/cassette.ts`): unknown keys point at the key with a did-you-mean,
 * enums list their values, `if`/`anyOf`/`oneOf` noise is folded into one sentence.
 */
import type { ErrorObject } from 'ajv';
import { knownKeysAt, unknownKeyReason } from '../did-you-mean.ts';
import { REQUIREMENT_NAMES } from '../requirements.ts';
import { foldTypedAnyOf } from './any-of-errors.ts';
import { pointerChild, valueAt } from './json-pointer.ts';
import { SCENARIO_SCHEMA } from './schema.ts';

const CONTENT_FORMS =
  'a string, {"$gen": "repeat", "text", "count"} or {"$gen": "lines", "count", "pattern"}';

/**
 * Turns ajv errors into `{path, reason}` written for a person: unknown keys point at the key,
 * enums list their values, `if`/`anyOf`/`oneOf` noise is folded into one sentence.
 */
export function describeSchemaErrors(
  errors: readonly ErrorObject[],
  data: unknown,
): { path: string; reason: string }[] {
  const out: { path: string; reason: string }[] = [];
  for (const error of foldTypedAnyOf(errors, data, (at) => at.startsWith('#/definitions/content'))) {
    const path = error.instancePath || '/';
    const params = error.params as Record<string, unknown>;
    const schemaPath = error.schemaPath;
    const content = /^#\/definitions\/content\/anyOf(?:\/(\d+))?/.exec(schemaPath);
    if (content) {
      const chosen = contentBranch(
        valueAt(data, error.keyword === 'anyOf' ? path : contentRoot(path, errors)),
      );
      if (error.keyword === 'anyOf') {
        if (chosen === undefined) out.push({ path, reason: `must be ${CONTENT_FORMS}` });
      } else if (chosen !== undefined && content[1] === String(chosen))
        out.push(basic(error, path, params, data));
      continue;
    }
    if (error.keyword === 'if') continue;
    if (schemaPath.startsWith('#/definitions/fakeTool/properties/results/items/oneOf')) {
      if (error.keyword !== 'oneOf') continue;
      const both = Array.isArray(params.passingSchemas);
      out.push({
        path,
        reason: both
          ? 'give either "output" or "error", not both'
          : 'needs "output" (the tool succeeds) or "error" (it fails)',
      });
      continue;
    }
    if (schemaPath.startsWith('#/definitions/evidence/')) {
      if (schemaPath.includes('/else/anyOf/')) continue;
      if (schemaPath.endsWith('/else/anyOf')) {
        out.push({ path, reason: 'a file check needs "exists", "contains" or "equals"' });
        continue;
      }
      if (schemaPath.includes('/then/not')) {
        out.push({ path, reason: 'a command check takes only "command" and "exitCode"' });
        continue;
      }
      if (schemaPath.includes('/else/not')) {
        out.push({ path, reason: '"exitCode" needs a "command"' });
        continue;
      }
      if (schemaPath.includes('/else/required')) {
        out.push({
          path,
          reason: 'needs "file" (with exists, contains or equals) or "command" (with exitCode)',
        });
        continue;
      }
    }
    if (schemaPath === '#/properties/requires/items/pattern') {
      out.push({
        path,
        reason: `unknown prerequisite ${JSON.stringify(valueAt(data, path))}; known: ${REQUIREMENT_NAMES.join(', ')}, or command:NAME`,
      });
      continue;
    }
    out.push(basic(error, path, params, data));
  }
  return out;
}

function contentRoot(path: string, errors: readonly ErrorObject[]): string {
  const root = errors.find(
    (e) =>
      e.keyword === 'anyOf' &&
      e.schemaPath.startsWith('#/definitions/content') &&
      (path === e.instancePath || path.startsWith(`${e.instancePath}/`)),
  );
  return root?.instancePath ?? path;
}

function contentBranch(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const gen = (value as { $gen?: unknown }).$gen;
  return gen === 'repeat' ? 1 : gen === 'lines' ? 2 : undefined;
}

function basic(
  error: ErrorObject,
  path: string,
  params: Record<string, unknown>,
  data: unknown,
): { path: string; reason: string } {
  switch (error.keyword) {
    case 'type': {
      const value = valueAt(data, path);
      const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
      return { path, reason: `must be ${String(params.type).split(',').join(' or ')}, got ${got}` };
    }
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      return {
        path: pointerChild(path, key),
        reason: unknownKeyReason(key, knownKeysAt(SCENARIO_SCHEMA, error.instancePath)),
      };
    }
    case 'enum':
      return {
        path,
        reason: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'const':
      return { path, reason: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'required':
      return { path, reason: `missing required key "${String(params.missingProperty)}"` };
    default:
      return { path, reason: error.message ?? error.keyword };
  }
}
