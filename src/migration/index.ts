export { connectCluster, type Cluster, type ClusterOptions } from "./cluster";
export { MigrationError, type MigrationErrorCode } from "./cluster-errors";
export { assertReady, assertServed, migrateCrd, type MigrateOptions, type MigrateResult } from "./migrate-crd";
export { countObjects } from "./list-pages";
export { crdsToMigrate, readStorageState, type StorageState } from "./storage-state";
export { servedMigrationApi } from "./storage-version-migration";
export type { RewriteCounts } from "./rewrite-objects";
