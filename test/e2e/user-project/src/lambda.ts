import { createHandler } from "crdshift/lambda";
import { registry } from "./registry.js";

export const handler = createHandler(registry);
