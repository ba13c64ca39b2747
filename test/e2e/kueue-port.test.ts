import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { portProject } from "./port-project";

/**
 * A CRD author's port of Kueue's MultiKueueCluster (test/fixtures/kueue-multikueuecluster), from
 * the packed tarball: a real CRD whose newer version is stricter where the upstream Go conversion
 * copies values, so the port declares refusals by reason. No golden files: what is held here is
 * held by `npm test` and `crdshift check` alone. A new throw beside the declared refusals fails
 * the check, and three independent slips are all named by one run. One npm install, reused by
 * editing the kind file.
 */
const port = portProject({
  fixture: "kueue-multikueuecluster",
  crd: "multikueueclusters.yaml",
  name: "mkc",
  kindFile: "src/kinds/multikueueclusters.kueue.x-k8s.io.ts",
});
const { npmTest, withConverters } = port;
const check = () => port.sh("npm", ["run", "check", "--silent"]);

/** Replaces `from` in the kind file, which must hold it once. */
const replacing = (from: string, to: string) => (source: string) => {
  expect(source.split(from), `the kind file holds ${JSON.stringify(from)} once`).toHaveLength(2);
  return source.replace(from, to);
};

describe("porting Kueue's MultiKueueCluster, whose v1beta2 is stricter, with crdshift init", () => {
  it("the faithful port passes npm test and npm run check, with no golden files, its refusals counted by reason", async () => {
    expect(existsSync(join(port.project(), "golden"))).toBe(false);
    const test = await npmTest();
    expect(test.code, test.stdout + test.stderr).toBe(0);
    const checked = await check();
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    // Coverage: how many objects round-tripped of how many generated, and the refusals by reason.
    expect(checked.stdout).toMatch(
      /\n {2}v1beta1 -> v1beta2 -> v1beta1 {2}100 round trips of \d+ objects generated, [1-9]\d* refused as declared; /,
    );
    expect(checked.stdout).toMatch(
      /\n {4}refused [1-9]\d* for "both-sources" \(v1beta2 holds exactly one of a kubeConfig and a clusterProfileRef\), e\.g\. /,
    );
  });

  it("a refusal reason the pair does not declare is a type error", () =>
    withConverters(
      replacing(
        `throw refuse("no-source", "spec sets neither a kubeConfig location nor a clusterProfileRef");`,
        `throw refuse("no-sauce", "spec sets neither a kubeConfig location nor a clusterProfileRef");`,
      ),
      async () => {
        const test = await npmTest();
        expect(test.code).not.toBe(0);
        expect(test.stdout + test.stderr).toMatch(/error TS2345: Argument of type '"no-sauce"' is not assignable/);
      },
    ));

  it("a new throw on a valid, rare object fails check with no golden files, though the pair declares other refusals", () =>
    withConverters(
      replacing(
        "const conditions = status?.conditions?.length ?? 0;",
        `const conditions = status?.conditions?.length ?? 0;
        if (status?.conditions?.some((condition) => condition.status === "Unknown"))
          throw new Error("cannot tell whether the cluster is connected");`,
      ),
      async () => {
        const checked = await check();
        expect(checked.code).toBe(1);
        expect(checked.stderr).toMatch(
          /MultiKueueCluster\.kueue\.x-k8s\.io v1beta1 -> v1beta2 -> v1beta1( \(a partial object\))?: the converter refused an object the CRD's v1beta1 schema accepts, naming no declared reason \(it declares "both-sources", .*\): cannot tell whether the cluster is connected\n/,
        );
        expect(checked.stderr).toMatch(/\n {2}object: \{.*"status":"Unknown"/);
        const test = await npmTest();
        expect(test.code).not.toBe(0);
        expect(test.stdout + test.stderr).toContain("cannot tell whether the cluster is connected");
      },
    ));

  it("three independent slips at once are all named by one check run", () =>
    withConverters(
      (source) =>
        [
          // Status left behind on the way up.
          replacing(
            "const out: V1beta2 = { ...rest, ...(status !== undefined ? { status } : {}) };",
            "const out: V1beta2 = { ...rest };",
          ),
          // The cluster profile forgotten on the way down.
          replacing("        if (clusterProfileRef !== undefined) out.clusterProfileRef = clusterProfileRef;\n", ""),
          // The kubeConfig's type forgotten on the way down.
          replacing(
            "if (kubeConfig !== undefined) out.kubeConfig = kubeConfig;",
            "if (kubeConfig !== undefined) out.kubeConfig = { location: kubeConfig.location };",
          ),
        ].reduce((text, slip) => slip(text), source),
      async () => {
        const checked = await check();
        expect(checked.code).toBe(1);
        expect(checked.stderr).toMatch(/not the same after the round trip: status(\.conditions)? was /);
        expect(checked.stderr).toMatch(/clusterProfileRef/);
        expect(checked.stderr).toMatch(/spec(\.clusterSource)?\.kubeConfig\.locationType/);
        expect(checked.stderr).toMatch(/\nMultiKueueCluster\.kueue\.x-k8s\.io: [3-9]\d* findings/);
      },
    ));
});
