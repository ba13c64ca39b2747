import { webhookUrlError } from "../crd-command";
import type { CrdConfig } from "./crd-config";
import { type Finding, info, warning } from "./finding";
import type { StackUrls } from "./stack-outputs";

const FUNCTION_URL_HOST = /\.lambda-url\.[a-z0-9-]+\.on\.aws$/;

/**
 * Whether the CRD calls the stack's alias, from the stack's outputs (`--stack-outputs`): a CRD
 * still on the function's own URL reaches the latest code directly, so a bad version breaks
 * every read at once and no canary or rollback stands in its way.
 */
export function stackUrlChecks(crd: CrdConfig, urls: StackUrls): Finding[] {
  if (crd.url === undefined || webhookUrlError(crd.url)) return [];
  const host = new URL(crd.url).host;
  const path = `${crd.clientConfigPath}.url`;
  const fix =
    urls.alias[0] === undefined
      ? `deploy the stack with this crdshift, whose function URL is on an alias, then set ${path} to its new UrlPrefix output and the token (CHANGELOG: the move from 0.1)`
      : `set ${path} to the stack's UrlPrefix output and the token: ${urls.alias[0]}<token>`;
  if (urls.unversioned.some((prefix) => safeHost(prefix) === host)) {
    return [
      warning(
        "url-unversioned",
        `${path} is the function's own URL (${host}), not an alias's: it serves the latest code, so a new version reaches every read at once, with no canary and no rollback`,
        urls.alias[0] === undefined ? fix : `${fix}; once every CRD has moved, drop keepUnversionedUrl`,
      ),
    ];
  }
  if (urls.alias.some((prefix) => safeHost(prefix) === host))
    return [info("url-on-alias", `${path} is the stack's function URL on its alias (${host})`)];
  if (FUNCTION_URL_HOST.test(new URL(crd.url).hostname)) {
    return [
      warning(
        "url-not-in-stack",
        `${path} is a Lambda function URL (${host}) that the stack's outputs do not list: another stack's, or the function's own URL of crdshift 0.1, which the move to the alias removed`,
        fix,
      ),
    ];
  }
  return [];
}

function safeHost(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
