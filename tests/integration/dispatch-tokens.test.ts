import { describe, expect, it } from "vitest";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Prompt } from "../../core/src/prompts/schemas.js";
import { allRoutes, routeKey } from "../../core/src/routes.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";

type Body<T> = { data: T };
type Issue = { id: string; number: number; status: string };
type Claim = { dispatch: Dispatch & { token: string }; issue: Issue; prompt: Prompt | null };

const UNAUTHORIZED = { error: "Missing or malformed Authorization header" };
const FORBIDDEN = { error: "Token not allowed for this resource" };
const COMMENT = { body: "x", authorName: "a", authorType: "agent" };
const REVIEW = { clarity: 4, completeness: 4, relevance: 4, authorType: "agent" };
const DONE = { result: "done", summary: "did it" };

/** "METHOD path" of every request a dispatch token got a 2xx and a 403 for, to match against the route table. */
const allowed = new Set<string>();
const refused = new Set<string>();

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

async function createTodo(t: TestApp, title: string): Promise<Issue> {
  const response = await t.app.request("/api/issues", jsonPost({ title, type: "task", status: "todo" }));
  if (response.status !== 201) throw new Error(`issue create answered ${response.status}: ${await response.text()}`);
  return (await json<Body<Issue>>(response)).data;
}

async function claim(t: TestApp, agent: string, extra: Record<string, unknown> = {}): Promise<Claim> {
  const response = await t.app.request("/api/dispatch/claim", jsonPost({ agent, ...extra }));
  if (response.status !== 201) throw new Error(`claim answered ${response.status}: ${await response.text()}`);
  return (await json<Body<Claim>>(response)).data;
}

/** A request authenticated by a dispatch token in place of the service key; records what it reached. */
async function withToken(t: TestApp, token: string, method: string, path: string, body?: unknown) {
  const headers = { Authorization: `Bearer ${token}` };
  const response =
    body === undefined
      ? await t.app.request(path, { method, headers })
      : await t.app.request(path, jsonPost(body, headers));
  if (response.status >= 200 && response.status < 300) allowed.add(`${method} ${path}`);
  if (response.status === 403) refused.add(`${method} ${path}`);
  return response;
}

async function expectError(response: Response, status: number, body: unknown) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(await response.json()).toEqual(body);
}

async function dispatchStatus(t: TestApp, id: string): Promise<string> {
  return (await json<Body<Dispatch>>(await t.app.request(`/api/dispatch/${id}`, { headers: AUTH }))).data.status;
}

describe("dispatch tokens", () => {
  it("reach their own dispatch, issue and prompt in place of the service key, and nothing else", async () => {
    const t = await testApp();
    await createTodo(t, "t");
    await createTodo(t, "t");
    const mine = await claim(t, "a");
    const theirs = await claim(t, "b");
    expect(theirs.issue.id).not.toBe(mine.issue.id);
    const { token } = mine.dispatch;
    const ownPrompt = mine.prompt?.id;
    const otherPrompt = theirs.prompt?.id;
    if (!ownPrompt || !otherPrompt) throw new Error("the default templates render a prompt for every task");

    const beat = await withToken(t, token, "POST", `/api/dispatch/${mine.dispatch.id}/heartbeat`, {});
    expect(beat.status).toBe(200);
    expect((await json<Body<Dispatch>>(beat)).data).toMatchObject({ id: mine.dispatch.id, status: "active" });
    for (const ref of [mine.issue.id, `KZN-${mine.issue.number}`, `kzn-${mine.issue.number}`]) {
      const comment = await withToken(t, token, "POST", `/api/issues/${ref}/comments`, COMMENT);
      expect(comment.status).toBe(201);
      expect((await json<Body<{ issueId: string }>>(comment)).data.issueId).toBe(mine.issue.id);
    }
    const review = await withToken(t, token, "POST", `/api/prompts/${ownPrompt}/reviews`, REVIEW);
    expect(review.status).toBe(201);
    const activity = { type: "action", body: "Ran the tests" };
    expect((await withToken(t, token, "POST", `/api/dispatch/${mine.dispatch.id}/activities`, activity)).status).toBe(
      201,
    );
    expect((await withToken(t, token, "GET", `/api/dispatch/${mine.dispatch.id}/activities`)).status).toBe(200);
    // It reads what it works on: its dispatch, its issue (by id or KZN-n) and its prompt.
    const read = await withToken(t, token, "GET", `/api/dispatch/${mine.dispatch.id}`);
    expect(read.status).toBe(200);
    expect((await json<Body<Dispatch>>(read)).data).toMatchObject({ id: mine.dispatch.id, promptId: ownPrompt });
    for (const ref of [mine.issue.id, `KZN-${mine.issue.number}`]) {
      const issue = await withToken(t, token, "GET", `/api/issues/${ref}`);
      expect(issue.status).toBe(200);
      expect((await json<Body<{ id: string }>>(issue)).data.id).toBe(mine.issue.id);
    }
    const prompt = await withToken(t, token, "GET", `/api/prompts/${ownPrompt}`);
    expect(prompt.status).toBe(200);
    expect((await json<Body<{ id: string; text: string }>>(prompt)).data).toMatchObject({
      id: ownPrompt,
      text: mine.prompt?.text.replaceAll(token, "[dispatch token]"),
    });

    const outside: [string, string, unknown?][] = [
      ["GET", "/api/issues"],
      ["GET", `/api/issues/${theirs.issue.id}`],
      ["GET", `/api/issues/KZN-${theirs.issue.number}`],
      ["GET", `/api/issues/${mine.issue.id}/comments`],
      ["POST", "/api/issues", { title: "t", type: "task", status: "todo" }],
      ["PATCH", `/api/issues/${mine.issue.id}`],
      ["POST", `/api/issues/${theirs.issue.id}/comments`, COMMENT],
      ["POST", `/api/issues/KZN-${theirs.issue.number}/comments`, COMMENT],
      ["POST", `/api/dispatch/${theirs.dispatch.id}/heartbeat`, {}],
      ["POST", `/api/dispatch/${theirs.dispatch.id}/complete`, DONE],
      ["POST", `/api/dispatch/${theirs.dispatch.id}/release`, {}],
      ["POST", `/api/dispatch/${theirs.dispatch.id}/activities`, { type: "action", body: "Not mine" }],
      ["GET", `/api/dispatch/${theirs.dispatch.id}/activities`],
      ["POST", `/api/prompts/${otherPrompt}/reviews`, REVIEW],
      ["GET", `/api/prompts/${otherPrompt}`],
      ["GET", `/api/prompts/${ownPrompt}/reviews`],
      ["GET", `/api/dispatch/${theirs.dispatch.id}`],
      ["POST", "/api/dispatch/claim", { agent: "a" }],
    ];
    for (const [method, path, body] of outside) {
      await expectError(await withToken(t, token, method, path, body), 403, FORBIDDEN);
    }
    // The refused requests changed nothing.
    expect(await dispatchStatus(t, theirs.dispatch.id)).toBe("active");
    const comments = await json<{ total: number }>(
      await t.app.request(`/api/issues/${theirs.issue.id}/comments`, { headers: AUTH }),
    );
    expect(comments.total).toBe(0);

    const done = await withToken(t, token, "POST", `/api/dispatch/${mine.dispatch.id}/complete`, DONE);
    expect(done.status).toBe(200);
    expect((await json<Body<{ dispatch: Dispatch }>>(done)).data.dispatch.status).toBe("completed");

    // The token ended with its dispatch.
    for (const [path, body] of [
      [`/api/dispatch/${mine.dispatch.id}/heartbeat`, {}],
      [`/api/issues/${mine.issue.id}/comments`, COMMENT],
      [`/api/issues/KZN-${mine.issue.number}/comments`, COMMENT],
      [`/api/prompts/${ownPrompt}/reviews`, REVIEW],
      ["/api/issues", { title: "t", type: "task" }],
    ] as const) {
      await expectError(await withToken(t, token, "POST", path, body), 401, UNAUTHORIZED);
    }
    // The service key is untouched by all of it.
    expect((await t.app.request("/api/issues", { headers: AUTH })).status).toBe(200);
  });

  it("are 401 once their dispatch is released or expired", async () => {
    let now = Date.parse("2026-11-01T12:00:00.000Z");
    const t = await testApp({ clock: () => new Date(now) });
    await createTodo(t, "released by the service");
    await createTodo(t, "released by its agent");
    await createTodo(t, "run out");
    const released = await claim(t, "a");
    const selfReleased = await claim(t, "b");
    const ranOut = await claim(t, "c", { leaseSeconds: 60 });

    const release = await t.app.request(`/api/dispatch/${released.dispatch.id}/release`, jsonPost({}));
    expect(release.status).toBe(200);
    const own = await withToken(
      t,
      selfReleased.dispatch.token,
      "POST",
      `/api/dispatch/${selfReleased.dispatch.id}/release`,
      {},
    );
    expect(own.status).toBe(200);
    for (const { dispatch } of [released, selfReleased]) expect(await dispatchStatus(t, dispatch.id)).toBe("released");

    now += 61_000;
    // The token of a lease that ran out is refused at once, before anything marks the dispatch expired.
    await expectError(
      await withToken(t, ranOut.dispatch.token, "POST", `/api/issues/${ranOut.issue.id}/comments`, COMMENT),
      401,
      UNAUTHORIZED,
    );
    expect(await dispatchStatus(t, ranOut.dispatch.id)).toBe("active");
    // A lease that ran out ends its dispatch at the next touch (here the service's heartbeat).
    const late = await t.app.request(`/api/dispatch/${ranOut.dispatch.id}/heartbeat`, jsonPost({}));
    expect(late.status).toBe(409);
    expect(await dispatchStatus(t, ranOut.dispatch.id)).toBe("expired");

    for (const { dispatch, issue } of [released, selfReleased, ranOut]) {
      for (const [action, body] of [
        ["heartbeat", {}],
        ["complete", DONE],
        ["release", {}],
      ] as const) {
        await expectError(
          await withToken(t, dispatch.token, "POST", `/api/dispatch/${dispatch.id}/${action}`, body),
          401,
          UNAUTHORIZED,
        );
      }
      await expectError(
        await withToken(t, dispatch.token, "POST", `/api/issues/${issue.id}/comments`, COMMENT),
        401,
        UNAUTHORIZED,
      );
    }
  });

  it("have every route that takes them exercised above, both let through and refused", () => {
    const scoped = allRoutes().filter((route) => route.token !== undefined);
    expect(scoped.length).toBeGreaterThan(0);
    const reached = (requests: Set<string>, route: (typeof scoped)[number]) => {
      const pattern = new RegExp(`^${route.method} ${route.path.replace(/:[A-Za-z]+/g, "[^/]+")}$`);
      return [...requests].some((request) => pattern.test(request));
    };
    for (const route of scoped) {
      expect(reached(allowed, route), `${routeKey(route)} with its own token`).toBe(true);
      expect(reached(refused, route), `${routeKey(route)} with another dispatch's token`).toBe(true);
    }
  });
});
