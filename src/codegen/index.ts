export { kindFiles, type KindFiles } from "./kind-files";
export { camelName } from "./identifiers";
