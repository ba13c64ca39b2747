import { UsageError } from "../io";

/**
 * The webhook URLs a CrdshiftWebhook stack outputs, as deployed: `<id>UrlPrefix` is the function
 * URL on the alias (the one CRDs should use), `<id>UnversionedUrlPrefix` the function's own URL
 * that `keepUnversionedUrl` keeps. The template alone cannot say: a function URL's host is made
 * when it is deployed, and nothing in it tells an alias's URL from the function's.
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
  for (const [key, value] of outputs(document)) {
    if (typeof value !== "string") continue;
    if (key.endsWith("UnversionedUrlPrefix")) urls.unversioned.push(value);
    else if (key.endsWith("UrlPrefix")) urls.alias.push(value);
  }
  if (urls.alias.length === 0)
    throw new UsageError(`${name}: no output named <id>UrlPrefix: is it the outputs of a CrdshiftWebhook stack?`);
  return urls;
}

function outputs(document: unknown): [string, unknown][] {
  if (!isObject(document)) return [];
  if (Array.isArray(document.Stacks)) {
    return document.Stacks.flatMap((stack: unknown) =>
      isObject(stack) && Array.isArray(stack.Outputs)
        ? stack.Outputs.flatMap((output: unknown) =>
            isObject(output) && typeof output.OutputKey === "string"
              ? [[output.OutputKey, output.OutputValue] as [string, unknown]]
              : [],
          )
        : [],
    );
  }
  return Object.values(document).flatMap((stack) => (isObject(stack) ? Object.entries(stack) : []));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
