import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { Finding } from "../../../src/cli/doctor/finding";
import { main } from "../../../src/cli/main";

const exampleCrd = () =>
  parse(readFileSync(new URL("../../../examples/crds/crontabs.example.com.yaml", import.meta.url), "utf8"));

async function doctor(crd: unknown) {
  let stdout = "";
  let stderr = "";
  const code = await main(["doctor", "-f", "-", "-o", "json", "--offline"], {
    out: (t) => (stdout += t),
    err: (t) => (stderr += t),
    stdin: () => JSON.stringify(crd),
  });
  const findings: Finding[] = stdout ? JSON.parse(stdout).crds.flatMap((c: { findings: Finding[] }) => c.findings) : [];
  return { code, stderr, findings, problems: findings.filter((f) => f.severity !== "info") };
}

const base64 = (text: string) => Buffer.from(text).toString("base64");
const CERT = readFileSync(new URL("../../fixtures/tls/localhost.crt", import.meta.url), "utf8");

/** The examples' CRD in the v1beta1 layout. */
function v1beta1Crd(extra: Record<string, unknown> = {}) {
  const crd = exampleCrd();
  crd.apiVersion = "apiextensions.k8s.io/v1beta1";
  crd.spec.conversion = {
    strategy: "Webhook",
    conversionReviewVersions: ["v1", "v1beta1"],
    webhookClientConfig: { url: "https://crdshift.example.workers.dev/convert" },
  };
  Object.assign(crd.spec, extra);
  return crd;
}

/** Changes the examples' CRD in place; or, as `{ crd }`, builds another one. */
type Edit = ((crd: any) => unknown) | { crd: () => unknown };
const hook =
  (edit: (webhook: any) => unknown): Edit =>
  (crd) =>
    edit(crd.spec.conversion.webhook);

const cases: Array<[string, Edit, string[], RegExp?]> = [
  [
    "a service reference",
    hook((w) => (w.clientConfig = { service: { namespace: "ops", name: "converter", path: "/convert" } })),
    ["error service-reference"],
    /Service ops\/converter: crdshift is served by URL/,
  ],
  [
    "both url and service",
    hook((w) => (w.clientConfig.service = { namespace: "ops", name: "converter" })),
    ["error url-and-service"],
    /has both url and service/,
  ],
  ["neither url nor service", hook((w) => (w.clientConfig = {})), ["error no-url"]],
  [
    "an http url",
    hook((w) => (w.clientConfig.url = "http://crdshift.example.workers.dev/convert")),
    ["error url-invalid"],
    /'https' is the only allowed URL scheme/,
  ],
  [
    "a url with a query",
    hook((w) => (w.clientConfig.url = "https://crdshift.example.workers.dev/convert?token=x")),
    ["error url-invalid"],
    /query parameters are not permitted in the URL/,
  ],
  [
    "a url with user info",
    hook((w) => (w.clientConfig.url = "https://me:pw@crdshift.example.workers.dev/convert")),
    ["error url-invalid"],
    /user information is not permitted/,
  ],
  [
    "a url at localhost",
    hook((w) => (w.clientConfig.url = "https://localhost:8443/convert")),
    ["warning url-loopback"],
  ],
  ["no conversionReviewVersions", hook((w) => delete w.conversionReviewVersions), ["error review-versions-missing"]],
  [
    "conversionReviewVersions without v1",
    hook((w) => (w.conversionReviewVersions = ["v1beta1"])),
    ["warning review-versions-no-v1"],
  ],
  [
    "conversionReviewVersions the apiserver does not know",
    hook((w) => (w.conversionReviewVersions = ["v2"])),
    ["error review-versions-unknown"],
    /no supported conversion review versions/,
  ],
  ["strategy None", (crd) => (crd.spec.conversion = { strategy: "None" }), ["error strategy-not-webhook"]],
  ["no conversion stanza", (crd) => delete crd.spec.conversion, ["error strategy-not-webhook"]],
  [
    "two storage versions",
    (crd) => (crd.spec.versions[0].storage = true),
    ["error storage-versions"],
    /2 versions have storage: true \(v1alpha1, v1\)/,
  ],
  ["no storage version", (crd) => (crd.spec.versions[2].storage = false), ["error storage-versions"]],
  [
    "a served version the registry lacks",
    (crd) => crd.spec.versions.push({ name: "v2", served: true, storage: false }),
    ["error served-version-not-in-registry"],
    /^v2 is served, but the registry lacks it/,
  ],
  [
    "a listed, unserved version the registry lacks",
    (crd) => crd.spec.versions.push({ name: "v2", served: false, storage: false }),
    ["warning listed-version-not-in-registry"],
  ],
  [
    "a stored version the registry lacks",
    (crd) => (crd.status = { storedVersions: ["v1beta1", "v0"] }),
    ["error stored-version-not-in-registry"],
    /^status\.storedVersions lists v0, which the registry lacks/,
  ],
  [
    "a registry version the CRD lacks",
    (crd) => crd.spec.versions.shift(),
    ["warning registry-version-not-in-crd"],
    /the registry has v1alpha1 for CronTab\.example\.com, which the CRD does not list/,
  ],
  [
    "a kind the registry lacks",
    (crd) => (crd.spec.names.kind = "Gadget"),
    ["error kind-not-in-registry"],
    /^Gadget\.example\.com is not in the registry \(it serves CronTab\.example\.com, CronTab\.stable\.example\.com\)/,
  ],
  [
    "preserveUnknownFields on a v1 CRD",
    (crd) => (crd.spec.preserveUnknownFields = true),
    ["error preserve-unknown-fields"],
  ],
  [
    "a v1beta1 CRD that leaves preserveUnknownFields out",
    { crd: () => v1beta1Crd() },
    ["error preserve-unknown-fields"],
    /the v1beta1 default when the field is left out/,
  ],
  ["a v1beta1 CRD with preserveUnknownFields: false", { crd: () => v1beta1Crd({ preserveUnknownFields: false }) }, []],
  [
    "a v1beta1 CRD's default review versions",
    {
      crd: () => {
        const crd = v1beta1Crd({ preserveUnknownFields: false });
        delete crd.spec.conversion.conversionReviewVersions;
        return crd;
      },
    },
    ["warning review-versions-no-v1"],
    /spec\.conversion\.conversionReviewVersions is \[v1beta1\]/,
  ],
  [
    "a caBundle on a publicly trusted host",
    hook((w) => (w.clientConfig.caBundle = base64(CERT))),
    ["warning cabundle-pins-public-ca"],
    /crdshift\.example\.workers\.dev, whose certificate is publicly trusted/,
  ],
  [
    "a caBundle without a certificate",
    hook((w) => (w.clientConfig.caBundle = base64("not a certificate"))),
    ["error cabundle-invalid"],
    /holds no PEM certificate/,
  ],
  [
    "a caBundle that is not base64",
    hook((w) => (w.clientConfig.caBundle = "%%%")),
    ["error cabundle-invalid"],
    /is not base64/,
  ],
  ["a whitespace caBundle", hook((w) => (w.clientConfig.caBundle = base64(" \n"))), ["warning cabundle-blank"]],
  ["the examples' CRD as it is", () => {}, []],
];

describe("crdshift doctor: each misconfiguration in a CRD manifest", () => {
  for (const [name, edit, expected, message] of cases) {
    it(`${name}: ${expected.join(", ") || "nothing to report"}`, async () => {
      let crd = exampleCrd();
      if (typeof edit === "function") edit(crd);
      else crd = edit.crd();
      const { code, problems } = await doctor(crd);
      expect(problems.map((f) => `${f.severity} ${f.code}`)).toEqual(expected);
      if (message) expect(problems[0]!.message).toMatch(message);
      for (const finding of problems) expect(finding.fix).toEqual(expect.any(String));
      expect(code).toBe(expected.some((e) => e.startsWith("error")) ? 1 : 0);
    });
  }

  it("says what it could not check without status.storedVersions", async () => {
    const { findings } = await doctor(exampleCrd());
    expect(findings).toEqual([expect.objectContaining({ severity: "info", code: "stored-versions-unknown" })]);
  });

  it("reads every CRD of a List, as kubectl get crd A B -o yaml prints them", async () => {
    const stable = parse(
      readFileSync(new URL("../../../examples/crds/crontabs.stable.example.com.yaml", import.meta.url), "utf8"),
    );
    const broken = exampleCrd();
    broken.status = { storedVersions: ["v0"] };
    let stdout = "";
    const code = await main(["doctor", "-f", "-", "-o", "json", "--offline"], {
      out: (t) => (stdout += t),
      err: () => {},
      stdin: () => JSON.stringify({ apiVersion: "v1", kind: "List", items: [stable, broken] }),
    });
    expect(code).toBe(1);
    expect(
      JSON.parse(stdout).crds.map((c: { crd: string; findings: Finding[] }) => [
        c.crd,
        c.findings.filter((f) => f.severity === "error").length,
      ]),
    ).toEqual([
      ["crontabs.stable.example.com", 0],
      ["crontabs.example.com", 1],
    ]);
  });

  it("exits 2 for input that is not a CRD, and for an unknown output format", async () => {
    expect(await doctor({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" } })).toMatchObject({
      code: 2,
      stderr: "crdshift: stdin: no CustomResourceDefinition in it (give the output of kubectl get crd NAME -o yaml)\n",
    });
    const out = await main(["doctor", "-f", "-", "-o", "yaml"], { out: () => {}, err: () => {}, stdin: () => "{}" });
    expect(out).toBe(2);
  });
});
