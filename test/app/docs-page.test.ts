import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { convertOk, post, testApp } from "../helpers";

const read = (name: string) => readFileSync(new URL(`../../examples/requests/${name}`, import.meta.url), "utf8");

describe("the Kubernetes docs page's ConversionReview", () => {
  for (const version of ["v1", "v1beta1"]) {
    it(`answers the ${version} request with the docs page's response, in the same review version`, async () => {
      const { app } = testApp();
      const sent = JSON.parse(read(`docs-${version}.json`));
      const { reply } = await convertOk(app, sent);
      // The docs' v1beta1 tab says "Failed" in its success example, a known typo: the
      // apiserver only accepts "Success", so the expected file says so.
      expect(reply).toEqual(JSON.parse(read(`docs-${version}.response.json`)));
    });
  }

  it("accepts the request exactly as the apiserver writes it: sorted keys, pre-filled response, trailing newline", async () => {
    const { app } = testApp();
    const body =
      '{"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1","request":{"uid":"u-1","desiredAPIVersion":"example.com/v1",' +
      '"objects":[{"apiVersion":"example.com/v1beta1","hostPort":"localhost:1234","kind":"CronTab","metadata":{"name":"a","namespace":"default","uid":"x"}}]},' +
      '"response":{"uid":"","convertedObjects":null,"result":{"metadata":{}}}}\n';
    const res = await post(app, body);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    const reply = await res.json();
    expect(reply.response).toEqual({
      uid: "u-1",
      result: { status: "Success" },
      convertedObjects: [
        {
          apiVersion: "example.com/v1",
          kind: "CronTab",
          metadata: { name: "a", namespace: "default", uid: "x" },
          host: "localhost",
          port: "1234",
        },
      ],
    });
  });

  it("fails the docs page's way when hostPort has no port, naming the object", async () => {
    const { app } = testApp();
    const sent = JSON.parse(read("docs-v1.json"));
    sent.request.objects[1].hostPort = "example.com";
    const res = await post(app, JSON.stringify(sent));
    const reply = await res.json();
    expect(res.status).toBe(200);
    expect(reply).toEqual({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      response: {
        uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
        result: {
          status: "Failure",
          message:
            "object 1 (remote-crontab, uid 359a83ec-b575-460d-b553-d859cedde8a0) CronTab example.com/v1beta1 -> example.com/v1: hostPort could not be parsed into a separate host and port",
        },
      },
    });
  });
});
