import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, inject, it, vi } from "vitest";
import { decodeJson } from "../../src/json/codec";
import { checkReply, type SentReview } from "../../src/kube/apiserver/apiserver-checks";
import { DEEP_TREES, deepConverted, deepReview } from "../deep-reviews";
import { emfProblems } from "../metrics/emf-spec";
import { MetricsRecorder } from "../metrics/recorder";
import { functionUrlEvent, LAMBDA_BUNDLE, LAMBDA_NODE, LambdaHost } from "./lambda";

/** The built Lambda bundle (build/lambda/index.mjs), in a node process, invoked with function URL events. */
const TOKEN = "lambda-test-token-0123456789";
const NEXT = "lambda-next-token-9876543210";
const read = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../examples/requests/${name}`, import.meta.url), "utf8"));

// The environment the CDK construct sets (crdshift/aws-cdk): no body or reply limit, so the
// 6 MiB cases below hold for the handler's own defaults, however it is deployed.
const lambda = new LambdaHost({
  CRDSHIFT_TOKEN: TOKEN,
  CRDSHIFT_TOKEN_NEXT: NEXT,
  CRDSHIFT_BUDGET_MS: "24000",
});
afterAll(() => lambda.stop());

const path = `/convert/${TOKEN}`;

describe("the built Lambda bundle behind a function URL", () => {
  // In the lambda-runtime project: the major of the runtime the construct deploys (nodejs22.x).
  it.runIf(inject("lambdaNode") !== undefined)("runs on the Lambda runtime's Node major", () => {
    const construct = readFileSync(new URL("../../src/platforms/aws-cdk/aws-cdk.ts", import.meta.url), "utf8");
    const major = /Runtime\.NODEJS_(\d+)_X/.exec(construct)?.[1];
    const version = spawnSync(LAMBDA_NODE, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim();
    expect(version.split(".")[0]).toBe(major);
  });

  for (const version of ["v1", "v1beta1"]) {
    it(`converts the docs page's ${version} request; the apiserver would accept the reply`, async () => {
      const sent = read(`docs-${version}.json`) as SentReview;
      const result = await lambda.invoke(functionUrlEvent({ path, body: `${JSON.stringify(sent)}\n` }));
      expect(result.statusCode).toBe(200);
      expect(result.isBase64Encoded).toBe(false); // JSON travels as text, not base64
      expect(result.headers["content-type"]).toBe("application/json");
      expect(checkReply(sent, result.statusCode, result.body)).toMatchObject({ ok: true });
      expect(JSON.parse(result.body)).toEqual(read(`docs-${version}.response.json`));
    });
  }

  it("decodes a base64-encoded body", async () => {
    const sent = read("docs-v1.json");
    const result = await lambda.invoke(functionUrlEvent({ path, body: JSON.stringify(sent), base64: true }));
    expect(JSON.parse(result.body)).toEqual(read("docs-v1.response.json"));
  });

  it("reads a text body that starts with a UTF-8 byte order mark as Node and Workers do", async () => {
    const result = await lambda.invoke(
      functionUrlEvent({ path, body: `\uFEFF${JSON.stringify(read("docs-v1.json"))}` }),
    );
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual(read("docs-v1.response.json"));
  });

  it("accepts the next token too", async () => {
    const result = await lambda.invoke(
      functionUrlEvent({ path: `/convert/${NEXT}`, body: JSON.stringify(read("docs-v1.json")) }),
    );
    expect(result.statusCode).toBe(200);
  });

  it("replies Failure naming the object", async () => {
    const sent = read("docs-v1.json");
    sent.request.objects[0].hostPort = ":80";
    const result = await lambda.invoke(functionUrlEvent({ path, body: JSON.stringify(sent) }));
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).response.result).toEqual({
      status: "Failure",
      message:
        "object 0 (default/local-crontab, uid 3415a7fc-162b-4300-b5da-fd6083580d66) CronTab example.com/v1beta1 -> example.com/v1: hostPort could not be parsed into a separate host and port",
    });
  });

  const refused: Array<[string, Parameters<typeof functionUrlEvent>[0], number]> = [
    ["malformed JSON", { path, body: "{" }, 400],
    ["not a review", { path, body: '{"apiVersion":"v1","kind":"Status"}' }, 400],
    ["a form body", { path, body: "a=b", contentType: "application/x-www-form-urlencoded" }, 415],
    ["GET", { path, method: "GET" }, 405],
    ["no token", { path: "/convert", body: "{}" }, 404],
    ["a wrong token", { path: "/convert/lambda-test-token-0123456780", body: "{}" }, 404],
    ["the token as a query instead of a path", { path: "/convert", query: `token=${TOKEN}`, body: "{}" }, 404],
  ];
  for (const [name, init, status] of refused) {
    it(`refuses ${name} with ${status}`, async () => {
      const result = await lambda.invoke(functionUrlEvent(init));
      expect(result.statusCode).toBe(status);
      expect(Object.keys(JSON.parse(result.body))).toEqual(["error"]);
    });
  }

  it("converts a review just under the 6 MB function URL limit, and refuses one just over it", async () => {
    const object = (i: number) => ({
      apiVersion: "example.com/v1beta1",
      kind: "CronTab",
      metadata: {
        name: `crontab-${i}`,
        namespace: "default",
        uid: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
        labels: { app: "crontab" },
      },
      hostPort: `host-${i}.example.com:${1000 + (i % 50000)}`,
      status: { phase: "Running", note: "x".repeat(400) },
    });
    const review = (n: number) => ({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: {
        uid: "big",
        desiredAPIVersion: "example.com/v1",
        objects: Array.from({ length: n }, (_, i) => object(i)),
      },
    });
    // AWS counts the event, where the body is an escaped JSON string: fill that to 6 MB less 200 KB.
    const eventBytes = (n: number) =>
      JSON.stringify(functionUrlEvent({ path, body: JSON.stringify(review(n)) })).length;
    const perObject = (eventBytes(1000) - eventBytes(0)) / 1000;
    const fits = Math.floor((6 * 1024 * 1024 - 200_000 - eventBytes(0)) / perObject);
    expect(eventBytes(fits)).toBeLessThan(6 * 1024 * 1024);
    expect(eventBytes(fits)).toBeGreaterThan(6 * 1024 * 1024 - 250_000);
    const under = JSON.stringify(review(fits));
    const ok = await lambda.invoke(functionUrlEvent({ path, body: under }));
    expect(ok.statusCode).toBe(200);
    const reply = JSON.parse(ok.body);
    expect(reply.response.result.status).toBe("Success");
    expect(reply.response.convertedObjects).toHaveLength(fits);

    const overBody = JSON.stringify(review(Math.ceil((6 * 1024 * 1024 * fits) / under.length) + 10));
    expect(overBody.length).toBeGreaterThan(6 * 1024 * 1024);
    const over = await lambda.invoke(functionUrlEvent({ path, body: overBody }));
    expect(over.statusCode).toBe(413);
  });

  for (const [name, tree] of DEEP_TREES) {
    it(`converts ${name}, as deep as the apiserver stores them`, async () => {
      const body = deepReview(tree);
      const result = await lambda.invoke(functionUrlEvent({ path, body }));
      expect(result.statusCode).toBe(200);
      expect(checkReply(decodeJson(body).value as SentReview, result.statusCode, result.body)).toMatchObject({
        ok: true,
      });
      expect(result.body).toContain(`"convertedObjects":[${deepConverted(tree)}]`);
    });
  }

  it("fails cleanly when the converted reply would not fit in the 6 MB response", async () => {
    // Quotes are written \" in the body and \\\" once Lambda embeds the reply in its result:
    // a 6 MB body of them makes a 12 MB reply, which must not reach the platform's cap.
    const objects = Array.from({ length: 10 }, (_, i) => ({
      apiVersion: "example.com/v1alpha1",
      kind: "CronTab",
      metadata: { name: `c${i}` },
      endpoint: "h:1",
      status: { note: '"'.repeat(300_000) },
    }));
    const body = JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: { uid: "u", desiredAPIVersion: "example.com/v1", objects },
    });
    expect(body.length).toBeLessThan(6 * 1024 * 1024);
    const result = await lambda.invoke(functionUrlEvent({ path, body }));
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).response.result.message).toMatch(
      /^the converted 10 objects make a reply of more than 6275072 bytes/,
    );
  });

  it("logs a failed review in one line, with no token and no object contents; successful ones not", async () => {
    const failing = { ...read("docs-v1.json") };
    failing.request = { ...failing.request, uid: "failing-review-uid", desiredAPIVersion: "example.com/v9" };
    await lambda.invoke(functionUrlEvent({ path, body: JSON.stringify(read("docs-v1.json")) }));
    await lambda.invoke(functionUrlEvent({ path, body: JSON.stringify(failing) }));
    const failedLine = (l: any) =>
      l.msg === "review converted" && l.uid === "failing-review-uid" && l.objects === 2 && l.result === "failure";
    const parsed = () =>
      lambda.stderr
        .trim()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l));
    await vi.waitFor(() => expect(parsed().some(failedLine)).toBe(true), { timeout: 10_000, interval: 20 });
    const out = lambda.stderr;
    const lines = parsed();
    // Successful reviews are counted by the metrics (EMF), not logged line by line: the
    // successful review came first, so its line would be in already.
    expect(lines.some((l) => l.msg === "review converted" && l.result === "success")).toBe(false);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(NEXT);
    expect(out).not.toContain("localhost:1234");
  });

  it("writes metrics as bare EMF lines on stdout by default, which CloudWatch Logs can extract", async () => {
    await lambda.invoke(functionUrlEvent({ path, body: JSON.stringify(read("docs-v1.json")) }));
    const reviewDoc = () =>
      lambda.stdout
        .trim()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line))
        .find((doc) => doc.ReviewLatency !== undefined && doc.From === "v1beta1");
    await vi.waitFor(() => expect(reviewDoc()).toBeDefined(), { timeout: 10_000, interval: 20 });
    const lines = lambda.stdout.trim().split("\n");
    for (const line of lines) expect(emfProblems(line)).toEqual([]);
    const review = reviewDoc();
    expect(review).toMatchObject({
      CRD: "CronTab.example.com",
      From: "v1beta1",
      To: "v1",
      Result: "success",
      ObjectsConverted: 2,
    });
    expect(review._aws.CloudWatchMetrics.map((d: { Namespace: string }) => d.Namespace)).toEqual([
      "crdshift",
      "crdshift",
    ]);
    expect(lambda.stdout).not.toContain(TOKEN);
  });
});

describe("the built Lambda bundle with a traced request", () => {
  const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  const reviewLine = (host: LambdaHost, uid: string) =>
    host.stderr
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === "review converted" && line.uid === uid);
  const failing = (uid: string) => {
    const sent = read("docs-v1.json");
    return JSON.stringify({ ...sent, request: { ...sent.request, uid, desiredAPIVersion: "example.com/v9" } });
  };

  it("logs the apiserver's trace ids and the invocation's X-Ray trace id from the event", async () => {
    const headers = { traceparent: TRACEPARENT };
    await lambda.invoke(functionUrlEvent({ path, body: failing("traced-review"), headers }));
    await vi.waitFor(() => expect(reviewLine(lambda, "traced-review")).toBeDefined(), {
      timeout: 10_000,
      interval: 20,
    });
    expect(reviewLine(lambda, "traced-review")).toMatchObject({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      xrayTraceId: "1-673f1b2c-9f8e7d6c5b4a39281706f5e4",
    });
  });

  it("takes the X-Ray trace id the runtime sets for the invocation first", async () => {
    const host = new LambdaHost({
      CRDSHIFT_LOG_REVIEWS: "all",
      _X_AMZN_TRACE_ID: "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1",
    });
    try {
      await host.invoke(functionUrlEvent({ path: "/convert", body: failing("runtime-traced") }));
      await vi.waitFor(() => expect(reviewLine(host, "runtime-traced")).toBeDefined(), {
        timeout: 10_000,
        interval: 20,
      });
      const line = reviewLine(host, "runtime-traced");
      expect(line.xrayTraceId).toBe("1-5759e988-bd862e3fe1be46a994272793");
      expect(line).not.toHaveProperty("traceId");
    } finally {
      await host.stop();
    }
  });
});

describe("the built Lambda bundle with CRDSHIFT_ALLOWED_SOURCES", () => {
  it("answers callers from allowed networks only, by the function URL's requestContext.http.sourceIp", async () => {
    const restricted = new LambdaHost({ CRDSHIFT_TOKEN: TOKEN, CRDSHIFT_ALLOWED_SOURCES: "203.0.113.0/24" });
    try {
      const body = JSON.stringify(read("docs-v1.json"));
      expect((await restricted.invoke(functionUrlEvent({ path, body, sourceIp: "203.0.113.7" }))).statusCode).toBe(200);
      expect((await restricted.invoke(functionUrlEvent({ path, body, sourceIp: "198.51.100.1" }))).statusCode).toBe(
        404,
      );
      // X-Forwarded-For is whatever the client wrote: it does not count.
      const forged = functionUrlEvent({ path, body, sourceIp: "198.51.100.1" });
      forged.headers["x-forwarded-for"] = "203.0.113.7";
      expect((await restricted.invoke(forged)).statusCode).toBe(404);
    } finally {
      await restricted.stop();
    }
  });
});

describe("the built Lambda bundle and the function's memory", () => {
  // About 1.5 MiB of `{}` items: a tree of over 100 MiB, more than a 128 MB function has.
  const dense = () => {
    const review = read("docs-v1.json") as { request: { objects: Record<string, unknown>[] } };
    const object = review.request.objects[0]!;
    review.request.objects = [{ ...object, items: new Array(500_000).fill({}) }];
    return JSON.stringify(review);
  };

  it("admits what a function given 128 MB can hold, refusing a denser review by name, and converts it given 512 MB", async () => {
    const body = dense();
    for (const [memory, status] of [
      ["128", "Failure"],
      ["512", "Success"],
    ] as const) {
      const host = new LambdaHost({ CRDSHIFT_TOKEN: TOKEN, AWS_LAMBDA_FUNCTION_MEMORY_SIZE: memory });
      try {
        const result = await host.invoke(functionUrlEvent({ path, body }));
        expect(result.statusCode).toBe(200);
        const { response } = JSON.parse(result.body!);
        expect(response.result.status, memory).toBe(status);
        if (status === "Failure") expect(response.result.message).toContain("CRDSHIFT_MAX_BYTES_IN_FLIGHT");
      } finally {
        await host.stop();
      }
    }
  });
});

describe("the built Lambda bundle with metrics to CloudWatch through PutMetricData", () => {
  it("loads the SDK only when configured, and sends the review's metrics with the function's credentials", async () => {
    const bundle = readFileSync(LAMBDA_BUNDLE, "utf8");
    // One dynamic import, left external: the runtime's SDK, loaded by the PutMetricData sink only.
    // (A message names it too, in a string.)
    expect(bundle.match(/import\("@aws-sdk\/client-cloudwatch"\)\.catch\(/g)).toHaveLength(1);

    const recorder = await new MetricsRecorder().start();
    // What Lambda puts in the environment of a function with a role, plus the stack's choice.
    const metered = new LambdaHost({
      CRDSHIFT_TOKEN: TOKEN,
      CRDSHIFT_METRICS: "cloudwatch",
      CRDSHIFT_METRICS_ENDPOINT: recorder.url,
      AWS_REGION: "ap-northeast-1",
      AWS_ACCESS_KEY_ID: "ASIALAMBDAROLE",
      AWS_SECRET_ACCESS_KEY: "role-secret",
      AWS_SESSION_TOKEN: "role-session",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    });
    try {
      const result = await metered.invoke(functionUrlEvent({ path, body: JSON.stringify(read("docs-v1.json")) }));
      expect(JSON.parse(result.body)).toEqual(read("docs-v1.response.json"));
      const [call] = await recorder.received(1);
      expect(call!.headers.authorization).toContain("Credential=ASIALAMBDAROLE/");
      expect(call!.headers["x-amz-security-token"]).toBe("role-session");
      // Latency overall and per CRD, from, to and result.
      expect(call!.body.MetricData.map((d) => d.MetricName).sort()).toEqual([
        "ObjectsConverted",
        "ReviewLatency",
        "ReviewLatency",
      ]);
    } finally {
      await metered.stop();
      await recorder.stop();
    }
  });
});

describe("the built Lambda bundle and Lambda's remaining time", () => {
  it("fails cleanly when the invocation has almost no time left", async () => {
    const result = await lambda.invoke(functionUrlEvent({ path, body: JSON.stringify(read("docs-v1.json")) }), 300);
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).response.result.message).toBe(
      "conversion budget of 0 ms exceeded after 0 of 2 objects (CronTab example.com/v1beta1 -> example.com/v1)",
    );
  });
});

describe("the built Lambda bundle on a cold start", () => {
  /** Runs `code` in a fresh node process after importing the bundle as `handler`; its stderr. */
  const freshProcess = (code: string) =>
    spawnSync(
      LAMBDA_NODE,
      [
        "--input-type=module",
        "-e",
        `const { handler } = await import(${JSON.stringify(pathToFileURL(LAMBDA_BUNDLE).href)});\n${code}`,
      ],
      {
        env: { PATH: process.env.PATH ?? "", CRDSHIFT_TOKEN: TOKEN },
        encoding: "utf8",
      },
    ).stderr;

  it("answers its first review without loading Node's fetch implementation (undici: 30-45 ms of a cold start)", () => {
    const event = functionUrlEvent({ path, body: JSON.stringify(read("docs-v1.json")) });
    const stderr = freshProcess(`
      const result = await handler(${JSON.stringify(event)}, { getRemainingTimeInMillis: () => 25000 });
      const loaded = process.moduleLoadList.filter((m) => m.includes("undici"));
      process.stderr.write(JSON.stringify({ status: result.statusCode, converted: result.body.includes('"Success"'), loaded }));`);
    expect(stderr).toBe(JSON.stringify({ status: 200, converted: true, loaded: [] }));
  });

  it("refuses an event that is not a function URL's, saying what it takes", () => {
    const stderr = freshProcess(`
      await handler({ httpMethod: "POST", path: "/convert", body: "{}" }, { getRemainingTimeInMillis: () => 25000 }).catch((e) => process.stderr.write(e.message));`);
    expect(stderr).toContain("takes function URL events (payload format 2.0");
  });
});

describe("the built Lambda bundle with a bad configuration", () => {
  it("answers 500 without saying the value, and logs why", async () => {
    const broken = new LambdaHost({ CRDSHIFT_TOKEN: "short" });
    const result = await broken.invoke(functionUrlEvent({ path: "/convert/short", body: "{}" }));
    const out = (await broken.stop()).stderr;
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body)).toEqual({ error: "crdshift is misconfigured; see the function's logs" });
    expect(out).toContain("CRDSHIFT_TOKEN must be 16 to 256 characters");
  });
});
