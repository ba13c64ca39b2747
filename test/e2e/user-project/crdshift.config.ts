export { registry } from "./src/registry.js";
