import { describe, expect, it } from "vitest";
import { readCrdFile } from "../../src/cli/crd-files";
import { assertMatchesCrd, checkAgainstCrd } from "../../src/check/crd-check";
import { stashFields, unstashFields } from "../../src/conversion";
import { assertRoundTrips } from "../../src/check/round-trip";
import { copyThrough, mapDown, mapped, mapUp, pump, refusing, refusingDown, refusingUp } from "../fixtures/pump-kinds";

const file = "test/fixtures/crds/pumps.example.com.yaml";
const [crd] = readCrdFile(file, file).crds;

// Each slip here passed green before: the round trip was perfect, so nothing complained.
describe("a converter's result is held to the target version's CRD schema", () => {
  it("catches an enum table forgotten in both directions, with the default number of runs, whatever the seed", async () => {
    await expect(assertRoundTrips(copyThrough, { seed: 1 })).resolves.toBeUndefined(); // what the slip looks like
    for (const seed of [1, 2, 3, 42]) {
      const report = await checkAgainstCrd([copyThrough], crd!, { seed });
      expect(report.ok, `seed ${seed}`).toBe(false);
      expect(report.failure).toMatch(
        /^Pump\.example\.com (v1 -> v1beta1 -> v1|v1beta1 -> v1 -> v1beta1)( \(a partial object\))?: the (v1beta1|v1) result breaks the CRD's (v1beta1|v1) schema: spec\.restartPolicy: "(Always|OnFailure|Never|always|onFailure|never)" is not one of the enum values \[/,
      );
      expect(report.failure).toContain("The apiserver does not validate a conversion webhook's result");
      expect(report.failure).toMatch(/\n {2}object: \{.*"restartPolicy":/);
      expect(report.failure).toMatch(
        /\n {4}spec\.restartPolicy takes "(always", "onFailure", "never" in v1beta1, "Always", "OnFailure", "Never" in v1|Always", "OnFailure", "Never" in v1, "always", "onFailure", "never" in v1beta1): map each value both ways\n/,
      );
    }
  });

  it("passes the port with its enum table, its results held to the CRD's CEL rules", async () => {
    const report = await checkAgainstCrd([mapped], crd!);
    expect(report.failure).toBeUndefined();
    expect(report.pairs.length, "pairs checked").toBeGreaterThan(0);
    expect(report.pairs.every((pair) => pair.roundTrips === 100 && pair.unvalidated === 0)).toBe(true);
    expect(report.pairs.every((pair) => pair.celChecked > 50)).toBe(true);
    expect(report.notChecked).toEqual([]);
  });

  it("catches a result that breaks the target's CEL rule, though the round trip is perfect", async () => {
    // The slip: a hard-coded zero interval on the way up, hidden by the stash on the way back.
    const zeroed = pump(
      (object) => {
        const { object: unstashed, fields } = unstashFields(object);
        const mapped = mapUp(unstashed);
        if (!mapped.spec?.interval) return mapped;
        return { ...mapped, spec: { ...mapped.spec, interval: (fields.interval as string | undefined) ?? "0s" } };
      },
      (object) => stashFields(mapDown(object), { interval: object.spec?.interval }),
    );
    const report = await checkAgainstCrd([zeroed], crd!, { seed: 1 });
    expect(report.failure).toMatch(
      /^Pump\.example\.com v1beta1 -> v1 -> v1beta1: the v1 result breaks the CRD's v1 schema: spec: breaks the CEL rule !has\(self\.interval\) \|\| self\.interval != '0s' \(interval must not be zero\)\n/,
    );
  });

  it("assertMatchesCrd throws it, naming the field, the value and the rule", async () => {
    await expect(assertMatchesCrd(copyThrough, crd!, { seed: 7 })).rejects.toThrow(
      /spec\.restartPolicy: "\w+" is not one of the enum values \["(Always","OnFailure","Never|always","onFailure","never)"\]/,
    );
  });

  it("catches a format the target checks and the converter broke", async () => {
    const reformat = pump(mapUp, (object) =>
      mapDown(object.spec?.interval ? { ...object, spec: { ...object.spec, interval: "every minute" } } : object),
    );
    const report = await checkAgainstCrd([reformat], crd!, { seed: 5 });
    expect(report.failure).toMatch(
      /the v1beta1 result breaks the CRD's v1beta1 schema: spec\.interval: "every minute" is not a valid duration/,
    );
  });

  it("catches duplicate keys in a list map the converter built", async () => {
    const duplicate = pump(mapUp, (object) =>
      mapDown(
        object.spec?.ports?.length
          ? { ...object, spec: { ...object.spec, ports: [...object.spec.ports, object.spec.ports[0]!] } }
          : object,
      ),
    );
    const report = await checkAgainstCrd([duplicate], crd!, { seed: 5 });
    expect(report.failure).toMatch(/spec\.ports: \[.*\] has duplicate items \(list-type map, keys name\)/);
  });
});

describe("a refusal of an object the source version accepts is a finding, unless declared", () => {
  it("fails a converter that throws on a valid enum value, naming the value and how to declare it", async () => {
    const report = await checkAgainstCrd([refusing], crd!, { seed: 1 });
    expect(report.ok).toBe(false);
    expect(report.failure).toMatch(
      /^Pump\.example\.com v1 -> v1beta1 -> v1( \(a partial object\))?: the converter refused an object the CRD's v1 schema accepts, for reason "no-counterpart", which v1 -> v1beta1 does not declare: spec\.restartPolicy "OnFailure" has no counterpart\n {2}In a cluster one refused object fails every LIST and watch of the kind in v1beta1\. .*refusals: \{ "v1->v1beta1": \{ "some-reason": "why" \} \}/,
    );
    // The zod schemas take any string: a string the table lacks is refused too.
    await expect(assertRoundTrips(refusing, { seed: 1 })).rejects.toThrow(
      /the converter refused an object its v1 schema accepts, for reason "no-counterpart", which v1 -> v1beta1 does not declare: spec\.restartPolicy ".*" has no counterpart/,
    );
  });

  it("counts refusals the kind declares, with the reason", async () => {
    const declared = pump(refusingUp, refusingDown, {
      refusals: {
        "v1beta1->v1": { "no-counterpart": "v1 takes no onFailure" },
        "v1->v1beta1": { "no-counterpart": "v1beta1 takes no OnFailure" },
      },
    });
    const report = await checkAgainstCrd([declared], crd!, { seed: 1 });
    expect(report.failure).toBeUndefined();
    const pair = report.pairs.find((p) => p.from === "v1beta1")!;
    expect(pair.refused).toBeGreaterThan(0);
    expect(pair.refusedBy).toEqual([
      {
        reason: "no-counterpart",
        why: "v1 takes no onFailure",
        count: pair.refused,
        example: expect.stringMatching(/has no counterpart/),
      },
    ]);
  });
});
