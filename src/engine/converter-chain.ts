import type { KindDefinition } from "../registry/kind";
import type { Route, Step } from "../registry/routes";
import { ConversionFailure } from "./conversion-failure";
import { converterErrorText, inStep } from "./failure-messages";
import { isJsonObject, type JsonObject } from "./json-values";
import { restoreProtoKeys } from "./proto-keys";
import { schemaIssue } from "./validate";

/**
 * Runs the converters of a route from step `first` on, each on the previous one's output, and
 * returns the last output: checked to be an object of its version's schema after every step.
 * Synchronous until a converter returns a promise; the rest of the chain then continues after
 * it. Throws (or rejects with) a ConversionFailure.
 *
 * `held`: the values of the input's `__proto__` fields, put back where a converter lost them to
 * the prototype setter (engine/proto-keys.ts); undefined when the input has none.
 */
export function runChain(
  definition: KindDefinition,
  steps: Route,
  first: number,
  input: unknown,
  held: Set<object> | undefined,
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
      });
    } catch (error) {
      throw converterFailure(error, steps, step);
    }
    if (output instanceof Promise) {
      return output.then(
        (value) => {
          checkOutput(value, steps, step, held);
          return runChain(definition, steps, i + 1, value, held);
        },
        (error) => {
          throw converterFailure(error, steps, step);
        },
      );
    }
    checkOutput(output, steps, step, held);
    current = output;
  }
  return current as JsonObject;
}

function checkOutput(output: unknown, steps: Route, step: Step, held: Set<object> | undefined): void {
  if (!isJsonObject(output)) {
    const what = output === null ? "null" : Array.isArray(output) ? "an array" : typeof output;
    throw new ConversionFailure(
      "converter-error",
      `the converter returned ${what}, not an object${inStep(steps, step)}`,
    );
  }
  // Before the schema check, which would otherwise read the lost fields through the prototype.
  if (held) restoreProtoKeys(output, held);
  const issue = schemaIssue(step.schema, output);
  if (issue) {
    throw new ConversionFailure(
      "converter-error",
      `the converter's result does not match the ${step.to} schema: ${issue}${inStep(steps, step)}`,
    );
  }
}

function converterFailure(error: unknown, steps: Route, step: Step): ConversionFailure {
  return new ConversionFailure("converter-error", `${converterErrorText(error)}${inStep(steps, step)}`, {
    value: error,
  });
}
