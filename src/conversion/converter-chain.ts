import type { KindDefinition } from "./kind";
import type { Route, Step } from "./routes";
import { ConversionFailure } from "./conversion-failure";
import { isPending, readConvertedMaps, readResult, settle } from "./converter-result";
import { converterErrorText, inStep } from "./failure-messages";
import type { JsonObject } from "../json";
import { schemaIssue } from "./validate";
import { refuse } from "./refusal";
import { ResultBudget, type ResultLimits } from "./result-budget";

/**
 * Runs the converters of a route from step `first` on, each on the previous one's result, and
 * returns the last: each result read into crdshift's own copy (converter-result.ts) and checked
 * to be an object of its version's schema. Synchronous until a converter returns a promise,
 * the rest of the chain then continues after it: most converters are synchronous, and a promise
 * per object would cost more than one of them. Throws (or rejects with) a ConversionFailure.
 *
 * `held`: the values of the input's `__proto__` fields, put back where a converter lost them to
 * the prototype setter (json/proto-keys.ts); undefined when the input has none.
 */
export function runChain(
  definition: KindDefinition,
  steps: Route,
  first: number,
  input: unknown,
  held: Set<object> | undefined,
  limits: ResultLimits,
): JsonObject | Promise<JsonObject> {
  let current = input;
  for (let i = first; i < steps.length; i++) {
    const step = steps[i]!;
    let output: unknown;
    try {
      output = step.convert(current as never, {
        group: definition.group,
        kind: definition.kind,
        from: step.from,
        to: step.to,
        refuse,
      });
    } catch (error) {
      throw converterFailure(error, steps, step);
    }
    const last = i === steps.length - 1;
    if (isPending(output, inStep(steps, step))) {
      return settle(output).then(
        (value) =>
          runChain(definition, steps, i + 1, checkedResult(value, steps, step, last, held, limits), held, limits),
        (error) => {
          throw converterFailure(error, steps, step);
        },
      );
    }
    current = checkedResult(output, steps, step, last, held, limits);
  }
  return current as JsonObject;
}

/** The converter's result as crdshift's own copy, checked against the step's schema. */
function checkedResult(
  output: unknown,
  steps: Route,
  step: Step,
  last: boolean,
  held: Set<object> | undefined,
  limits: ResultLimits,
): JsonObject {
  const where = inStep(steps, step);
  // The copy first: the check then reads what will be sent (a lost `__proto__` field back in place).
  // One count for the result and, for the last step, the labels and annotations read after it.
  const budget = new ResultBudget(limits.maxBytes, limits.time);
  const result = readResult(output, { last, held, step: where, limits, budget });
  const issue = schemaIssue(step.schema, result);
  if (issue) {
    throw new ConversionFailure(
      "result-schema-mismatch",
      `the converter's result does not match the ${step.to} schema: ${issue}${where}`,
    );
  }
  // The last result's metadata is the converter's (converter-result.ts): what the guard needs of it, read now.
  if (last) result.metadata = readConvertedMaps(result, where, budget);
  return result;
}

function converterFailure(error: unknown, steps: Route, step: Step): ConversionFailure {
  return new ConversionFailure("converter-threw", `${converterErrorText(error)}${inStep(steps, step)}`, {
    value: error,
  });
}
