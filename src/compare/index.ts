export { type JsonDifference, jsonDifferences, DifferenceWalk } from "./json-differences";
export { compareVerdicts, type Comparison } from "./compare-verdicts";
