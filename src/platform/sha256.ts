import { createHash } from "node:crypto";

/** SHA-256 as hex from node:crypto, for the token comparison (see AppOptions.tokenHash). */
export const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");
