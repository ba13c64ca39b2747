import { randomUUID } from "node:crypto";

/** What the apiserver says when a conversion fails: a 500 whose message quotes the webhook. */
export class ConversionFailed extends Error {}

/**
 * One object converted as the apiserver converts it: a ConversionReview of that one object
 * POSTed to the webhook (crdshift's own Node server here), `Failure` turned into the
 * apiserver's message, `conversion webhook for <its group/version, Kind=…> failed: <message>`.
 */
export async function convertThroughWebhook(
  webhookUrl: string,
  object: Record<string, unknown>,
  desiredAPIVersion: string,
): Promise<Record<string, unknown>> {
  if (object.apiVersion === desiredAPIVersion) return object;
  const uid = randomUUID();
  const reply = await fetch(webhookUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: { uid, desiredAPIVersion, objects: [object] },
    }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await reply.json()) as {
    response?: { uid?: string; result?: { status?: string; message?: string }; convertedObjects?: unknown[] };
  };
  const response = body.response;
  // The apiserver names the object's own group, version and kind (webhook_converter.go).
  const failed = (why: string) =>
    new ConversionFailed(
      `conversion webhook for ${String(object.apiVersion)}, Kind=${String(object.kind)} failed: ${why}`,
    );
  if (reply.status !== 200 || response?.uid !== uid) throw failed(`HTTP ${reply.status}`);
  if (response.result?.status !== "Success") throw failed(response.result?.message ?? "no message");
  const converted = response.convertedObjects?.[0];
  if (typeof converted !== "object" || converted === null) throw failed("no converted object");
  return converted as Record<string, unknown>;
}
