import { benchInt64, hasSourceTextAccess } from "./engine";

// The int64 ratio on whichever node runs this file (the bench runs it on the Lambda runtime's
// major too): `node int64-child.mjs 1,1000` prints one JSON document.
const sizes = (process.argv[2] ?? "1,1000").split(",").map(Number);
const rows = await benchInt64(sizes);
process.stdout.write(JSON.stringify({ node: process.version, sourceTextAccess: hasSourceTextAccess(), rows }));
