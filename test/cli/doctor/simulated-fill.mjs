// A watch cache's fill as the apiserver runs it, with nothing of crdshift's: N single-object
// reviews posted to a URL, C at once on kept-alive connections, each taken up as soon as one
// ends. Run in a process of its own, as doctor is, so that neither shares the server's event
// loop. Usage: node simulated-fill.mjs URL N C < body.json; prints the wall time in ms.
import * as http from "node:http";
import { text } from "node:stream/consumers";

const [url, objects, atOnce] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const body = await text(process.stdin);
const agent = new http.Agent({ keepAlive: true, maxSockets: atOnce });

const post = () =>
  new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      agent,
      headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
    });
    req.on("response", (res) => {
      let reply = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (reply += chunk));
      res.on("end", () =>
        res.statusCode === 200 && reply.includes('"status":"Success"')
          ? resolve()
          : reject(new Error(`${res.statusCode}: ${reply.slice(0, 200)}`)),
      );
    });
    req.on("error", reject);
    req.end(body);
  });

let started = 0;
const caller = async () => {
  while (started < objects) {
    started++;
    await post();
  }
};
const from = performance.now();
await Promise.all(Array.from({ length: atOnce }, caller));
process.stdout.write(`${performance.now() - from}\n`);
agent.destroy();
