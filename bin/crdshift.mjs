#!/usr/bin/env node
// The `crdshift` command: the CLI as built into dist/ (npm run build; npm install runs it).
import { main } from "../dist/cli.js";

process.exitCode = await main(process.argv.slice(2));
