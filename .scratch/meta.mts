import { build } from "esbuild";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { LAMBDA_BUILD_OPTIONS, FUNCTIONS_DIR } from "/work/main/scripts/build.js";
const name = process.argv[2] ?? "dispatch";
const outdir = mkdtempSync("/tmp/kbs/meta-");
const r = await build({ ...LAMBDA_BUILD_OPTIONS, entryPoints: [name === "reference" ? "/work/main/bench/reference.ts" : join(FUNCTIONS_DIR, `${name}.ts`)], outdir, metafile: true, write: true });
const outs = r.metafile.outputs;
const entry = Object.keys(outs).find(k => outs[k].entryPoint?.endsWith(`${name}.ts`))!;
const loaded = new Set<string>(); const stack = [entry];
while (stack.length) { const f = stack.pop()!; if (loaded.has(f)) continue; loaded.add(f); for (const i of outs[f].imports) if (i.kind === "import-statement" && outs[i.path]) stack.push(i.path); }
let total = 0; const rows: [string, number][] = [];
for (const out of loaded) { total += outs[out].bytes; for (const [inp, i] of Object.entries(outs[out].inputs)) rows.push([inp, i.bytesInOutput]); }
rows.sort((a, b) => b[1] - a[1]);
const pk = (p: string) => { if (!p.includes("node_modules/")) return "kaizen"; const s = p.split("node_modules/").pop()!.split("/"); return s[0].startsWith("@") ? s[0]+"/"+s[1] : s[0]; };
const byPkg = new Map<string, number>();
for (const [p, b] of rows) byPkg.set(pk(p), (byPkg.get(pk(p)) ?? 0) + b);
console.log("loaded", total, loaded.size, [...byPkg].sort((a,b)=>b[1]-a[1]).slice(0,12));
for (const [p, b] of rows.filter(r => !r[0].includes("node_modules")).slice(0, Number(process.argv[3] ?? 40))) console.log(b, p);
