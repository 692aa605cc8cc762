/**
 * Every bearer route, called with a key of each scope and with an admin key of another project, answers
 * as a table derived from the route declarations says (core/src/routes.ts: `scope`, `reach`, `token`;
 * docs/security.md#scopes, docs/security.md#projects): a key without the route's scope 403 naming it;
 * a dispatch key on a dispatch it did not claim 403 naming it; another project's key 403 on a route
 * spanning every project and 404 on a resource of this one; everyone else through the door (never 401
 * or 403). No route is left out: the walk fails on a route it has no id for.
 */
import { describe, expect, it } from "vitest";
import { allRoutes, type RouteSpec, routeKey, type Scope, scopeAllows } from "../../core/src/routes.js";
import { AUTH, dataOf, jsonPost, testApp } from "../helpers/app.js";

interface WalkKey {
  name: string;
  key: string;
  scopes: Scope[];
  projectIds: string[] | null;
}

/** What a route answers a key, by the declarations alone. */
function expected(route: RouteSpec, key: WalkKey, nounAndId: [string, string] | undefined) {
  // Open to every key: what each may do is the API's answer to the calls made in its name.
  if (route.anyCaller) return "through";
  const needed = route.scope as Scope;
  if (!key.scopes.some((held) => scopeAllows(held, needed))) {
    return { status: 403, error: `Key ${key.name} lacks the ${needed} scope` };
  }
  if (needed === "dispatch" && route.token === "dispatch" && !key.scopes.includes("admin")) {
    return { status: 403, error: `Key ${key.name} did not claim dispatch ${nounAndId?.[1]}` };
  }
  if (key.projectIds) {
    if (route.reach === "global") {
      return { status: 403, error: `Key ${key.name} is limited to projects; this route spans every project` };
    }
    if (route.reach !== "shared" && route.reach !== "handler" && nounAndId) {
      return { status: 404, error: `${nounAndId[0]} ${nounAndId[1]} not found` };
    }
  }
  return "through";
}

const FAKE = "01ARZ3NDEKTSV4RRFFQ69G5FAV";

describe("every bearer route, with every scope and another project's key", () => {
  it("answers as the declarations say", async () => {
    const t = await testApp();
    const call = <T>(path: string, body: unknown, status = 201) =>
      dataOf<T>(t.app.request(path, jsonPost(body)), status);
    const mine = await call<{ id: string }>("/api/projects", { name: "mine" });
    const theirs = await call<{ id: string }>("/api/projects", { name: "theirs" });
    const issue = await call<{ id: string }>("/api/issues", {
      title: "walked",
      type: "task",
      status: "todo",
      projectId: mine.id,
    });
    const other = await call<{ id: string }>("/api/issues", { title: "related", type: "task", projectId: mine.id });
    const relation = await call<{ id: string }>(`/api/issues/${issue.id}/relations`, {
      type: "related",
      relatedIssueId: other.id,
    });
    const signal = (
      await call<{ signal: { id: string } }>("/api/signals", {
        source: "ci",
        type: "build.failed",
        title: "red",
        severity: "low",
        projectId: mine.id,
      })
    ).signal;
    const claim = await call<{ dispatch: { id: string; promptId: string } }>("/api/dispatch/claim", {
      agent: "walker",
    });
    const spare = await call<{ id: string }>("/api/keys", { name: "spare", scopes: ["read"] });
    const ids: Record<string, [string, string]> = {
      "/api/issues/:id": ["Issue", issue.id],
      "/api/templates/preview/:issueId": ["Issue", issue.id],
      "/api/relations/:id": ["Relation", relation.id],
      "/api/projects/:id": ["Project", mine.id],
      "/api/signals/:id": ["Signal", signal.id],
      "/api/prompts/:id": ["Prompt", claim.dispatch.promptId],
      "/api/dispatch/:id": ["Dispatch", claim.dispatch.id],
      "/api/goals/:id": ["Goal", `gol_${FAKE}`],
      "/api/labels/:id": ["Label", `lbl_${FAKE}`],
      "/api/templates/:id": ["Template", `tpl_${FAKE}`],
      "/api/partials/:name": ["Partial", "no-such-partial"],
      "/api/event-destinations/:id": ["Event destination", `dst_${FAKE}`],
      "/api/runners/:id": ["Runner", `run_${FAKE}`],
      "/api/keys/:id": ["Key", spare.id],
    };
    const keys: WalkKey[] = [];
    for (const [name, scopes, projectIds] of [
      ["theirs-admin", ["admin"], [theirs.id]],
      ["reader", ["read"], null],
      ["fleet", ["dispatch"], null],
      ["writer", ["write"], null],
      ["ops", ["admin"], null],
    ] as [string, Scope[], string[] | null][]) {
      const made = await call<{ key: string }>("/api/keys", { name, scopes, ...(projectIds ? { projectIds } : {}) });
      keys.push({ name, key: made.key, scopes, projectIds });
    }

    const bearer = allRoutes().filter((route) => route.auth === "bearer");
    const walked = new Set<string>();
    for (const key of keys) {
      for (const route of bearer) {
        const base = Object.keys(ids).find((prefix) => route.path.startsWith(prefix));
        if (route.path.includes(":") && !base) throw new Error(`No id to walk ${routeKey(route)} with`);
        const nounAndId = base ? ids[base] : undefined;
        const path = route.path
          .replace(/:(id|issueId|name)\b/, nounAndId?.[1] ?? "")
          .replace(":versionId", `ver_${FAKE}`)
          .replace(":experimentId", `exp_${FAKE}`)
          .replace(":deliveryId", `evd_${FAKE}`);
        const init: RequestInit = {
          method: route.method,
          headers: { Authorization: `Bearer ${key.key}`, "Content-Type": "application/json" },
          ...(route.method === "GET" || route.method === "DELETE" ? {} : { body: "{}" }),
        };
        const answer = await t.app.request(path, init);
        const want = expected(route, key, nounAndId);
        const what = `${key.name} ${routeKey(route)}`;
        if (want === "through") {
          expect([401, 403], `${what} answered ${answer.status}`).not.toContain(answer.status);
        } else {
          expect({ status: answer.status, body: await answer.json() }, what).toEqual({
            status: want.status,
            body: { error: want.error },
          });
        }
        walked.add(routeKey(route));
      }
    }
    expect(walked.size).toBe(bearer.length);
    // The root key goes through every door too.
    expect((await t.app.request("/api/audit", { headers: AUTH })).status).toBe(200);
  });
});
