import type { Registry } from "../../conversion";
import {
  assertReady,
  assertServed,
  type Cluster,
  countObjects,
  MigrationError,
  readStorageState,
  servedMigrationApi,
} from "../../migration";
import { runDoctor } from "../doctor";
import type { CrdPlan } from "./migrate-report";

export interface PlanOptions {
  pageSize: number;
  useApi: boolean;
  expectedStorage: string | undefined;
  registry: () => Promise<Registry>;
  allowHttp: boolean;
}

/**
 * What a migration of one CRD would do, writing nothing: its storage state, its objects counted
 * by reading each in the version requests go through (which makes the apiserver convert every one stored
 * elsewhere, the same conversions the migration needs), the path it would take, and doctor's
 * findings about the CRD and its webhook when a registry is at hand.
 */
export async function planCrd(cluster: Cluster, name: string, options: PlanOptions): Promise<CrdPlan> {
  const state = await readStorageState(cluster, name);
  assertServed(state);
  const plan: CrdPlan = { state, blockers: [], webhook: [] };
  try {
    assertReady(state, options.expectedStorage);
  } catch (error) {
    if (!(error instanceof MigrationError)) throw error;
    plan.blockers.push(error.message);
  }
  try {
    plan.objects = await countObjects(cluster, state, options.pageSize);
  } catch (error) {
    if (!(error instanceof MigrationError) || error.code !== "conversion-failed") throw error;
    plan.blockers.push(
      `${error.message}: fix the webhook or the object before migrating (crdshift doctor, crdshift diff)`,
    );
  }
  if (state.stale.length > 0 && options.useApi) {
    const api = await servedMigrationApi(cluster);
    if (api !== undefined) plan.migrationApi = api;
  }
  plan.webhook = await doctorLines(state.crd.document, name, options);
  return plan;
}

async function doctorLines(document: Record<string, unknown>, name: string, options: PlanOptions): Promise<string[]> {
  let registry: Registry;
  try {
    registry = await options.registry();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return [`not checked by doctor (${why})`];
  }
  const report = await runDoctor(registry, [document], `the cluster's CRD ${name}`, { allowHttp: options.allowHttp });
  const findings = report.crds.flatMap((crd) => crd.findings).filter((finding) => finding.severity === "error");
  return [
    `doctor: ${report.errors} error${report.errors === 1 ? "" : "s"}, ${report.warnings} warning${report.warnings === 1 ? "" : "s"} (crdshift doctor for the details)`,
    ...findings.map((finding) => `doctor: ${finding.code}: ${finding.message}`),
  ];
}
