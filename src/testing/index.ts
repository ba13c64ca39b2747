/**
 * crdshift/testing: a converter author's test kit. Two lines in a test file cover a kind:
 *
 *   import { assertRoundTrips } from "crdshift/testing";
 *   it("round-trips every version", () => assertRoundTrips(myKind));
 */

export { type Crd, type CrdVersion, readCrds } from "../openapi/crd-document";
export { checkReply, type SentReview } from "./apiserver";
export { type ArbitraryOptions, arbitraryFor } from "./arbitrary";
export { type CrdArbitraryOptions, crdObjectArbitrary, crdValueArbitrary } from "./crd-arbitrary";
export { assertMatchesCrd, type CrdCheckOptions, type CrdCheckReport, checkAgainstCrd } from "./crd-check";
export {
  assertRoundTrips,
  type CheckOptions,
  checkKind,
  checkKinds,
  type KindReport,
  type PairReport,
} from "./round-trip";
export {
  assertGolden,
  checkGolden,
  type GoldenCase,
  type GoldenMismatch,
  type GoldenReport,
  readGoldenCases,
} from "./golden";
