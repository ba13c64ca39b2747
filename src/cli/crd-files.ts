import { type Crd, CrdReadError, readCrds } from "../openapi/crd-document";
import { readTextFile, UsageError } from "./io";

/**
 * A CRD file's text and its CustomResourceDefinitions; what is wrong with it is a usage error,
 * naming the file as the user wrote it (`name`).
 */
export function readCrdFile(path: string, name = path): { text: string; crds: Crd[] } {
  if (path === "-") throw new UsageError("--crd takes a file, not standard input");
  const text = readTextFile(path, name);
  try {
    return { text, crds: readCrds(text, name) };
  } catch (error) {
    if (error instanceof CrdReadError) throw new UsageError(error.message);
    throw error;
  }
}
