/**
 * The tool registry: tools by name, each schema compiled once with ajv, validation messages
 * written for the model ("query: expected string, got number").
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { HarnessBenchError } from '../errors.ts';
import type { ToolSchema } from '../model/types.ts';
import type { ToolDefinition } from './types.ts';

/** A tool with its compiled validator. */
export interface RegisteredTool {
  definition: ToolDefinition;
  validate: ValidateFunction;
  /** True when the schema declares no required property (an empty argument string means `{}`). */
  noRequired: boolean;
}

/** Raised when two tools share a name or a schema does not compile: a configuration error. */
export class ToolRegistryError extends HarnessBenchError {
  override readonly name = 'ToolRegistryError';
  constructor(message: string) {
    super('TOOL_REGISTRY', 'user_input', message);
  }
}

const sharedAjv = new Ajv({ allErrors: true, strict: false, validateFormats: false, verbose: true });
/** Compiles with the shared instance; a schema whose `$id` is already taken gets an instance of its own. */
function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  try {
    return sharedAjv.compile(schema);
  } catch (error) {
    if (!/already exists/.test((error as Error).message)) throw error;
    return new Ajv({ allErrors: true, strict: false, validateFormats: false, verbose: true }).compile(schema);
  }
}

/** Declared schemas by tool definition (see {@link ToolRegistry.schemas}). */
const declared = new WeakMap<ToolDefinition, ToolSchema>();
function schemaOf(definition: ToolDefinition): ToolSchema {
  let schema = declared.get(definition);
  const fn = schema?.function;
  if (
    !schema ||
    fn!.name !== definition.name ||
    fn!.description !== definition.description ||
    fn!.parameters !== definition.parameters
  ) {
    schema = {
      type: 'function',
      function: {
        name: definition.name,
        description: definition.description,
        parameters: definition.parameters,
      },
    };
    declared.set(definition, schema);
  }
  return schema;
}

/** Compiled validators by schema object: a schema compiles once per process, however many runs use it. */
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Tools by name. Schemas compile once (per schema object, shared across registries), at registration.
 * @throws ToolRegistryError on a duplicate name or a schema ajv cannot compile.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  constructor(definitions: readonly ToolDefinition[] = []) {
    for (const definition of definitions) this.register(definition);
  }

  /** Adds a tool. */
  register(definition: ToolDefinition): void {
    if (this.tools.has(definition.name))
      throw new ToolRegistryError(`two tools are named "${definition.name}"`);
    let validate = compiled.get(definition.parameters);
    if (!validate) {
      try {
        validate = compileSchema(definition.parameters);
      } catch (error) {
        throw new ToolRegistryError(
          `the schema of tool "${definition.name}" does not compile: ${(error as Error).message}`,
        );
      }
      compiled.set(definition.parameters, validate);
    }
    const required = (definition.parameters as { required?: unknown }).required;
    this.tools.set(definition.name, {
      definition,
      validate,
      noRequired: !Array.isArray(required) || required.length === 0,
    });
  }

  /** The tool of that exact name, or undefined (names are never guessed). */
  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  /** Names in registration order. */
  names(): string[] {
    return [...this.tools.keys()];
  }

  /**
   * Schemas as declared to the model: one object per tool definition, the same for every
   * registry and run (so its token count is taken once). Treat them as read-only.
   */
  schemas(): ToolSchema[] {
    return [...this.tools.values()].map(({ definition }) => schemaOf(definition));
  }

  /** A new registry holding only the tools `keep` accepts (compiled validators are reused). */
  filter(keep: (definition: ToolDefinition) => boolean): ToolRegistry {
    const out = new ToolRegistry();
    for (const [name, tool] of this.tools) if (keep(tool.definition)) out.tools.set(name, tool);
    return out;
  }

  /**
   * The closest real tool name to a wrong one (case, separators, a namespace prefix such as
   * `functions.`, or an edit distance of at most 2), for a "did you mean" hint.
   */
  suggest(name: string): string | undefined {
    const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
    const tail = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
    let best: { name: string; distance: number } | undefined;
    for (const candidate of this.tools.keys()) {
      if (squash(candidate) === squash(name) || candidate === tail) return candidate;
      const distance = editDistance(squash(candidate), squash(tail));
      if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance };
    }
    return best?.name;
  }
}

/** Describes ajv errors for the model: `field: reason`, one per line of the joined text. */
export function describeValidationErrors(errors: readonly ErrorObject[] | null | undefined): string {
  const lines = (errors ?? []).map((error) => {
    const field = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : '';
    const params = error.params as Record<string, unknown>;
    let reason: string;
    switch (error.keyword) {
      case 'required':
        reason = `required property '${String(params.missingProperty)}' is missing`;
        break;
      case 'type':
        reason = `expected ${String(params.type)}, got ${typeName((error as { data?: unknown }).data)}`;
        break;
      case 'additionalProperties':
        reason = `unknown property '${String(params.additionalProperty)}'`;
        break;
      case 'enum':
        reason = `must be one of ${JSON.stringify(params.allowedValues)}`;
        break;
      default:
        reason = error.message ?? error.keyword;
    }
    return field ? `${field}: ${reason}` : reason;
  });
  return [...new Set(lines)].join('; ');
}

/** The JSON type name of a value: `null`, `array`, `number`, `string`, `object`, `boolean`. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
