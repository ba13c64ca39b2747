import { describe, expect, it } from "vitest";
import { checkReply, type SentReview } from "../../src/kube/apiserver/apiserver-checks";

/**
 * The apiserver model held to the apiserver's own tests. Each table below is the port of one
 * upstream table (the cases and facts, not the code): apiextensions-apiserver
 * `pkg/apiserver/conversion/webhook_converter_test.go` and `test/integration/conversion/`,
 * client-go `rest/request_test.go`. Cases marked "from the code" have no upstream test; they
 * follow `webhook_converter.go` and the decoding it relies on, as the spec (apiserver-contract.md
 * §5–8) records it. Every way `checkReply` refuses a reply is asserted here with its wording.
 */

const UID = "uid";
const GROUP = "apiextensions.k8s.io";

/** What the Go tables convert: a Widget from foo/v2 to foo/v1. */
const ORIGINAL = { apiVersion: "foo/v2", kind: "Widget", metadata: { name: "myv1" } };
const V1_OBJECT = { apiVersion: "foo/v1", kind: "Widget", metadata: { name: "myv1" } };

function sent(version: "v1" | "v1beta1", objects: unknown[] = [ORIGINAL]): SentReview {
  return {
    apiVersion: `${GROUP}/${version}`,
    kind: "ConversionReview",
    request: { uid: UID, desiredAPIVersion: "foo/v1", objects },
  };
}

/** A success reply in `version` with `objects`; `change` edits it before it is written. */
function reply(version: "v1" | "v1beta1", objects: unknown[], change: (r: any) => void = () => {}): string {
  const r: any = {
    apiVersion: `${GROUP}/${version}`,
    kind: "ConversionReview",
    response: { uid: UID, result: { status: "Success" }, convertedObjects: objects },
  };
  change(r);
  return JSON.stringify(r);
}

function refused(review: SentReview, body: string, status = 200, contentType = "application/json"): string {
  const verdict = checkReply(review, status, body, contentType);
  if (verdict.ok) expect.fail(`the model accepted a reply the apiserver refuses: ${body}`);
  return verdict.error;
}

function accepted(review: SentReview, body: string, status = 200, contentType = "application/json") {
  const verdict = checkReply(review, status, body, contentType);
  if (!verdict.ok) expect.fail(`the model refused a reply the apiserver accepts: ${verdict.error}`);
  return verdict.objects;
}

// Messages are prefixed with the GVK of what was sent, as `Convert` wraps them.
const FAILED = "conversion webhook for foo/v2, Kind=Widget failed: ";
// The scheme's name in Go also holds the line that made it, which moves between releases.
const SCHEME = ' in scheme "k8s.io/apiserver/pkg/util/webhook/client.go"';

describe("TestGetConvertedObjectsFromResponse (webhook_converter_test.go)", () => {
  // The Go table checks the decoded review alone, before any count of objects; the sent review
  // here holds as many objects as the case returns so that only the response checks decide.
  type Case = { name: string; version: "v1" | "v1beta1"; body: string; objects?: unknown[]; error?: string };
  const cases: Case[] = [
    {
      name: "minimal valid v1beta1 (apiVersion, kind and uid never checked in v1beta1)",
      version: "v1beta1",
      body: JSON.stringify({ response: { result: { status: "Success" } } }),
      objects: [],
    },
    {
      name: "valid v1beta1 with objects",
      version: "v1beta1",
      body: JSON.stringify({ response: { result: { status: "Success" }, convertedObjects: [V1_OBJECT] } }),
      objects: [V1_OBJECT],
    },
    {
      name: "error v1beta1, empty status",
      version: "v1beta1",
      body: JSON.stringify({ response: { result: { status: "" } } }),
      error: `${FAILED}response.result.status was '', not 'Success'`,
    },
    {
      name: "error v1beta1, failure status",
      version: "v1beta1",
      body: JSON.stringify({ response: { result: { status: "Failure" } } }),
      error: `${FAILED}response.result.status was 'Failure', not 'Success'`,
    },
    {
      name: "error v1beta1, custom status",
      version: "v1beta1",
      body: JSON.stringify({ response: { result: { status: "Failure", message: "some failure message" } } }),
      error: `${FAILED}some failure message`,
    },
    {
      name: "invalid v1beta1, no response",
      version: "v1beta1",
      body: JSON.stringify({}),
      error: `${FAILED}no response provided`,
    },
    { name: "minimal valid v1", version: "v1", body: reply("v1", []), objects: [] },
    { name: "valid v1 with objects", version: "v1", body: reply("v1", [V1_OBJECT]), objects: [V1_OBJECT] },
    {
      name: "invalid v1, no uid",
      version: "v1",
      body: reply("v1", [], (r) => delete r.response.uid),
      error: `${FAILED}expected response.uid="uid", got ""`,
    },
    {
      name: "invalid v1, no apiVersion",
      version: "v1",
      body: reply("v1", [], (r) => delete r.apiVersion),
      error: `${FAILED}expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=ConversionReview`,
    },
    {
      name: "invalid v1, no kind",
      version: "v1",
      body: reply("v1", [], (r) => delete r.kind),
      error: `${FAILED}expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=`,
    },
    // The Go table builds the next two as typed values, past the decoder. On the wire the
    // decoder meets them first: neither names a type the webhook client's scheme knows.
    {
      name: "invalid v1, mismatched apiVersion",
      version: "v1",
      body: reply("v1", [], (r) => (r.apiVersion = `${GROUP}/v2`)),
      error: `${FAILED}no kind "ConversionReview" is registered for version "apiextensions.k8s.io/v2"${SCHEME}`,
    },
    {
      name: "invalid v1, mismatched kind",
      version: "v1",
      body: reply("v1", [], (r) => (r.kind = "ConversionReview2")),
      error: `${FAILED}no kind "ConversionReview2" is registered for version "apiextensions.k8s.io/v1"${SCHEME}`,
    },
    {
      name: "invalid v1, mismatched apiVersion that still decodes (from the code: the version is defaulted)",
      version: "v1",
      body: reply("v1", [], (r) => (r.apiVersion = `${GROUP}/`)),
      error: `${FAILED}expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/, Kind=ConversionReview`,
    },
    {
      name: "error v1, empty status",
      version: "v1",
      body: reply("v1", [], (r) => (r.response.result.status = "")),
      error: `${FAILED}response.result.status was '', not 'Success'`,
    },
    {
      name: "error v1, failure status",
      version: "v1",
      body: reply("v1", [], (r) => (r.response.result.status = "Failure")),
      error: `${FAILED}response.result.status was 'Failure', not 'Success'`,
    },
    {
      name: "error v1, custom status",
      version: "v1",
      body: reply("v1", [], (r) => (r.response.result = { status: "Failure", message: "some failure message" })),
      error: `${FAILED}some failure message`,
    },
    {
      name: "invalid v1, no response",
      version: "v1",
      body: reply("v1", [], (r) => delete r.response),
      error: `${FAILED}no response provided`,
    },
    {
      name: "unknown type (a Status where the review belongs)",
      version: "v1",
      body: JSON.stringify({ apiVersion: "v1", kind: "Status", status: "Success" }),
      error: `${FAILED}converting (v1.Status) to (v1.ConversionReview): unknown conversion`,
    },
  ];

  it.each(cases)("$name", ({ version, body, objects, error }) => {
    const review = sent(version, objects?.map(() => ORIGINAL) ?? [ORIGINAL]);
    if (error !== undefined) expect(refused(review, body)).toBe(error);
    else expect(accepted(review, body)).toEqual(objects);
  });
});

describe("TestRestoreObjectMeta (webhook_converter_test.go), through a whole reply", () => {
  type Meta = Record<string, unknown>;
  type Case = { name: string; original: Meta; converted: Meta; expected?: Meta; error?: string };
  const long = (n: number) => "x".repeat(n);
  const cases: Case[] = [
    {
      name: "no converted metadata",
      original: { metadata: {}, spec: {} },
      converted: { spec: {} },
      error: "missing metadata in converted object",
    },
    {
      name: "invalid converted metadata",
      original: { metadata: {}, spec: {} },
      converted: { metadata: ["foo"] },
      error: "invalid metadata of type []interface {} in converted object",
    },
    {
      name: "no original metadata",
      original: { spec: {} },
      converted: { metadata: {}, spec: {} },
      expected: { metadata: {}, spec: {} },
    },
    {
      name: "invalid original metadata",
      original: { metadata: ["foo"] },
      converted: { metadata: {}, spec: {} },
      error: "invalid metadata of type []interface {} in input object",
    },
    {
      name: "changed label, annotations and non-label",
      original: { metadata: { foo: "bar", labels: { a: "A", b: "B" }, annotations: { a: "1", b: "2" } }, spec: {} },
      converted: { metadata: { foo: "abc", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }, spec: {} },
      expected: { metadata: { foo: "bar", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }, spec: {} },
    },
    {
      name: "added labels and annotations",
      original: { metadata: { foo: "bar" }, spec: {} },
      converted: { metadata: { foo: "abc", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }, spec: {} },
      expected: { metadata: { foo: "bar", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }, spec: {} },
    },
    {
      name: "added labels and annotations, with nil before",
      original: { metadata: { foo: "bar", labels: null, annotations: null }, spec: {} },
      converted: { metadata: { foo: "abc", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }, spec: {} },
      expected: { metadata: { foo: "bar", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }, spec: {} },
    },
    {
      name: "removed labels and annotations",
      original: { metadata: { foo: "bar", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }, spec: {} },
      converted: { metadata: { foo: "abc" }, spec: {} },
      expected: { metadata: { foo: "bar" }, spec: {} },
    },
    {
      name: "nil'ed labels and annotations",
      original: { metadata: { foo: "bar", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }, spec: {} },
      converted: { metadata: { foo: "abc", labels: null, annotations: null }, spec: {} },
      expected: { metadata: { foo: "bar" }, spec: {} },
    },
    {
      name: "added labels and annotations with a nil value",
      original: { metadata: { foo: "bar" }, spec: {} },
      converted: { metadata: { foo: "abc", labels: { a: null, b: "B" }, annotations: { a: null, b: "22" } }, spec: {} },
      error: "metadata.labels[a] must be a string, but is <nil> in converted object",
    },
    {
      name: "invalid label key",
      original: { metadata: {} },
      converted: { metadata: { labels: { "some/non-qualified/label": "x" } } },
      error: 'metadata.labels: Invalid value: "some/non-qualified/label"',
    },
    {
      // Upstream's case of this name sets a label (a copy of the one above); this one sets the annotation.
      name: "invalid annotation key",
      original: { metadata: {} },
      converted: { metadata: { annotations: { "some/non-qualified/label": "x" } } },
      error: 'metadata.annotation: Invalid value: "some/non-qualified/label"',
    },
    {
      name: "invalid label value",
      original: { metadata: {} },
      converted: { metadata: { labels: { foo: "üäö" } } },
      error: 'metadata.labels: Invalid value: "üäö"',
    },
    {
      name: "too big label value",
      original: { metadata: {} },
      converted: { metadata: { labels: { foo: long(64) } } },
      error: `metadata.labels: Invalid value: "${long(64)}": must be no more than 63 characters`,
    },
    {
      name: "too big annotation value",
      original: { metadata: {} },
      converted: { metadata: { annotations: { foo: long(256 * 1024 + 1) } } },
      error: "metadata.annotation: Too long: must have at most 262144 bytes",
    },
    // From the code: the remaining refusals of restoreObjectMeta.
    {
      name: "labels of another type in the reply",
      original: { metadata: {} },
      converted: { metadata: { labels: ["a"] } },
      error: "invalid metadata.labels of type []interface {} in converted object",
    },
    {
      name: "annotations of another type in the original",
      original: { metadata: { annotations: "a=b" } },
      converted: { metadata: { annotations: { a: "b" } } },
      error: "invalid metadata.annotations of type string in original object",
    },
    {
      name: "an original metadata of null (the SSA case, kubernetes#117356)",
      original: { metadata: null },
      converted: { metadata: {} },
      error: "invalid metadata of type <nil> in input object",
    },
    {
      name: "an invalid label the original already had, unchanged, is not validated again",
      original: { metadata: { labels: { "bad key": "x" } } },
      converted: { metadata: { labels: { "bad key": "x" } } },
      expected: { metadata: { labels: { "bad key": "x" } } },
    },
  ];

  it.each(cases)("$name", ({ original, converted, expected, error }) => {
    const review = sent("v1", [{ apiVersion: "foo/v2", kind: "Widget", ...original }]);
    const body = reply("v1", [{ apiVersion: "foo/v1", kind: "Widget", ...converted }]);
    if (error !== undefined) {
      expect(refused(review, body)).toContain(
        `conversion webhook for foo/v2, Kind=Widget returned invalid metadata: ${error}`,
      );
    } else {
      expect(accepted(review, body)).toEqual([{ apiVersion: "foo/v1", kind: "Widget", ...expected }]);
    }
  });

  it("in a list, names the object's index", () => {
    const nameless = { apiVersion: "foo/v2", kind: "Widget" };
    const review = sent("v1", [nameless, nameless]);
    const body = reply("v1", [
      { ...nameless, apiVersion: "foo/v1", metadata: {} },
      { ...nameless, apiVersion: "foo/v1" },
    ]);
    expect(refused(review, body)).toBe(
      "conversion webhook for foo/v2, Kind=Widget returned invalid metadata in object at index 1: missing metadata in converted object",
    );
  });
});

describe("the integration tests' webhooks (test/integration/conversion)", () => {
  const stored = {
    apiVersion: "stable.example.com/v1beta1",
    kind: "MultiVersion",
    metadata: { name: "mutation", namespace: "ns", uid: "0c8a8d5e-1", generation: 1 },
    num: 1,
  };
  const review: SentReview = {
    apiVersion: `${GROUP}/v1`,
    kind: "ConversionReview",
    request: { uid: UID, desiredAPIVersion: "stable.example.com/v1beta2", objects: [stored] },
  };
  const converted = { ...stored, apiVersion: "stable.example.com/v1beta2" };
  const PREFIX = "conversion webhook for stable.example.com/v1beta1, Kind=MultiVersion";

  it.each(["v1", "v1beta1"] as const)("empty-response-%s: returned 0 objects, expected 1", (version) => {
    const v = { ...review, apiVersion: `${GROUP}/${version}` };
    expect(refused(v, reply(version, []))).toBe(`${PREFIX} returned 0 objects, expected 1`);
  });

  it.each(["v1", "v1beta1"] as const)("failure-message-%s: the webhook's message, verbatim", (version) => {
    const v = { ...review, apiVersion: `${GROUP}/${version}` };
    const body = reply(
      version,
      [],
      (r) => (r.response.result = { status: "Failure", message: "custom webhook conversion error" }),
    );
    expect(refused(v, body)).toBe(`${PREFIX} failed: custom webhook conversion error`);
  });

  it("unhandled: HTTP 422 from http.Error is 'the server rejected our request …'", () => {
    const body = "Cannot handle v1 ConversionReview\n";
    expect(refused(review, body, 422, "text/plain; charset=utf-8")).toBe(
      `${PREFIX} failed: the server rejected our request due to an error in our request`,
    );
  });

  it("metadata-uid-mutating: must have the same UID", () => {
    const body = reply("v1", [{ ...converted, metadata: { ...stored.metadata, uid: "42" } }]);
    expect(refused(review, body)).toBe(`${PREFIX} returned invalid object: must have the same UID: 0c8a8d5e-1 != 42`);
  });

  it("metadata-mutating: labels and annotations are kept, every other metadata change dropped", () => {
    const mutated = {
      ...converted,
      metadata: {
        ...stored.metadata,
        annotations: { from: "stable.example.com/v1beta1", to: "stable.example.com/v1beta2" },
        labels: { from: "stable.example.com.v1beta1", to: "stable.example.com.v1beta2" },
        generation: 42,
        ownerReferences: [{ apiVersion: "v1", kind: "Namespace", name: "default", uid: "1234" }],
        resourceVersion: "42",
        finalizers: ["foo"],
        garbage: "foo",
      },
    };
    expect(accepted(review, reply("v1", [mutated]))).toEqual([
      {
        ...converted,
        metadata: {
          ...stored.metadata,
          annotations: mutated.metadata.annotations,
          labels: mutated.metadata.labels,
        },
      },
    ]);
  });
});

describe("Convert's checks of each object (webhook_converter.go, from the code)", () => {
  const PREFIX = "conversion webhook for foo/v2, Kind=Widget";
  const one = (object: unknown) => refused(sent("v1"), reply("v1", [object]));
  const second = (object: unknown) => refused(sent("v1", [ORIGINAL, ORIGINAL]), reply("v1", [V1_OBJECT, object]));

  it("must have the same name, namespace: single and list wording", () => {
    expect(one({ ...V1_OBJECT, metadata: { name: "other" } })).toBe(
      `${PREFIX} returned invalid object: must have the same name: myv1 != other`,
    );
    expect(second({ ...V1_OBJECT, metadata: { name: "myv1", namespace: "ns" } })).toBe(
      `${PREFIX} returned invalid converted object at index 1: must have the same namespace:  != ns`,
    );
  });

  it("a name that is not a string counts as none, as Unstructured reads it", () => {
    expect(one({ ...V1_OBJECT, metadata: { name: 7 } })).toBe(
      `${PREFIX} returned invalid object: must have the same name: myv1 != `,
    );
  });

  it("invalid groupVersion: single ('object at index 0') and list wording", () => {
    expect(one({ ...V1_OBJECT, apiVersion: "foo/v3" })).toBe(
      `${PREFIX} returned invalid object at index 0: invalid groupVersion (expected foo/v1, received foo/v3)`,
    );
    expect(second({ ...V1_OBJECT, apiVersion: "foo/v2" })).toBe(
      `${PREFIX} returned invalid converted object at index 1: invalid groupVersion (expected foo/v1, received foo/v2)`,
    );
    expect(one({ kind: "Widget", metadata: { name: "myv1" } })).toBe(
      `${PREFIX} returned invalid object at index 0: invalid groupVersion (expected foo/v1, received )`,
    );
  });

  it("invalid kind: single and list wording", () => {
    expect(one({ ...V1_OBJECT, kind: "Gadget" })).toBe(
      `${PREFIX} returned invalid object at index 0: invalid kind (expected Widget, received Gadget)`,
    );
    expect(second({ ...V1_OBJECT, kind: "Gadget" })).toBe(
      `${PREFIX} returned invalid converted object at index 1: invalid kind (expected Widget, received Gadget)`,
    );
  });

  it("a missing kind: the bare parse error for one object, prefixed in a list", () => {
    const kindless = { apiVersion: "foo/v1", metadata: { name: "myv1" } };
    const missing = `Object 'Kind' is missing in '${JSON.stringify(kindless)}'`;
    expect(one(kindless)).toBe(missing);
    expect(second(kindless)).toBe(`${PREFIX} returned invalid converted object at index 1: ${missing}`);
    // An apiVersion Go cannot parse leaves the kind unread as well.
    expect(one({ ...V1_OBJECT, apiVersion: "foo/v1/x" })).toContain("Object 'Kind' is missing in '");
    expect(one({ ...V1_OBJECT, kind: 5 })).toContain("Object 'Kind' is missing in '");
  });

  it("an object that is not one: null is an empty raw, others fail to unmarshal", () => {
    expect(one(null)).toBe("unexpected end of JSON input");
    expect(second("text")).toBe(
      `${PREFIX} returned invalid converted object at index 1: json: cannot unmarshal string into Go value of type map[string]interface {}`,
    );
    expect(one([V1_OBJECT])).toBe("json: cannot unmarshal array into Go value of type map[string]interface {}");
  });

  it("a count mismatch either way", () => {
    expect(refused(sent("v1"), reply("v1", [V1_OBJECT, V1_OBJECT]))).toBe(`${PREFIX} returned 2 objects, expected 1`);
    expect(
      refused(
        sent("v1"),
        reply("v1", [], (r) => (r.response.convertedObjects = null)),
      ),
    ).toBe(`${PREFIX} returned 0 objects, expected 1`);
  });
});

describe("decoding the body (apimachinery's serializer and the webhook client's scheme, from the code)", () => {
  it("a reply in the other review version: unknown conversion, both ways", () => {
    expect(refused(sent("v1"), reply("v1beta1", [V1_OBJECT]))).toBe(
      `${FAILED}converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion`,
    );
    expect(refused(sent("v1beta1"), reply("v1", [V1_OBJECT]))).toBe(
      `${FAILED}converting (v1.ConversionReview) to (v1beta1.ConversionReview): unknown conversion`,
    );
  });

  it("v1beta1 checks no apiVersion or kind, but the decoder still refuses an unknown one", () => {
    expect(
      refused(
        sent("v1beta1"),
        reply("v1beta1", [V1_OBJECT], (r) => (r.apiVersion = `${GROUP}/v2`)),
      ),
    ).toContain(`${FAILED}no kind "ConversionReview" is registered for version "apiextensions.k8s.io/v2"`);
    expect(
      refused(
        sent("v1beta1"),
        reply("v1beta1", [V1_OBJECT], (r) => (r.kind = "Review")),
      ),
    ).toContain(`${FAILED}no kind "Review" is registered for version "apiextensions.k8s.io/v1beta1"`);
  });

  it("reads apiVersion and kind case-insensitively before decoding case-sensitively", () => {
    const body = reply("v1", [V1_OBJECT], (r) => (r.Kind = "Review"));
    expect(refused(sent("v1"), body)).toContain(`${FAILED}no kind "Review" is registered`);
  });

  it("an apiVersion or kind that is not a string, or an apiVersion Go cannot parse", () => {
    expect(
      refused(
        sent("v1"),
        reply("v1", [], (r) => (r.apiVersion = 1)),
      ),
    ).toBe(
      `${FAILED}couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string`,
    );
    expect(
      refused(
        sent("v1"),
        reply("v1", [], (r) => (r.apiVersion = "a/b/c")),
      ),
    ).toBe(`${FAILED}unexpected GroupVersion string: a/b/c`);
  });

  it("a value of the wrong JSON type in a field of the review fails the whole decode", () => {
    const typed = (change: (r: any) => void) => refused(sent("v1"), reply("v1", [V1_OBJECT], change));
    expect(typed((r) => (r.response.result.code = "200"))).toBe(
      `${FAILED}json: cannot unmarshal string into Go struct field Status.response.result.code of type int32`,
    );
    expect(typed((r) => (r.response.result.code = 1.5))).toBe(
      `${FAILED}json: cannot unmarshal number 1.5 into Go struct field Status.response.result.code of type int32`,
    );
    expect(typed((r) => (r.response.uid = 7))).toBe(
      `${FAILED}json: cannot unmarshal number into Go struct field ConversionResponse.response.uid of type types.UID`,
    );
    expect(typed((r) => (r.response.convertedObjects = { 0: V1_OBJECT }))).toBe(
      `${FAILED}json: cannot unmarshal object into Go struct field ConversionResponse.response.convertedObjects of type []runtime.RawExtension`,
    );
    expect(typed((r) => (r.response.result.details = { causes: [{ field: 1 }] }))).toBe(
      `${FAILED}json: cannot unmarshal number into Go struct field StatusCause.response.result.details.causes.field of type string`,
    );
    expect(typed((r) => (r.request = "echoed"))).toBe(
      `${FAILED}json: cannot unmarshal string into Go struct field ConversionReview.request of type v1.ConversionRequest`,
    );
    // Unknown fields and nulls pass, as they do in Go.
    expect(
      accepted(
        sent("v1"),
        reply("v1", [V1_OBJECT], (r) => ((r.extra = 1), (r.response.result.code = null))),
      ),
    ).toHaveLength(1);
  });

  it("a body that is not a JSON object", () => {
    expect(refused(sent("v1"), "[]")).toContain(
      `${FAILED}couldn't get version/kind; json parse error: json: cannot unmarshal array`,
    );
    // null decodes to the zero review, which then has no apiVersion.
    expect(refused(sent("v1"), "null")).toBe(
      `${FAILED}expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=`,
    );
    expect(refused(sent("v1beta1"), "null")).toBe(`${FAILED}no response provided`);
    expect(refused(sent("v1"), "{not json")).toMatch(/^conversion webhook for foo\/v2, Kind=Widget failed: /);
  });
});

describe("client-go's reading of the HTTP reply (rest/request_test.go)", () => {
  const ok = reply("v1", [V1_OBJECT]);

  it("TestResultIntoWithNoBodyReturnsErr: a 0-length 2xx, with the content type client-go assumed", () => {
    expect(refused(sent("v1"), "", 200, "")).toBe(
      `${FAILED}0-length response with status code: 200 and content type: application/json`,
    );
    expect(refused(sent("v1"), "", 204, "text/plain")).toBe(
      `${FAILED}0-length response with status code: 204 and content type: text/plain`,
    );
  });

  it("TestTransformResponse: any status outside 200–206 fails, 200–206 all decode", () => {
    for (const status of [200, 201, 202, 203, 204, 205, 206]) expect(accepted(sent("v1"), ok, status)).toHaveLength(1);
    expect(refused(sent("v1"), ok, 199)).toBe(
      `${FAILED}the server responded with the status code 199 but did not return more information`,
    );
    expect(refused(sent("v1"), ok, 207)).toBe(
      `${FAILED}the server responded with the status code 207 but did not return more information`,
    );
  });

  it("TestTransformResponseNegotiate: a Content-Type mime cannot parse is an internal error, whatever the status", () => {
    expect(refused(sent("v1"), ok, 500, "application/,others")).toBe(
      `${FAILED}Internal error occurred: mime: expected token after slash`,
    );
    expect(refused(sent("v1"), ok, 200, "application/json; charset")).toBe(
      `${FAILED}Internal error occurred: mime: invalid media parameter`,
    );
    expect(refused(sent("v1"), ok, 200, "/json")).toBe(`${FAILED}Internal error occurred: mime: no media type`);
    // Parseable ones pass, whatever they name: the client decodes JSON regardless.
    for (const type of ["text/plain; charset=utf-8", "application/json;", "json", 'application/json; a="b c"'])
      expect(accepted(sent("v1"), ok, 200, type)).toHaveLength(1);
  });

  it("TestTransformUnstructuredError: a Failure Status body overrides the status text, even without a message", () => {
    const status404 = '{"kind":"Status","apiVersion":"v1","status":"Failure","code":404}';
    expect(refused(sent("v1"), status404, 400)).toBe(FAILED);
    // apiVersion is defaulted to v1; kind is not; a Success status is ignored; {} changes nothing.
    expect(refused(sent("v1"), '{"kind":"Status","status":"Failure","code":404}', 400)).toBe(FAILED);
    const badRequest = `${FAILED}the server rejected our request for an unknown reason`;
    expect(refused(sent("v1"), '{"status":"Failure","code":404}', 400)).toBe(badRequest);
    expect(refused(sent("v1"), '{"kind":"Status","apiVersion":"v1","status":"Success","code":404}', 400)).toBe(
      badRequest,
    );
    expect(refused(sent("v1"), "{}", 400)).toBe(badRequest);
    // From the code: a message is used as it is; a Status that fails to decode is no Status.
    expect(refused(sent("v1"), '{"kind":"Status","status":"Failure","message":"quota"}', 500)).toBe(`${FAILED}quota`);
    expect(refused(sent("v1"), '{"kind":"Status","status":"Failure","message":"quota","code":"x"}', 404)).toBe(
      `${FAILED}the server could not find the requested resource`,
    );
  });

  it("TestTransformResponse: a 401 gives the fixed sentence whatever its body", () => {
    for (const type of ["application/json", "text/any"]) {
      expect(refused(sent("v1"), "aaaaa", 401, type)).toBe(
        `${FAILED}the server has asked for the client to provide credentials`,
      );
    }
  });

  // apimachinery NewGenericServerResponse, as the spec's §7 table lists it.
  it.each([
    [400, "the server rejected our request for an unknown reason"],
    [404, "the server could not find the requested resource"],
    [405, "the server does not allow this method on the requested resource"],
    [409, "the server reported a conflict"],
    [422, "the server rejected our request due to an error in our request"],
    [429, "the server has received too many requests and has asked us to try again later"],
    [503, "the server is currently unable to handle the request"],
    [504, "the server was unable to return a response in the time allotted, but may still be processing the request"],
    [418, "the server responded with the status code 418 but did not return more information"],
  ])("HTTP %i: %s", (status, text) => {
    expect(refused(sent("v1"), "body text", status, "text/plain")).toBe(`${FAILED}${text}`);
  });

  it("the statuses that keep the body: only a text one, trimmed; 'unknown' otherwise", () => {
    expect(refused(sent("v1"), "  denied by policy\n", 403, "text/plain")).toBe(`${FAILED}denied by policy`);
    expect(refused(sent("v1"), "denied", 403, "application/json")).toBe(`${FAILED}unknown`);
    expect(refused(sent("v1"), "", 403, "text/plain")).toBe(FAILED);
    expect(refused(sent("v1"), "only json", 415, "")).toBe(`${FAILED}only json`);
    expect(refused(sent("v1"), "", 406, "")).toBe(
      `${FAILED}the server was unable to respond with a content type that the client supports`,
    );
    expect(refused(sent("v1"), "x", 406, "application/octet-stream")).toBe(
      `${FAILED}the server was unable to respond with a content type that the client supports`,
    );
    expect(refused(sent("v1"), 'boom "quoted"\n', 500, "text/plain")).toBe(
      `${FAILED}an error on the server ("boom \\"quoted\\"") has prevented the request from succeeding`,
    );
    expect(refused(sent("v1"), "<html>", 502, "text/html")).toBe(
      `${FAILED}an error on the server ("<html>") has prevented the request from succeeding`,
    );
    expect(refused(sent("v1"), "{}", 500, "application/json")).toBe(
      `${FAILED}an error on the server ("unknown") has prevented the request from succeeding`,
    );
    expect(refused(sent("v1"), "", 500, "")).toBe(
      `${FAILED}an error on the server ("") has prevented the request from succeeding`,
    );
    const long = "é".repeat(1500);
    expect(refused(sent("v1"), long, 500, "text/plain")).toBe(
      `${FAILED}an error on the server ("${"é".repeat(1024)}") has prevented the request from succeeding`,
    );
  });
});

it("names a converted object without a kind as JSON, an int64 beyond 2^53 as its digits", () => {
  const review: SentReview = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    request: {
      uid: "u",
      desiredAPIVersion: "example.com/v2",
      objects: [{ apiVersion: "example.com/v1", kind: "Thing", metadata: { name: "a" } }],
    },
  };
  const body =
    '{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"u","result":{"status":"Success"},' +
    '"convertedObjects":[{"apiVersion":"example.com/v2","metadata":{"name":"a"},"spec":{"n":9223372036854775807}}]}}';
  const verdict = checkReply(review, 200, body);
  expect(verdict.ok).toBe(false);
  expect(!verdict.ok && verdict.error).toContain(
    `Object 'Kind' is missing in '{"apiVersion":"example.com/v2","metadata":{"name":"a"},"spec":{"n":9223372036854775807}}'`,
  );
});
