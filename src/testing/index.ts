/**
 * crdshift/testing: a converter author's test kit. Two lines in a test file cover a kind:
 *
 *   import { assertRoundTrips } from "crdshift/testing";
 *   it("round-trips every version", () => assertRoundTrips(myKind));
 */
export { assertRoundTrips, checkKind, checkKinds, type CheckOptions, type KindReport, type PairReport } from "./round-trip";
export { arbitraryFor, type ArbitraryOptions } from "./arbitrary";
export { checkReply, type SentReview } from "./apiserver";
export { assertMatchesCrd, checkAgainstCrd, type CrdCheckOptions, type CrdCheckReport } from "./crd-check";
export { crdObjectArbitrary, crdValueArbitrary, type CrdArbitraryOptions } from "./crd-arbitrary";
export { readCrds, type Crd, type CrdVersion } from "../openapi/crd-document";
