/**
 * Each family reads where the resources its routes reach belong (http/reach, `familyModule`'s
 * `reaches`): an app refuses to build with a route reaching a kind its family does not read (or
 * taking a dispatch token on a kind whose dispatch it does not read), and a key narrowed to projects
 * is held to what the family's lookup answers. No database: the lookups and the key are given.
 */
import { describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../../client/mcp/all-families.js";
import { type AppDeps, createHttpApp, type FamilyModules, familyModule } from "../../../core/src/http/app.js";
import { callerChecks } from "../../../core/src/http/caller-checks.js";
import type { ReachLookups } from "../../../core/src/http/reach.js";
import { createDb, loadConfig } from "../../../core/src/index.js";

const ROOT = `kaizen_${"ab".repeat(32)}`;
const NARROWED = `kaizen_${"cd".repeat(32)}`;
const IN_A = "prm_01J9Z8Y7X6W5V4T3S2R1Q0P9N8";
const IN_B = "prm_01J9Z8Y7X6W5V4T3S2R1Q0P9N9";
const UNKNOWN = "prm_01J9Z8Y7X6W5V4T3S2R1Q0P9NA";

const deps: AppDeps = {
  config: { ...loadConfig({ env: { TABLE_NAME: "unused" } }), serviceApiKey: ROOT },
  // Never called: nothing here reads or writes the table.
  db: createDb({ tableName: "unused", region: "us-east-1", endpoint: "http://127.0.0.1:9" }),
};

const { routes } = ALL_FAMILIES.prompts;
/** Every prompts route answering its own key, so a test sees which handler ran. */
const handlers = () =>
  Object.fromEntries(Object.keys(routes).map((key) => [key, () => Response.json({ data: key })])) as never;

/** A key limited to project `prj_A`, with the read scope. */
const keys = {
  grantOf: async (presented: string) =>
    presented === NARROWED
      ? { id: "key_1", name: "narrowed", scopes: ["read" as const], projectIds: ["prj_A"] }
      : undefined,
  ownsDispatch: async () => undefined,
  tokenGrantOf: async () => undefined,
};

function appOf(family: unknown) {
  return createHttpApp({ prompts: family } as FamilyModules, deps, { callers: callerChecks(deps, { keys }) });
}

describe("a family's reach lookups", () => {
  it("are required for every kind its routes reach: without them the app is not built", () => {
    expect(() => appOf(familyModule(routes, handlers))).toThrow(
      "Family prompts: GET /api/prompts/:id reaches a resource of kind prompt, and no lookup of its project is given",
    );
  });

  it("are required for every kind of resource beside a dispatch that a route lets a dispatch token take: which dispatch works it", () => {
    const reaches = (): ReachLookups => ({ prompt: async () => "prj_A" });
    expect(() => appOf(familyModule(routes, reaches, handlers))).toThrow(
      "Family prompts: GET /api/prompts/:id takes a dispatch token on a prompt, and no lookup of the dispatch working one is given",
    );
  });

  it("hold a narrowed key to what the lookup answers: its project's resources, 404 for another's, none read for the root key", async () => {
    const asked: string[] = [];
    const projectOf: Record<string, string> = { [IN_A]: "prj_A", [IN_B]: "prj_B" };
    const reaches = (): ReachLookups => ({
      prompt: async (ref) => {
        asked.push(ref);
        return projectOf[ref];
      },
      dispatchOf: { prompt: async () => undefined },
    });
    const app = appOf(familyModule(routes, reaches, handlers));
    const get = (id: string, key: string) =>
      app.request(`/api/prompts/${id}`, { headers: { Authorization: `Bearer ${key}` } });

    const own = await get(IN_A, NARROWED);
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({ data: "GET /api/prompts/:id" });

    const other = await get(IN_B, NARROWED);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ error: `Prompt ${IN_B} not found` });

    // No such prompt: the handler answers, as for any caller.
    expect((await get(UNKNOWN, NARROWED)).status).toBe(200);
    expect(asked).toEqual([IN_A, IN_B, UNKNOWN]);

    expect((await get(IN_B, ROOT)).status).toBe(200);
    expect(asked).toHaveLength(3);
  });
});
