/** The ways instructions-child.ts does a single-object review, each counted per review. */
export const MODES = ["floor", "engine", "app", "app-no-log"] as const;
export type Mode = (typeof MODES)[number];
