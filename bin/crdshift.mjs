#!/usr/bin/env node
// The `crdshift` command: the CLI as built into dist/ (npm run build; npm install runs it).
import { main } from "../dist/cli.js";

// Stacks in `crdshift check` reports then name the converter's own source file and line.
process.setSourceMapsEnabled(true);
process.exitCode = await main(process.argv.slice(2));
