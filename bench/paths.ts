import { fileURLToPath } from "node:url";

// The bench runs bundled as build/bench/index.mjs: the repository is two folders up, and the
// helper scripts (children, the isolate) sit beside it.
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const inRepo = (path: string) => `${ROOT}${path}`;
export const besideBench = (file: string) => fileURLToPath(new URL(`./${file}`, import.meta.url));
