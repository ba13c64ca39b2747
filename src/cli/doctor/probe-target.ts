import { webhookUrlError } from "../crd-command";
import { redactUrl } from "../webhook-call";
import type { CrdConfig } from "./crd-config";
import type { Result } from "../../outcome";
import { error, type Finding, info } from "./finding";

/** The URL to probe, with what is to be said of it first; or, in `skip`, why it is not probed. */
export type ProbeTarget = Result<{ target: URL; found: Finding[] }, { skip: Finding[] }>;

/**
 * Whether a URL is probed: the apiserver calls only https URLs it accepts, so any other is
 * reported instead (plain http only with --allow-http, for a local server). A URL from --url
 * is judged here; the CRD's own was judged by the static checks.
 */
export function probeTarget(
  crd: CrdConfig,
  options: { url: string; fromFlag: boolean; allowHttp: boolean },
): ProbeTarget {
  const shown = redactUrl(options.url);
  const found: Finding[] = [];
  let target: URL;
  try {
    target = new URL(options.url);
  } catch {
    return {
      ok: false,
      skip: [
        error(
          "probe-url-invalid",
          `--url ${JSON.stringify(options.url)} is not a URL`,
          "give the webhook's URL: https://HOST/convert/<token>",
        ),
      ],
    };
  }
  const invalid = webhookUrlError(options.url);
  if (target.protocol === "http:") {
    if (!options.allowHttp) {
      return {
        ok: false,
        skip: [
          error(
            "http-url",
            `${shown} is plain http, which the apiserver never calls ('https' is the only allowed URL scheme); not probed`,
            "serve the webhook over https; to probe a local server anyway, add --allow-http",
          ),
        ],
      };
    }
    if (options.fromFlag) {
      found.push(
        error(
          "http-url",
          `${shown} is plain http: the apiserver calls only https URLs; probed only because of --allow-http`,
          "serve the webhook over https (Workers and Lambda function URLs are) and put that URL in the CRD",
        ),
      );
    }
  } else if (invalid) {
    return {
      ok: false,
      skip: options.fromFlag
        ? [
            error(
              "probe-url-invalid",
              `--url: ${invalid}`,
              "give the webhook's URL as the apiserver takes it: https://host[/path]",
            ),
          ]
        : [info("probe-skipped", "not probed: the CRD's url is one the apiserver refuses (see url-invalid)")],
    };
  }
  if (options.fromFlag && crd.url !== undefined && crd.url !== options.url)
    found.push(info("probe-url", `probed ${shown}, not the CRD's url ${redactUrl(crd.url)}`));

  return { ok: true, target, found };
}
