import { assertRoundTrips } from "crdshift/testing";
import { it } from "vitest";
import { e2eKind } from "../src/registry.js";

it("round-trips every pair of versions", () => assertRoundTrips(e2eKind));
