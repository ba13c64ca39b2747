import { readFileSync } from "node:fs";
import { CrdReadError, readCrds, type Crd } from "../openapi/crd-document";
import { UsageError } from "./io";

/**
 * A CRD file's text and its CustomResourceDefinitions; what is wrong with it is a usage error,
 * naming the file as the user wrote it (`name`).
 */
export function readCrdFile(path: string, name = path): { text: string; crds: Crd[] } {
  if (path === "-") throw new UsageError("--crd takes a file, not standard input");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return { text, crds: readCrds(text, name) };
  } catch (error) {
    if (error instanceof CrdReadError) throw new UsageError(error.message);
    throw error;
  }
}
