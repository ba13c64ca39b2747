import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reviewBody } from "./objects";
import { besideBench } from "./paths";
import { median } from "./stats";

const CHILD = besideBench("memory-child.mjs");

export interface Memory {
  objects: number;
  floorMiB: number;
  crdshiftMiB: number;
  ratio: number;
}

/** Peak RSS converting one big review, over the floor's peak RSS, in fresh processes. */
export function benchMemory(objects = 10_000, runs = 5): Memory {
  const file = join(mkdtempSync(join(tmpdir(), "crdshift-bench-")), "review.json");
  writeFileSync(file, reviewBody(objects));
  const measure = (mode: string) => {
    const out = spawnSync(process.execPath, [CHILD, mode, file], { encoding: "utf8" });
    if (out.status !== 0) throw new Error(out.stderr);
    return Number(out.stdout) / 2 ** 20;
  };
  const floor: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < runs; i++) (floor.push(measure("floor")), ours.push(measure("crdshift")));
  const floorMiB = median(floor);
  const crdshiftMiB = median(ours);
  return { objects, floorMiB, crdshiftMiB, ratio: crdshiftMiB / floorMiB };
}
