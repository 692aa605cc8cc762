#!/usr/bin/env node
/**
 * @module bin/kaizen — the `kaizen` executable: registers tsx so Node runs the TypeScript sources,
 * then hands the arguments to client/cli/main.ts and exits with the status it returns.
 */
import { register } from "tsx/esm/api";

// yargs, which every command loads, is loaded before tsx's hooks are registered: through them each
// of its files would cost a round trip to the hooks' thread, and only the TypeScript sources need them.
await import("yargs");
register();
const { main } = await import("../client/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
