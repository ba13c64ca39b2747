/** The ways instructions-child.ts does a single-object review (or its log line), each counted per call. */
export const MODES = ["floor", "engine", "log-line"] as const;
export type Mode = (typeof MODES)[number];
