/**
 * crdshift/testing: a converter author's test kit. Two lines in a test file cover a kind:
 *
 *   import { assertRoundTrips } from "crdshift/testing";
 *   it("round-trips every version", () => assertRoundTrips(myKind));
 */

export { type Crd, type CrdVersion, readCrds } from "../kube/crd";
export { checkReply, type SentReview } from "../kube/apiserver";
export { type ArbitraryOptions, arbitraryFor } from "../check";
export { type CrdArbitraryOptions, crdObjectArbitrary, crdValueArbitrary } from "../check";
export { assertMatchesCrd, type CrdCheckOptions, type CrdCheckReport, checkAgainstCrd } from "../check";
export {
  assertRoundTrips,
  type CheckOptions,
  checkKind,
  checkKinds,
  type Finding,
  type KindReport,
  type PairReport,
} from "../check";
export {
  assertGolden,
  checkGolden,
  type GoldenCase,
  type GoldenMismatch,
  type GoldenReport,
  readGoldenCases,
} from "../check";
