import { type Crd, readCrds } from "../kube/crd";
import { readTextFile, UsageError } from "./io";

/**
 * A CRD file's text and its CustomResourceDefinitions; what is wrong with it is a usage error
 * (UsageError, or crd-document.ts's CrdReadError), naming the file as the user wrote it (`name`).
 */
export function readCrdFile(path: string, name = path): { text: string; crds: Crd[] } {
  if (path === "-") throw new UsageError("--crd takes a file, not standard input");
  const text = readTextFile(path, name);
  return { text, crds: readCrds(text, name) };
}
