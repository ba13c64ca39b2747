import type { TestProject } from "vitest/node";
import { lambdaRuntimeNode } from "./lambda-runtime-node";

/** The `lambda-runtime` project's global setup: fetches the runtime's Node once, for every test file. */
export function setup(project: TestProject): void {
  project.provide("lambdaNode", lambdaRuntimeNode());
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The node binary the built Lambda bundle runs on in this project (the Lambda runtime's major). */
    lambdaNode: string;
  }
}
