import { createServer } from "node:http";
import { cronTabExample } from "../examples/kinds/crontab.example.com";
import { refuse } from "crdshift";

// The twenty-line webhook a user would write instead of crdshift: read the body, JSON.parse,
// run the docs-page CronTab's own v1beta1 -> v1 converter on each object, JSON.stringify the
// reply. No token, no limits, no checks, no log line: the peer of `npm run bench`'s HTTP ratio.
const steps = cronTabExample.route("v1beta1", "v1")!;
const context = { group: "example.com", kind: "CronTab", from: "v1beta1", to: "v1", refuse };
createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => (body += chunk));
  req.on("end", () => {
    if (req.method !== "POST") return void res.end("ok");
    const review = JSON.parse(body);
    const convertedObjects = review.request.objects.map((object: Record<string, unknown>) => {
      for (const step of steps) object = step.convert(object, context) as Record<string, unknown>;
      return Object.assign(object, { apiVersion: review.request.desiredAPIVersion });
    });
    const response = { uid: review.request.uid, result: { status: "Success" }, convertedObjects };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: "ConversionReview", response }));
  });
}).listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => process.exit(0)); // an orderly exit, so node --cpu-prof writes its profile
