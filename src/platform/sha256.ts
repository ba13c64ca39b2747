import * as crypto from "node:crypto";

type OneShotHash = (algorithm: string, data: string, encoding: "hex") => string;
// crypto.hash (Node 20.12+, 21.7+): a third of createHash's time on a short text, which is what
// a path token is; createHash where it is missing.
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;

/** SHA-256 as hex from node:crypto, for the token comparison (see AppOptions.tokenHash). */
export const sha256Hex: (text: string) => string = oneShot
  ? (text) => oneShot("sha256", text, "hex")
  : (text) => crypto.createHash("sha256").update(text).digest("hex");
