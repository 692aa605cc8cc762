/**
 * The dependency rules (.dependency-cruiser.cjs) catch what they promise: a small tree that breaks
 * each rule once is cruised with the project's own rules, and each break is reported under its
 * rule's name (the project's own tree is cruised by `npm run deps` in `npm test`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cruise, type IForbiddenRuleType } from "dependency-cruiser";
import { afterAll, describe, expect, it } from "vitest";

const rules = createRequire(import.meta.url)("../../.dependency-cruiser.cjs") as { forbidden: IForbiddenRuleType[] };
const root = mkdtempSync(join(tmpdir(), "kaizen-deps-"));

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Cruises a tree of the given files (path → source) with the project's rules: each violation as [rule, from, to]. */
async function violationsOf(files: Record<string, string>): Promise<string[][]> {
  const dir = mkdtempSync(join(root, "tree-"));
  const all = { ...files, "tsconfig.json": JSON.stringify({ compilerOptions: { module: "NodeNext" } }) };
  for (const [path, source] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  const roots = [...new Set(Object.keys(files).map((path) => path.split("/")[0] ?? path))];
  const result = await cruise(
    roots,
    {
      validate: true,
      ruleSet: { forbidden: rules.forbidden },
      baseDir: dir,
      tsPreCompilationDeps: true,
      tsConfig: { fileName: join(dir, "tsconfig.json") },
    },
    {},
    {},
  );
  if (typeof result.output === "string") throw new Error("expected a cruise result, not text");
  return result.output.summary.violations.map((violation) => [violation.rule.name, violation.from, violation.to]);
}

describe("dependency rules", () => {
  it("pass a tree whose imports point down the layers", async () => {
    expect(
      await violationsOf({
        "core/src/db/client.ts": "export const db = 1;\n",
        "core/src/issues/store.ts": 'import { db } from "../db/client.js";\nexport const store = db;\n',
        "core/src/dispatch/service.ts": 'import { store } from "../issues/store.js";\nexport const service = store;\n',
        "core/src/services.ts": 'import { service } from "./dispatch/service.js";\nexport const root = service;\n',
        "core/src/dispatch/routes.ts": 'import { root } from "../services.js";\nexport const family = root;\n',
      }),
    ).toEqual([]);
  });

  it("refuse a domain importing a domain above it", async () => {
    expect(
      await violationsOf({
        "core/src/issues/store.ts":
          'import { service } from "../dispatch/service.js";\nexport const store = service;\n',
        "core/src/dispatch/service.ts": "export const service = 1;\n",
      }),
    ).toEqual([["layer-issues", "core/src/issues/store.ts", "core/src/dispatch/service.ts"]]);
  });

  it("refuse a domain that wires services itself (imports the composition root) or reaches a family's handlers", async () => {
    const found = await violationsOf({
      "core/src/services.ts": "export const root = 1;\n",
      "core/src/signals/service.ts": 'import { root } from "../services.js";\nexport const signals = root;\n',
      "core/src/issues/routes.ts": "export const family = 1;\n",
      "core/src/prompts/service.ts": 'import { family } from "../issues/routes.js";\nexport const prompts = family;\n',
    });
    expect(found).toEqual(
      expect.arrayContaining([
        ["layer-comments-and-signals", "core/src/signals/service.ts", "core/src/services.ts"],
        ["layer-prompts", "core/src/prompts/service.ts", "core/src/issues/routes.ts"],
      ]),
    );
    expect(found).toHaveLength(2);
  });

  it("refuse the HTTP layer knowing a domain store", async () => {
    expect(
      await violationsOf({
        "core/src/http/app.ts": 'import { store } from "../dispatch/store.js";\nexport const app = store;\n',
        "core/src/dispatch/store.ts": "export const store = 1;\n",
      }),
    ).toEqual([["layer-shared", "core/src/http/app.ts", "core/src/dispatch/store.ts"]]);
  });

  it("refuse a cycle, even inside one domain", async () => {
    const found = await violationsOf({
      "core/src/issues/a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
      "core/src/issues/b.ts": 'import { a } from "./a.js";\nexport const b = () => a;\n',
    });
    expect(found.map(([rule]) => rule)).toContain("no-circular");
  });

  it("refuse core importing the client, and let the client's MCP endpoint serve a family core declares", async () => {
    const declared = {
      "core/src/mcp/api.ts": "export const mcpApi = 1;\n",
      "client/mcp/remote.ts": 'import { mcpApi } from "../../core/src/mcp/api.js";\nexport const family = mcpApi;\n',
    };
    expect(await violationsOf(declared)).toEqual([]);
    expect(
      await violationsOf({
        ...declared,
        "core/src/families.ts": 'import { family } from "../../client/mcp/remote.js";\nexport const all = family;\n',
      }),
    ).toEqual([["core-never-imports-the-client", "core/src/families.ts", "client/mcp/remote.ts"]]);
  });

  it("refuse a test importing the bench", async () => {
    // The fixture's import is assembled, so this file itself names no module of the bench.
    const benchModule = ["..", "..", "bench", "y.js"].join("/");
    expect(
      await violationsOf({
        "tests/unit/x.test.ts": `import { y } from "${benchModule}";\nexport const x = y;\n`,
        "bench/y.ts": "export const y = 1;\n",
      }),
    ).toEqual([["tests-never-import-bench", "tests/unit/x.test.ts", "bench/y.ts"]]);
  });

  it("let the tests and the bench share the test kit", async () => {
    expect(
      await violationsOf({
        "tests/unit/x.test.ts": 'import { kit } from "../../testkit/kit.js";\nexport const x = kit;\n',
        "bench/y.ts": 'import { kit } from "../testkit/kit.js";\nexport const y = kit;\n',
        "testkit/kit.ts": 'import { db } from "../core/src/db/client.js";\nexport const kit = db;\n',
        "core/src/db/client.ts": "export const db = 1;\n",
      }),
    ).toEqual([]);
  });

  it("refuse the bench importing a test module", async () => {
    expect(
      await violationsOf({
        "bench/y.ts": 'import { helper } from "../tests/helpers/h.js";\nexport const y = helper;\n',
        "tests/helpers/h.ts": "export const helper = 1;\n",
      }),
    ).toEqual([["bench-never-imports-tests", "bench/y.ts", "tests/helpers/h.ts"]]);
  });

  it("refuse the test kit importing the tests or the bench", async () => {
    // Assembled, as above: this file names no module of the bench.
    const benchModule = ["..", "bench", "y.js"].join("/");
    const found = await violationsOf({
      "testkit/a.ts": 'import { helper } from "../tests/helpers/h.js";\nexport const a = helper;\n',
      "testkit/b.ts": `import { y } from "${benchModule}";\nexport const b = y;\n`,
      "tests/helpers/h.ts": "export const helper = 1;\n",
      "bench/y.ts": "export const y = 1;\n",
    });
    expect(found).toEqual(
      expect.arrayContaining([
        ["testkit-stands-alone", "testkit/a.ts", "tests/helpers/h.ts"],
        ["testkit-stands-alone", "testkit/b.ts", "bench/y.ts"],
      ]),
    );
    expect(found).toHaveLength(2);
  });

  it("refuse shipped code importing the test kit", async () => {
    const found = await violationsOf({
      "core/src/issues/store.ts": 'import { kit } from "../../../testkit/kit.js";\nexport const store = kit;\n',
      "scripts/build.ts": 'import { kit } from "../testkit/kit.js";\nexport const build = kit;\n',
      "testkit/kit.ts": "export const kit = 1;\n",
    });
    expect(found).toEqual(
      expect.arrayContaining([
        ["nothing-ships-the-testkit", "core/src/issues/store.ts", "testkit/kit.ts"],
        ["nothing-ships-the-testkit", "scripts/build.ts", "testkit/kit.ts"],
      ]),
    );
    expect(found).toHaveLength(2);
  });

  it("let the console use the typed client, the route table and the state machine, and nothing else of core", async () => {
    const allowed = {
      "console/src/main.ts":
        'import { kaizen } from "../../client/client.js";\nimport { moves } from "../../core/src/issues/transitions.js";\nexport const app = [kaizen, moves];\n',
      "client/client.ts": 'import { routes } from "../core/src/routes.js";\nexport const kaizen = routes;\n',
      "core/src/routes.ts": "export const routes = 1;\n",
      "core/src/issues/transitions.ts": "export const moves = 1;\n",
    };
    expect(await violationsOf(allowed)).toEqual([]);
    expect(
      await violationsOf({
        ...allowed,
        "console/src/store.ts":
          'import { store } from "../../core/src/issues/issue-store.js";\nexport const x = store;\n',
        "core/src/issues/issue-store.ts": "export const store = 1;\n",
      }),
    ).toEqual([["console-speaks-through-the-client", "console/src/store.ts", "core/src/issues/issue-store.ts"]]);
  });

  it("refuse the service importing the console's browser code", async () => {
    expect(
      await violationsOf({
        "core/src/console/assets.ts": 'import { page } from "../../../console/src/page.js";\nexport const x = page;\n',
        "console/src/page.ts": "export const page = 1;\n",
      }),
    ).toEqual([["nothing-imports-the-console-app", "core/src/console/assets.ts", "console/src/page.ts"]]);
  });
});
