import { createServer } from "node:http";
import { convertBody } from "./convert-body";

// The comparison server: bare node:http doing parse + the same conversion + stringify, with
// none of crdshift's HTTP layer (no routing, token, limits or content-type checks).
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
