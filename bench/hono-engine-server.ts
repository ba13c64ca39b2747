import { createServer } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { convertBody } from "./convert-body";

// bare-server.ts's work in a one-route Hono app on @hono/node-server, as serve() hands requests
// to it: what Hono and the adapter add to a review, apart from what crdshift's app does in them
// (token, admission, bytes in flight, deadline, report). A step between bare-server.ts and npm start.
const app = new Hono();
app.post("/convert/:token", async (c) =>
  c.body(await convertBody(await c.req.text()), 200, { "Content-Type": "application/json" }),
);
createServer(getRequestListener(app.fetch, { hostname: "127.0.0.1" })).listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => process.exit(0)); // an orderly exit, so node --cpu-prof writes its profile
