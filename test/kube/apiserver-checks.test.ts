import { expect, it } from "vitest";
import { checkReply, type SentReview } from "../../src/kube/apiserver/apiserver-checks";

it("names a converted object without a kind as JSON, an int64 beyond 2^53 as its digits", () => {
  const sent: SentReview = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    request: {
      uid: "u",
      desiredAPIVersion: "example.com/v2",
      objects: [{ apiVersion: "example.com/v1", kind: "Thing", metadata: { name: "a" } }],
    },
  };
  const reply =
    '{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"u","result":{"status":"Success"},' +
    '"convertedObjects":[{"apiVersion":"example.com/v2","metadata":{"name":"a"},"spec":{"n":9223372036854775807}}]}}';
  const verdict = checkReply(sent, 200, reply);
  expect(verdict.ok).toBe(false);
  expect(!verdict.ok && verdict.error).toContain(
    `Object 'Kind' is missing in '{"apiVersion":"example.com/v2","metadata":{"name":"a"},"spec":{"n":9223372036854775807}}'`,
  );
});
