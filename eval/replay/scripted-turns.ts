/**
 * The scripted turns of a counterfactual hand-over (`replay --match counterfactual --then FILE`):
 * a JSON or YAML array of turns in the scenario `model` format (`ScriptedTurn`,
 * `docs/scenario-format.md` "Model turns"), or a scenario-like object with such a `model` array.
 * Checked against the scenario schema's own turn definition, so `--then` accepts exactly what a
 * scenario's `model` accepts, with the same readable messages (unknown keys say "did you mean").
 */
import type { ValidateFunction } from 'ajv';
import { parseDocument } from 'yaml';
import type { ScriptedTurn } from '../../harness/model/scripted-model.ts';
import { InputError, parseJsonInput, readInputText, type InputProblem } from '../errors.ts';
import { describeSchemaErrors } from '../scenario/schema-errors.ts';
import { SCENARIO_SCHEMA } from '../scenario/schema.ts';
import { compileScenarioSchema } from '../scenario/validate.ts';

let validator: ValidateFunction | undefined;

/** `{ model: [turn, …] }` against the scenario schema's `model` (compiled once per process). */
function modelValidator(): ValidateFunction {
  validator ??= compileScenarioSchema({
    type: 'object',
    required: ['model'],
    properties: { model: SCENARIO_SCHEMA.properties.model },
    definitions: SCENARIO_SCHEMA.definitions,
  });
  return validator;
}

/**
 * The problems of a list of scripted turns, as JSON paths under `prefix` (`''` for a file that
 * is the array, `'/model'` for a scenario-like file): empty when every turn has the shape of
 * `ScriptedTurn`.
 */
export function scriptedTurnProblems(turns: unknown, file: string, prefix = ''): InputProblem[] {
  const validate = modelValidator();
  const data = { model: turns };
  if (validate(data)) return [];
  return describeSchemaErrors(validate.errors ?? [], data).map(({ path, reason }) => {
    const rest = path.replace(/^\/model/, '');
    return { file, path: `${prefix}${rest}` || '/', reason };
  });
}

/**
 * Reads and checks the scripted turns of `file` (see the file comment); `shown` names it in
 * messages (default: `file`).
 * @throws InputError naming the file, the JSON path and the reason when the file is unreadable,
 *   not JSON or YAML, holds no non-empty list of turns, or a turn is not a `ScriptedTurn`.
 */
export function loadScriptedTurns(file: string, shown: string = file): ScriptedTurn[] {
  const text = readInputText(file, shown, 'the scripted turns');
  let value: unknown;
  if (/\.ya?ml$/i.test(file)) {
    const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
    if (doc.errors.length > 0)
      throw new InputError(
        doc.errors.map((e) => ({
          file: shown,
          path: '',
          reason: `YAML syntax error: ${e.message.split('\n')[0]}`,
        })),
      );
    value = doc.toJS() as unknown;
  } else value = parseJsonInput(text, shown);
  const inModel = !Array.isArray(value) && typeof value === 'object' && value !== null && 'model' in value;
  const turns = inModel ? (value as { model: unknown }).model : value;
  if (!Array.isArray(turns) || turns.length === 0)
    throw new InputError([
      {
        file: shown,
        path: inModel ? '/model' : '',
        reason: 'must be a non-empty array of scripted turns, or a scenario with a "model" array',
      },
    ]);
  const problems = scriptedTurnProblems(turns, shown, inModel ? '/model' : '');
  if (problems.length > 0) throw new InputError(problems);
  return turns as ScriptedTurn[];
}
