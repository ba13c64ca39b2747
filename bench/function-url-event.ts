/**
 * A Lambda function URL event (payload format 2.0) as the apiserver's POST arrives in one, for
 * the cold start: the bench's own copy, so it needs nothing from the test suite.
 */
export function functionUrlEvent(path: string, body: string) {
  const host = "abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws";
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: path,
    rawQueryString: "timeout=30s",
    headers: {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
      accept: "application/json, */*",
      "user-agent": "kube-apiserver-admission",
      host,
      "x-forwarded-for": "203.0.113.7",
      "x-forwarded-port": "443",
      "x-forwarded-proto": "https",
    },
    queryStringParameters: { timeout: "30s" },
    requestContext: {
      accountId: "anonymous",
      apiId: host.split(".")[0],
      domainName: host,
      domainPrefix: host.split(".")[0],
      http: {
        method: "POST",
        path,
        protocol: "HTTP/1.1",
        sourceIp: "203.0.113.7",
        userAgent: "kube-apiserver-admission",
      },
      requestId: "0e1f2a3b-4c5d-6e7f-8091-a2b3c4d5e6f7",
      routeKey: "$default",
      stage: "$default",
      time: "21/Nov/2026:08:00:00 +0000",
      timeEpoch: 1_795_248_000_000,
    },
    body,
    isBase64Encoded: false,
  };
}
