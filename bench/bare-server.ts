import { createServer } from "node:http";
import { convertBody } from "./convert-body";

// crdshift's engine without its HTTP layer: bare node:http running the webhook's whole work on
// the body (every check of it included), with no routing, token, content-type or size checks,
// log line or metrics. The profile's step between the naive webhook and the server.
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    if (req.method !== "POST") return void res.writeHead(200).end("ok");
    convertBody(Buffer.concat(chunks).toString("utf8")).then((reply) => {
      res.writeHead(200, { "content-type": "application/json" }).end(reply);
    });
  });
});
server.listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => process.exit(0)); // an orderly exit, so node --cpu-prof writes its profile
