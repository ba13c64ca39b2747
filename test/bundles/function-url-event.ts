// Shared by the Lambda tests and the bench's cold start; nothing here may import vitest.
export const URL_HOST = "abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws";

/** A Lambda function URL event, payload format 2.0, as AWS documents it and the apiserver's POST arrives in one. */
export function functionUrlEvent(init: {
  path: string;
  body?: string;
  method?: string;
  query?: string;
  contentType?: string;
  base64?: boolean;
  sourceIp?: string;
  /** Headers beside the ones the apiserver and the function URL always send. */
  headers?: Record<string, string>;
}) {
  const query = init.query ?? "timeout=30s";
  const method = init.method ?? "POST";
  const body =
    init.body === undefined ? undefined : init.base64 ? Buffer.from(init.body).toString("base64") : init.body;
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: init.path,
    rawQueryString: query,
    headers: {
      "content-type": init.contentType ?? "application/json",
      ...(init.body === undefined ? {} : { "content-length": String(Buffer.byteLength(init.body)) }),
      accept: "application/json, */*",
      "accept-encoding": "gzip",
      "user-agent": "kube-apiserver-admission",
      host: URL_HOST,
      // Logged with every line: no value a test looks for in a line (the objects' port, 1234).
      "x-amzn-trace-id": "Root=1-673f1b2c-9f8e7d6c5b4a39281706f5e4",
      "x-forwarded-for": init.sourceIp ?? "203.0.113.7",
      "x-forwarded-port": "443",
      "x-forwarded-proto": "https",
      ...init.headers,
    },
    ...(query ? { queryStringParameters: Object.fromEntries(new URLSearchParams(query)) } : {}),
    requestContext: {
      accountId: "anonymous",
      apiId: URL_HOST.split(".")[0],
      domainName: URL_HOST,
      domainPrefix: URL_HOST.split(".")[0],
      http: {
        method,
        path: init.path,
        protocol: "HTTP/1.1",
        sourceIp: init.sourceIp ?? "203.0.113.7",
        userAgent: "kube-apiserver-admission",
      },
      requestId: "0f9c8b7a-1234-4cde-9abc-0123456789ab",
      routeKey: "$default",
      stage: "$default",
      time: "21/Nov/2026:12:00:00 +0000",
      timeEpoch: 1795262400000,
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded: init.base64 ?? false,
  };
}
