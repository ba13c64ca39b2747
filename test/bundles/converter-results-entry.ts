import { createHandler } from "crdshift/lambda";
import { platformRegistry } from "../conversion/converter-results";

// The Lambda handler of the converter-results test: bundled as npm run build:lambda bundles the examples.
export const handler = createHandler(platformRegistry());
