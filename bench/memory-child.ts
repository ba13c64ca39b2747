import { readFileSync } from "node:fs";
import { convertBody, floor } from "./convert-body";

// One measurement per process: peak RSS of handling the body in argv[3] the argv[2] way.
const [mode, file] = process.argv.slice(2) as ["floor" | "crdshift", string];
const body = readFileSync(file, "utf8");
const reply = mode === "floor" ? floor(body) : await convertBody(body);
if (reply.length < body.length / 2) throw new Error("unexpected reply");
process.stdout.write(String(process.resourceUsage().maxRSS * 1024));
