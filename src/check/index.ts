export {
  checkKinds,
  assertRoundTrips,
  checkKind,
  type PairReport,
  type Finding,
  type CheckOptions,
  type KindReport,
} from "./round-trip";
export { checkAgainstCrd, assertMatchesCrd, type CrdCheckOptions, type CrdCheckReport } from "./crd-check";
export { kindForCrd } from "./crd-kind";
export {
  checkGolden,
  convertGolden,
  formatMismatch,
  goldenDifference,
  goldenFailure,
  goldenPairs,
  readGoldenCases,
  assertGolden,
  type GoldenCase,
  type GoldenFile,
  type GoldenMismatch,
  type GoldenReport,
} from "./golden";
export { arbitraryFor, type ArbitraryOptions } from "./arbitrary";
export { crdObjectArbitrary, crdValueArbitrary, type CrdArbitraryOptions } from "./crd-arbitrary";
