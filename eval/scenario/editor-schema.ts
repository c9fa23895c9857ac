/**
 * The scenario schema as editors see it (`scenarios/schema/scenario.schema.json`): the loader's
 * schema (`./schema.ts`) with `null` allowed at every key of an `expectFor` block, because a
 * `null` there removes what `expect` says (`./check.ts` expectationsFor). The loader takes the
 * `null`s out before its own schema check and reports each that removes nothing
 * (`eval/expect/validate.ts` withoutRemovals), so this variant is never used to load.
 */
import { SCENARIO_SCHEMA } from './schema.ts';

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `schema` with `null` accepted for each of its properties (and the values of its maps, and in each `anyOf` alternative), at any depth. */
export function removable(schema: Schema): Schema {
  const orNull = (s: unknown): Schema => ({ anyOf: [isSchema(s) ? removable(s) : s, { type: 'null' }] });
  const out: Schema = { ...schema };
  if (isSchema(schema.properties))
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, orNull(v)]));
  if (isSchema(schema.additionalProperties)) out.additionalProperties = orNull(schema.additionalProperties);
  if (Array.isArray(schema.anyOf)) out.anyOf = schema.anyOf.map((s) => (isSchema(s) ? removable(s) : s));
  return out;
}

const definitions = SCENARIO_SCHEMA.definitions as unknown as Schema;

/** The scenario schema for editors: `expectFor` blocks refer to `expectationsOverride`. */
export const EDITOR_SCENARIO_SCHEMA = {
  ...SCENARIO_SCHEMA,
  properties: {
    ...SCENARIO_SCHEMA.properties,
    expectFor: {
      ...SCENARIO_SCHEMA.properties.expectFor,
      additionalProperties: { $ref: '#/definitions/expectationsOverride' },
    },
  },
  definitions: {
    ...SCENARIO_SCHEMA.definitions,
    expectationsOverride: removable(definitions.expectations as Schema),
  },
};
