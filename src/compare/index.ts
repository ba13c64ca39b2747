export { type JsonDifference, jsonDifferences } from "./json-differences";
export { compareVerdicts, type Comparison } from "./compare-verdicts";
