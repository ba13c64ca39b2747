import { Environment } from "@marcbachmann/cel-js";
import { patternMatches, patternSyntaxError } from "../kube/crd";

/**
 * CEL evaluation bounded as the apiserver bounds it, over cel-js. The apiserver stops a rule
 * whose runtime cost passes its per-call limit (1,000,000; the CRD then fails with "no further
 * validation rules will be run due to call cost exceeds limit for rule"); cel-js has no cost
 * limit, and nested macros over lists take exponential time. So every step is counted: cel-js
 * evaluates each subexpression through its evaluator's `run`, which this environment wraps
 * (the evaluator is reached as `this` of a registered function, cel-js's handler convention).
 * Steps are not cel-go's cost units (a constant is a step here and free there), so a rule
 * stopped here is reported as not evaluated, never as broken. The same wrapper evaluates
 * `matches()` with Go's RE2 (re2-pattern.ts), not JavaScript's backtracking RegExp.
 */
export const CEL_STEP_LIMIT = 1_000_000;

/** A rule stopped at the step limit. */
export class CelCostExceeded extends Error {
  override name = "CelCostExceeded";
}

export type CompiledRule = ((self: unknown) => unknown) | { error: string };

interface AstNode {
  op: string;
  args: unknown;
}
interface Evaluator {
  run(ast: AstNode, context: unknown): unknown;
}

let steps = 0;
const environment = boundedEnvironment();

function boundedEnvironment(): Environment {
  const env = new Environment({ unlistedVariablesAreDyn: true });
  let evaluator: Evaluator | undefined;
  env.registerFunction("crdshiftEvaluator(): bool", function (this: Evaluator) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the one way cel-js hands out its evaluator
    evaluator = this;
    return true;
  });
  env.evaluate("crdshiftEvaluator()");
  if (!evaluator || typeof evaluator.run !== "function")
    throw new Error("cel-js no longer hands functions its evaluator: the CEL cost bound cannot be set");
  const run = evaluator.run.bind(evaluator);
  evaluator.run = (ast, context) => {
    if (++steps > CEL_STEP_LIMIT)
      throw new CelCostExceeded(`more than ${CEL_STEP_LIMIT.toLocaleString("en-US")} steps`);
    const call = matchesCall(ast);
    if (call) {
      const text = evaluator!.run(call.text, context);
      const pattern = evaluator!.run(call.pattern, context);
      if (typeof text === "string" && typeof pattern === "string") {
        const refused = patternSyntaxError(pattern);
        if (refused) throw new Error(`matches(): ${refused}`);
        return patternMatches(pattern, text);
      }
    }
    return run(ast, context);
  };
  return env;
}

/** `text.matches(pattern)` or `matches(text, pattern)`: the two nodes, else undefined. */
function matchesCall(ast: AstNode): { text: AstNode; pattern: AstNode } | undefined {
  if (ast.op === "rcall") {
    const [name, receiver, args] = ast.args as [string, AstNode, AstNode[]];
    if (name === "matches" && args.length === 1) return { text: receiver, pattern: args[0]! };
  }
  if (ast.op === "call") {
    const [name, args] = ast.args as [string, AstNode[]];
    if (name === "matches" && args.length === 2) return { text: args[0]!, pattern: args[1]! };
  }
  return undefined;
}

/**
 * A rule compiled once, or why it cannot be. Its root is evaluated below a list index, so that
 * every node, the root's own `matches()` included, goes through the counting wrapper.
 */
export function compileRule(rule: string): CompiledRule {
  try {
    environment.parse(rule);
    const evaluate = environment.parse(`[\n${rule}\n][0]`);
    return (self) => {
      steps = 0;
      return evaluate({ self });
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
