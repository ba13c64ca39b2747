import { isJsonObject } from "../../json";
import { UsageError } from "../io";

/**
 * The webhook URLs a CrdshiftWebhook stack outputs, as deployed: `<id>UrlPrefix` is the function
 * URL on the alias (the one CRDs should use) when `<id>AliasName` is beside it, and
 * `<id>UnversionedUrlPrefix` the function's own URL that `keepUnversionedUrl` keeps. A stack
 * made by crdshift 0.1 has no `<id>AliasName`: its `<id>UrlPrefix` is the function's own URL.
 * The template cannot say which is which: a function URL's host is made when it is deployed.
 */
export interface StackUrls {
  /** `https://<id>.lambda-url.<region>.on.aws/convert/` of each alias URL. */
  alias: string[];
  unversioned: string[];
}

/**
 * Reads the file `cdk deploy --outputs-file FILE` writes (`{ "<stack>": { "<key>": "<value>" } }`)
 * or the output of `aws cloudformation describe-stacks` (`{ "Stacks": [{ "Outputs": [{ "OutputKey",
 * "OutputValue" }] }] }`).
 */
export function readStackUrls(text: string, name: string): StackUrls {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new UsageError(`${name}: not JSON (give the file of cdk deploy --outputs-file, or describe-stacks' output)`);
  }
  const urls: StackUrls = { alias: [], unversioned: [] };
  for (const stack of stacks(document)) {
    for (const [key, value] of stack) {
      if (typeof value !== "string") continue;
      if (key.endsWith("UnversionedUrlPrefix")) urls.unversioned.push(value);
      else if (key.endsWith("UrlPrefix")) {
        const onAlias = stack.has(`${key.slice(0, -"UrlPrefix".length)}AliasName`);
        (onAlias ? urls.alias : urls.unversioned).push(value);
      }
    }
  }
  if (urls.alias.length === 0 && urls.unversioned.length === 0)
    throw new UsageError(`${name}: no output named <id>UrlPrefix: is it the outputs of a CrdshiftWebhook stack?`);
  return urls;
}

/** Each stack's outputs, by key. */
function stacks(document: unknown): Map<string, unknown>[] {
  if (!isJsonObject(document)) return [];
  if (Array.isArray(document.Stacks)) {
    return document.Stacks.map(
      (stack: unknown) =>
        new Map(
          isJsonObject(stack) && Array.isArray(stack.Outputs)
            ? stack.Outputs.flatMap((output: unknown) =>
                isJsonObject(output) && typeof output.OutputKey === "string"
                  ? [[output.OutputKey, output.OutputValue] as [string, unknown]]
                  : [],
              )
            : [],
        ),
    );
  }
  return Object.values(document).map((stack) => new Map(isJsonObject(stack) ? Object.entries(stack) : []));
}
