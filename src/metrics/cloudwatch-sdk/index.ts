// Apart from metrics/index.ts: the SDK import it holds would be resolved in every bundle that
// imports the metrics face (Workers included), so only the Node and Lambda factories import it.
export { importCloudWatchSdk } from "./import-cloudwatch-sdk";
