import { UsageError } from "../io";
import type { migrateCommand as runMigrate } from "./migrate-command";

export { MIGRATE_HELP, MIGRATE_OPTIONS } from "./migrate-usage";

/** The package migrate talks to the cluster with: an optional peer of crdshift's. */
const CLIENT = "@kubernetes/client-node";

/**
 * `crdshift migrate`, its cluster client loaded only when it runs: every other command starts
 * without it, and a project that never migrates need not install it (nor the @types/node it
 * brings into a project's dependencies).
 */
export async function migrateCommand(...args: Parameters<typeof runMigrate>): ReturnType<typeof runMigrate> {
  let command: typeof runMigrate;
  try {
    ({ migrateCommand: command } = await import("./migrate-command"));
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    if ((code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && String(message).includes(CLIENT))
      throw new UsageError(
        `crdshift migrate needs ${CLIENT} 1.x beside crdshift: npm install --save-dev ${CLIENT}@1.4.0`,
      );
    throw error;
  }
  return command(...args);
}
