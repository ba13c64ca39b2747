import fc from "fast-check";
import { expect, it } from "vitest";
import { checkReply, type SentReview } from "../../src/kube/apiserver/apiserver-checks";
import { runs } from "../property-runs";

/**
 * The apiserver model against the rules of the apiserver contract's §5–8 (the project's
 * shared/spec/apiserver-contract.md, read from the apiserver's source), written here a second
 * time, plainly and apart from the model: replies are built from parts each right or wrong in a
 * known way, and the model must accept exactly those the rules accept. The first
 * direction is the one a false green needs; the second keeps the model from refusing what a
 * cluster takes.
 */

const GROUP = "apiextensions.k8s.io";
const DESIRED = "example.com/v2";

// Label keys and values whose validity is known by construction (§8 rule 3).
const GOOD_KEYS = ["app", "example.com/tier", "a.b_c-d", "App"];
const BAD_KEYS = ["bad key", "a/b/c", "-lead", "example.com/"];
const GOOD_VALUES = ["v1", "", "x.y-z"];
const BAD_VALUES = ["has space", "x".repeat(64), "-lead"];

type Labels = Record<string, unknown>;
interface Original {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; uid: string; labels?: Labels; annotations?: Labels };
  spec: { n: number };
}

const original: fc.Arbitrary<Original> = fc.record({
  apiVersion: fc.constant("example.com/v1"),
  kind: fc.constantFrom("Thing", "Widget"),
  metadata: fc.record(
    {
      name: fc.constantFrom("a", "b"),
      namespace: fc.constantFrom("ns", "other"),
      uid: fc.uuid(),
      labels: fc.dictionary(fc.constantFrom(...GOOD_KEYS), fc.constantFrom(...GOOD_VALUES), { maxKeys: 2 }),
      annotations: fc.dictionary(fc.constantFrom(...GOOD_KEYS), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
    },
    { requiredKeys: ["name", "uid"] },
  ),
  spec: fc.record({ n: fc.integer() }),
});

const sentReview = fc.record({
  version: fc.constantFrom("v1", "v1beta1"),
  uid: fc.uuid(),
  objects: fc.array(original, { minLength: 1, maxLength: 3 }),
});

/** One of `faults` a third of the time, else none. */
function maybe<T>(faults: T[]): fc.Arbitrary<T | null> {
  return fc.oneof({ arbitrary: fc.constant(null), weight: 2 }, { arbitrary: fc.constantFrom(...faults), weight: 1 });
}

interface ObjectChange {
  apiVersion: "desired" | "source" | "missing" | "core";
  kind: "same" | "other" | "missing";
  name: "same" | "other";
  namespace: "same" | "other";
  uid: "same" | "other";
  metadata: "object" | "missing" | "array";
  labels: string;
  annotations: string;
  noise: boolean; // what the apiserver ignores: a new generation, a finalizer, an unknown key
}

/** Each way a converted object can break the rules, one at a time, so that each is met often. */
const OBJECT_FAULTS: [keyof ObjectChange, string][] = [
  ["apiVersion", "source"],
  ["apiVersion", "missing"],
  ["apiVersion", "core"],
  ["kind", "other"],
  ["kind", "missing"],
  ["name", "other"],
  ["namespace", "other"],
  ["uid", "other"],
  ["metadata", "missing"],
  ["metadata", "array"],
  ["labels", "addBadKey"],
  ["labels", "addBadValue"],
  ["labels", "nonString"],
  ["labels", "notMap"],
  ["annotations", "addBadKey"],
  ["annotations", "nonString"],
  ["annotations", "notMap"],
];

const CLEAN_OBJECT = {
  apiVersion: "desired",
  kind: "same",
  name: "same",
  namespace: "same",
  uid: "same",
  metadata: "object",
} as const;

/** Changes the rules allow. */
const fineChange = fc.record({
  labels: fc.constantFrom("same", "omit", "null", "addGood"),
  annotations: fc.constantFrom("same", "omit", "null", "addGood", "addBadValue"),
  noise: fc.boolean(),
});

const objectChange: fc.Arbitrary<ObjectChange> = fc
  .record({ fine: fineChange, fault: maybe(OBJECT_FAULTS) })
  .map(({ fault, fine }) => ({
    ...CLEAN_OBJECT,
    ...fine,
    ...(fault ? { [fault[0]]: fault[1] } : {}),
  }));

interface Envelope {
  status: number;
  apiVersion: "same" | "missing" | "other" | "v2";
  kind: "same" | "missing" | "Other";
  response: "present" | "missing";
  uid: "same" | "other" | "missing";
  resultStatus: string;
  count: number;
}

const CLEAN_ENVELOPE: Envelope = {
  status: 200,
  apiVersion: "same",
  kind: "same",
  response: "present",
  uid: "same",
  resultStatus: "Success",
  count: 0,
};

const ENVELOPE_FAULTS: [keyof Envelope, string | number][] = [
  ["status", 199],
  ["status", 207],
  ["status", 400],
  ["status", 500],
  ["apiVersion", "missing"],
  ["apiVersion", "other"],
  ["apiVersion", "v2"],
  ["kind", "missing"],
  ["kind", "Other"],
  ["response", "missing"],
  ["uid", "other"],
  ["uid", "missing"],
  ["resultStatus", "Failure"],
  ["resultStatus", ""],
  ["resultStatus", "success"],
  ["count", -1],
  ["count", 1],
];

const envelope: fc.Arbitrary<Envelope> = fc
  .record({
    status: fc.constantFrom(200, 201, 206),
    fault: fc.option(fc.constantFrom(...ENVELOPE_FAULTS), { freq: 3 }),
  })
  .map(({ status, fault }) => ({
    ...CLEAN_ENVELOPE,
    status,
    ...(fault ? { [fault[0]]: fault[1] } : {}),
  }));

const replyChange = fc.record({ envelope, objects: fc.array(objectChange, { minLength: 4, maxLength: 4 }) });

type ReplyChange = { envelope: Envelope; objects: ObjectChange[] };

/** How a label or annotation map comes back: kept, dropped, changed well or badly. */
function changedMap(before: Labels | undefined, change: string): unknown {
  switch (change) {
    case "same":
      return before;
    case "omit":
      return undefined;
    case "null":
      return null;
    case "addGood":
      return { ...before, "example.com/added": "yes" };
    case "addBadKey":
      return { ...before, [BAD_KEYS[Object.keys(before ?? {}).length % BAD_KEYS.length]!]: "v" };
    case "addBadValue":
      return { ...before, app: BAD_VALUES[Object.keys(before ?? {}).length % BAD_VALUES.length] };
    case "nonString":
      return { ...before, app: 5 };
    default:
      return ["app"];
  }
}

function convertedObject(from: Original, change: ObjectChange): Record<string, unknown> {
  const object: Record<string, unknown> = { spec: { n: from.spec.n + 1 } };
  if (change.apiVersion !== "missing")
    object.apiVersion = { desired: DESIRED, source: from.apiVersion, core: "v2" }[change.apiVersion];
  if (change.kind !== "missing") object.kind = change.kind === "same" ? from.kind : "Other";
  if (change.metadata === "array") object.metadata = [from.metadata.name];
  if (change.metadata === "object") {
    const m = from.metadata;
    const metadata: Record<string, unknown> = {
      name: change.name === "same" ? m.name : `${m.name}-x`,
      uid: change.uid === "same" ? m.uid : "another-uid",
    };
    if (change.namespace === "same") {
      if (m.namespace !== undefined) metadata.namespace = m.namespace;
    } else metadata.namespace = "elsewhere";
    const labels = changedMap(m.labels, change.labels);
    if (labels !== undefined) metadata.labels = labels;
    const annotations = changedMap(m.annotations, change.annotations);
    if (annotations !== undefined) metadata.annotations = annotations;
    if (change.noise) Object.assign(metadata, { generation: 42, finalizers: ["foo"], garbage: "foo" });
    object.metadata = metadata;
  }
  return object;
}

function replyBody(sent: SentReview, version: string, { envelope: change, objects: changes }: ReplyChange): string {
  const objects = sent.request.objects as Original[];
  const count = objects.length + change.count;
  const converted = Array.from({ length: count }, (_, i) =>
    convertedObject(objects[i % objects.length]!, changes[i % changes.length]!),
  );
  const reply: Record<string, unknown> = {};
  if (change.apiVersion !== "missing") {
    reply.apiVersion = {
      same: `${GROUP}/${version}`,
      other: `${GROUP}/${version === "v1" ? "v1beta1" : "v1"}`,
      v2: `${GROUP}/v2`,
    }[change.apiVersion];
  }
  if (change.kind !== "missing") reply.kind = change.kind === "same" ? "ConversionReview" : "Other";
  if (change.response === "present") {
    const response: Record<string, unknown> = { result: { status: change.resultStatus }, convertedObjects: converted };
    if (change.uid !== "missing") response.uid = change.uid === "same" ? sent.request.uid : "not-the-uid";
    reply.response = response;
  }
  return JSON.stringify(reply);
}

// ---- The rules, as the spec states them ----

const isMap = (v: unknown): v is Labels => typeof v === "object" && v !== null && !Array.isArray(v);
const sameMap = (a: Labels | undefined, b: Labels) =>
  Object.keys(a ?? {}).length === Object.keys(b).length && Object.entries(b).every(([k, v]) => a?.[k] === v);

/** §8 rule 3 for one map the reply carries: whether it breaks them. */
function mapBreaksRules(before: Labels | undefined, after: unknown, labels: boolean): boolean {
  if (after === undefined || after === null) return false; // dropped: allowed, deleted
  if (!isMap(after)) return true;
  if (Object.values(after).some((v) => typeof v !== "string")) return true;
  if (sameMap(before, after)) return false; // unchanged maps are not validated
  return Object.entries(after).some(
    ([k, v]) =>
      BAD_KEYS.includes(k) ||
      (labels && BAD_VALUES.includes(v as string)) ||
      !(GOOD_KEYS.includes(k) || k === "example.com/added"),
  );
}

function rulesAccept(sent: SentReview, version: string, status: number, body: string): boolean {
  if (status < 200 || status > 206) return false; // §5
  const reply = JSON.parse(body) as Record<string, any>;
  if (version === "v1") {
    if (reply.apiVersion !== `${GROUP}/v1` || reply.kind !== "ConversionReview") return false; // §6 row 2
  } else {
    // v1beta1 skips row 2, but the body may only name the review it was sent, or nothing (§5).
    if (reply.apiVersion !== undefined && reply.apiVersion !== `${GROUP}/v1beta1`) return false;
    if (reply.kind !== undefined && reply.kind !== "ConversionReview") return false;
  }
  const response = reply.response;
  if (!isMap(response)) return false; // row 3
  if (version === "v1" && response.uid !== sent.request.uid) return false; // row 4
  if ((response.result as Labels).status !== "Success") return false; // row 5
  const converted = response.convertedObjects as Record<string, any>[];
  if (converted.length !== sent.request.objects.length) return false; // row 6
  return converted.every((object, i) => {
    const before = sent.request.objects[i] as Original;
    if (typeof object.kind !== "string" || object.kind === "") return false; // row 7
    if (object.apiVersion !== sent.request.desiredAPIVersion) return false; // row 8
    if (object.kind !== before.kind) return false; // row 9
    const m = isMap(object.metadata) ? object.metadata : {};
    for (const field of ["name", "namespace", "uid"] as const) {
      if ((m[field] ?? "") !== (before.metadata[field] ?? "")) return false; // row 10
    }
    if (!isMap(object.metadata)) return false; // §8 rule 1
    return (
      !mapBreaksRules(before.metadata.labels, m.labels, true) &&
      !mapBreaksRules(before.metadata.annotations, m.annotations, false)
    );
  });
}

/** §8 rule 2: what an accepted object keeps: the original's metadata, the reply's labels/annotations. */
function keptMetadata(before: Original, object: Record<string, any>) {
  const { labels: _l, annotations: _a, ...rest } = before.metadata;
  const kept: Record<string, unknown> = { ...rest };
  if (isMap(object.metadata.labels)) kept.labels = object.metadata.labels;
  if (isMap(object.metadata.annotations)) kept.annotations = object.metadata.annotations;
  return kept;
}

it("accepts exactly the replies the contract's rules accept, and keeps what §8 keeps", () => {
  const seen = { accepted: 0, refused: 0 };
  fc.assert(
    fc.property(sentReview, replyChange, ({ version, uid, objects }, change) => {
      const sent: SentReview = {
        apiVersion: `${GROUP}/${version}`,
        kind: "ConversionReview",
        request: { uid, desiredAPIVersion: DESIRED, objects },
      };
      const body = replyBody(sent, version, change);
      const status = change.envelope.status;
      const verdict = checkReply(sent, status, body, "application/json");
      const rules = rulesAccept(sent, version, status, body);
      if (verdict.ok) seen.accepted++;
      else seen.refused++;
      // A reply the rules refuse must never pass: that is a false green.
      expect(verdict.ok && !rules, verdict.ok ? "accepted" : verdict.error).toBe(false);
      // And the model refuses nothing the rules take.
      expect(!verdict.ok && rules, verdict.ok ? "accepted" : verdict.error).toBe(false);
      if (verdict.ok) {
        const converted = JSON.parse(body).response.convertedObjects as Record<string, any>[];
        verdict.objects.forEach((object, i) => {
          expect(object.metadata).toEqual(keptMetadata(objects[i]!, converted[i]!));
          expect(object.spec).toEqual(converted[i]!.spec);
        });
      }
    }),
    { numRuns: runs(600) },
  );
  // Both outcomes were exercised: the property said something each way.
  expect(seen.accepted).toBeGreaterThan(10);
  expect(seen.refused).toBeGreaterThan(10);
});

it("refuses every single fault the rules name, in any surroundings, and accepts the reply without it", () => {
  const clean = fc.record({
    review: sentReview,
    status: fc.constantFrom(200, 201, 206),
    objects: fc.array(
      fineChange.map((fine): ObjectChange => ({ ...CLEAN_OBJECT, ...fine })),
      { minLength: 4, maxLength: 4 },
    ),
  });
  let faults = 0;
  const cases = runs(100);
  fc.assert(
    fc.property(clean, ({ review: { version, uid, objects }, status, objects: changes }) => {
      const sent: SentReview = {
        apiVersion: `${GROUP}/${version}`,
        kind: "ConversionReview",
        request: { uid, desiredAPIVersion: DESIRED, objects },
      };
      const fine: Envelope = { ...CLEAN_ENVELOPE, status };
      const cleanBody = replyBody(sent, version, { envelope: fine, objects: changes });
      const cleanVerdict = checkReply(sent, status, cleanBody, "application/json");
      expect(cleanVerdict.ok ? "accepted" : cleanVerdict.error, cleanBody).toBe("accepted");
      const variants: ReplyChange[] = [
        ...ENVELOPE_FAULTS.map(([field, value]) => ({ envelope: { ...fine, [field]: value }, objects: changes })),
        ...objects.flatMap((_, i) =>
          OBJECT_FAULTS.map(([field, value]) => ({
            envelope: fine,
            objects: changes.map((change, j) => (j === i ? { ...change, [field]: value } : change)),
          })),
        ),
      ];
      for (const variant of variants) {
        const body = replyBody(sent, version, variant);
        const rules = rulesAccept(sent, version, variant.envelope.status, body);
        const verdict = checkReply(sent, variant.envelope.status, body, "application/json");
        expect(verdict.ok, body).toBe(rules);
        if (!rules) faults++;
      }
    }),
    { numRuns: cases },
  );
  expect(faults).toBeGreaterThan(cases * ENVELOPE_FAULTS.length);
});
