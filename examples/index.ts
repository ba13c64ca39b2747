import { createRegistry } from "crdshift";
import { cronTabExample } from "./kinds/crontab.example.com";
import { cronTabStable } from "./kinds/crontab.stable.example.com";

/** The embedded default: both seed examples, served from one URL. Replace with your kinds. */
export const registry = createRegistry([cronTabExample, cronTabStable]);
