import autocannon from "autocannon";

/** What a run of POSTs got back: every failure counted as one, latencies in ms. */
export interface PostsAnswered {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Connection errors, timeouts and non-2xx replies together: any of them fails a bench. */
  errors: number;
}

/**
 * POSTs `body` as JSON to `url` from `connections` connections for `seconds` with autocannon,
 * and sums up what came back: the one way every HTTP bench drives a server.
 */
export async function postWithAutocannon(
  url: string,
  body: string,
  connections: number,
  seconds: number,
): Promise<PostsAnswered> {
  const result = await autocannon({
    url,
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    connections,
    duration: seconds,
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}
