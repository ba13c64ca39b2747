import type { ApiserverVerdict } from "../../kube/apiserver";
import { showValue } from "../../json";
import { compareVerdicts } from "../../compare";
import { type SideResult, type ReviewRequest, redactUrl, reviewRequest } from "../webhook-call";
import { error, type Finding, warning } from "./finding";

/** A review to send, with the registry's own answer to it: what the webhook should reply. */
export interface Planned {
  request: ReviewRequest;
  expected: ApiserverVerdict;
}

/** Objects the registry converts come first: a refusal proves less about the webhook. */
export async function chooseReviews(
  objects: unknown[],
  desired: string,
  reviewVersion: "v1" | "v1beta1",
  convert: (request: ReviewRequest) => Promise<SideResult>,
  count: number,
): Promise<Planned[]> {
  const planned: Planned[] = [];
  for (const object of objects) {
    const request = reviewRequest(desired, [object], reviewVersion);
    planned.push({ request, expected: (await convert(request)).verdict });
  }
  return [...planned.filter((plan) => plan.expected.ok), ...planned.filter((plan) => !plan.expected.ok)].slice(
    0,
    count,
  );
}

/** The live answer against the registry's own: a rejection is an error, another answer a warning. */
export function judgeReply(
  result: SideResult,
  expected: ApiserverVerdict,
  from: string,
  to: string,
): Finding | undefined {
  const pair = `${from} → ${to}`;
  const comparison = compareVerdicts(result.verdict, expected);
  const redirect = result.location
    ? ` (the reply is a redirect to ${redactUrl(result.location)}: put the final URL in the CRD)`
    : "";
  switch (comparison.outcome) {
    case "same":
      return undefined;
    case "both-failed":
      return comparison.baseline === comparison.candidate
        ? undefined
        : differs(
            `${pair}: the webhook failed with "${comparison.baseline}", the registry with "${comparison.candidate}"`,
          );
    case "baseline-failed":
      return error(
        "reply-rejected",
        `${pair}: the apiserver would fail the conversion: ${comparison.baseline}${redirect}`,
        "make the URL serve this registry (deploy it), and check that nothing in front of it (proxy, auth, path token) changes the request or the reply",
      );
    case "candidate-failed":
      return differs(`${pair}: the webhook converted an object the registry refuses (${comparison.candidate})`);
    case "different": {
      const first = comparison.differences[0]!;
      const more = comparison.differences.length > 1 ? ` and ${comparison.differences.length - 1} more` : "";
      return differs(
        `${pair}: the webhook's result differs from the registry's at ${first.path}: ${shown(first.baseline)} from the webhook, ${shown(first.candidate)} from the registry${more}`,
      );
    }
  }
}

function differs(message: string): Finding {
  return warning(
    "differs-from-registry",
    `${message}: the deployed webhook is not running this registry`,
    "deploy the current registry, or run crdshift diff --against URL to see every difference first",
  );
}

function shown(value: unknown): string {
  return showValue(value);
}
