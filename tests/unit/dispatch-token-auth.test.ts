import { type Context, Hono } from "hono";
import { ulid } from "ulid";
import { describe, expect, it, vi } from "vitest";
import { dispatchTokenCheck, newDispatchToken, type TokenDispatch } from "../../core/src/dispatch/token.js";
import { AppError } from "../../core/src/errors.js";
import type { AppEnv } from "../../core/src/http/app.js";
import { type BearerAuthOptions, bearerAuth } from "../../core/src/http/auth.js";
import { errorResponse } from "../../core/src/http/respond.js";

const API_KEY = `kaizen_${"ab".repeat(32)}`;
const UNAUTHORIZED = { error: "Missing or malformed Authorization header" };
const FORBIDDEN = { error: "Token not allowed for this resource" };

const newDispatchId = () => `dsp_${ulid()}`;

/** A dispatch as the lookup would return it, with the token its claim handed out. */
function dispatchWithToken(fields: Partial<TokenDispatch> = {}): { dispatch: TokenDispatch; token: string } {
  const id = fields.id ?? newDispatchId();
  const { token, hash } = newDispatchToken(id);
  return {
    token,
    dispatch: {
      id,
      issueId: `iss_${ulid()}`,
      issueNumber: 7,
      promptId: `prm_${ulid()}`,
      status: "active",
      tokenHash: hash,
      ...fields,
    },
  };
}

/** A lookup over the given dispatches that records its calls. */
function fakeLookup(...dispatches: TokenDispatch[]) {
  return vi.fn(async (id: string) => dispatches.find((dispatch) => dispatch.id === id));
}

/** One route per scope, one without a scope, and one without an `:id`, as the route table would guard them. */
function tinyApp(options: Omit<BearerAuthOptions, "scope">): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const handler = (c: Context<AppEnv>) => c.json({ dispatchId: c.get("dispatchId") ?? null });
  app.post("/dispatch/:id/heartbeat", bearerAuth({ ...options, scope: "dispatch" }), handler);
  app.post("/issues/:id/comments", bearerAuth({ ...options, scope: "issue" }), handler);
  app.post("/prompts/:id/reviews", bearerAuth({ ...options, scope: "prompt" }), handler);
  app.get("/issues/:id", bearerAuth(options), handler);
  app.get("/issues", bearerAuth(options), handler);
  app.onError((error, c) => (error instanceof AppError ? errorResponse(c, error) : c.json({ error: "boom" }, 500)));
  return app;
}

async function call(app: Hono<AppEnv>, method: string, path: string, token: string | undefined) {
  const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
  const response = await app.request(path, { method, headers });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("bearerAuth with dispatch tokens", () => {
  it("lets the service key through on every route without looking anything up", async () => {
    const { dispatch } = dispatchWithToken();
    const lookup = fakeLookup(dispatch);
    const app = tinyApp({ apiKey: API_KEY, dispatchTokens: dispatchTokenCheck(lookup) });
    for (const [method, path] of [
      ["POST", `/dispatch/${dispatch.id}/heartbeat`],
      ["POST", "/dispatch/dsp_anything/heartbeat"],
      ["POST", "/issues/KZN-99/comments"],
      ["POST", "/prompts/prm_x/reviews"],
      ["GET", "/issues/iss_x"],
      ["GET", "/issues"],
    ] as const) {
      expect(await call(app, method, path, API_KEY)).toEqual({ status: 200, body: { dispatchId: null } });
    }
    expect(lookup).not.toHaveBeenCalled();
  });

  it("keeps the one 401 for keys that are missing, malformed or wrong, without looking anything up", async () => {
    const { dispatch, token } = dispatchWithToken();
    const lookup = fakeLookup(dispatch);
    const app = tinyApp({ apiKey: API_KEY, dispatchTokens: dispatchTokenCheck(lookup) });
    for (const header of [undefined, "", `kaizen_${"cd".repeat(32)}`, `${API_KEY}0`, `${token} extra`]) {
      expect(await call(app, "POST", `/dispatch/${dispatch.id}/heartbeat`, header)).toEqual({
        status: 401,
        body: UNAUTHORIZED,
      });
    }
    const raw = await app.request(`/dispatch/${dispatch.id}/heartbeat`, {
      method: "POST",
      headers: { Authorization: token },
    });
    expect(raw.status).toBe(401);
    expect(lookup).not.toHaveBeenCalled();
  });

  it("lets a live token act on its own dispatch and names the dispatch for the handler", async () => {
    const { dispatch, token } = dispatchWithToken();
    const lookup = fakeLookup(dispatch);
    const app = tinyApp({ apiKey: API_KEY, dispatchTokens: dispatchTokenCheck(lookup) });
    expect(await call(app, "POST", `/dispatch/${dispatch.id}/heartbeat`, token)).toEqual({
      status: 200,
      body: { dispatchId: dispatch.id },
    });
    expect(lookup).toHaveBeenCalledWith(dispatch.id);
  });

  it("accepts the scheme in any case, as for the service key", async () => {
    const { dispatch, token } = dispatchWithToken();
    const app = tinyApp({ apiKey: API_KEY, dispatchTokens: dispatchTokenCheck(fakeLookup(dispatch)) });
    const response = await app.request(`/dispatch/${dispatch.id}/heartbeat`, {
      method: "POST",
      headers: { Authorization: `bearer ${token}` },
    });
    expect(response.status).toBe(200);
  });

  it("lets a token comment on its issue by id and by KZN-<number> in any case, and on no other issue", async () => {
    const { dispatch, token } = dispatchWithToken({ issueNumber: 7 });
    const app = tinyApp({ apiKey: API_KEY, dispatchTokens: dispatchTokenCheck(fakeLookup(dispatch)) });
    for (const ref of [dispatch.issueId, "KZN-7", "kzn-7", "Kzn-7"]) {
      expect(await call(app, "POST", `/issues/${ref}/comments`, token)).toEqual({
        status: 200,
        body: { dispatchId: dispatch.id },
      });
    }
    for (const ref of [
      `iss_${ulid()}`,
      "KZN-8",
      "KZN-07",
      "KZN-70",
      "7",
      dispatch.id,
      dispatch.issueId.toLowerCase(),
    ]) {
      expect(await call(app, "POST", `/issues/${ref}/comments`, token)).toEqual({ status: 403, body: FORBIDDEN });
    }
  });

  it("lets a token review its prompt and no other; a dispatch without a prompt reviews none", async () => {
    const withPrompt = dispatchWithToken();
    const withoutPrompt = dispatchWithToken({ promptId: null });
    const app = tinyApp({
      apiKey: API_KEY,
      dispatchTokens: dispatchTokenCheck(fakeLookup(withPrompt.dispatch, withoutPrompt.dispatch)),
    });
    const ownPrompt = withPrompt.dispatch.promptId ?? "";
    expect(await call(app, "POST", `/prompts/${ownPrompt}/reviews`, withPrompt.token)).toEqual({
      status: 200,
      body: { dispatchId: withPrompt.dispatch.id },
    });
    expect(await call(app, "POST", `/prompts/prm_${ulid()}/reviews`, withPrompt.token)).toEqual({
      status: 403,
      body: FORBIDDEN,
    });
    for (const path of [`/prompts/${ownPrompt}/reviews`, "/prompts/null/reviews"]) {
      expect(await call(app, "POST", path, withoutPrompt.token)).toEqual({ status: 403, body: FORBIDDEN });
    }
  });

  it("refuses a live token on another dispatch with 403", async () => {
    const mine = dispatchWithToken();
    const other = dispatchWithToken();
    const app = tinyApp({
      apiKey: API_KEY,
      dispatchTokens: dispatchTokenCheck(fakeLookup(mine.dispatch, other.dispatch)),
    });
    expect(await call(app, "POST", `/dispatch/${other.dispatch.id}/heartbeat`, mine.token)).toEqual({
      status: 403,
      body: FORBIDDEN,
    });
    // Its own issue and prompt ids do not stand in for its dispatch id, nor the other way round.
    expect(await call(app, "POST", `/dispatch/${mine.dispatch.issueId}/heartbeat`, mine.token)).toEqual({
      status: 403,
      body: FORBIDDEN,
    });
    expect(await call(app, "POST", `/issues/${mine.dispatch.id}/comments`, mine.token)).toEqual({
      status: 403,
      body: FORBIDDEN,
    });
    expect(await call(app, "POST", `/prompts/${mine.dispatch.id}/reviews`, mine.token)).toEqual({
      status: 403,
      body: FORBIDDEN,
    });
  });

  it("refuses a live token with 403 on routes without a token scope, even on its own resources", async () => {
    const { dispatch, token } = dispatchWithToken();
    const app = tinyApp({ apiKey: API_KEY, dispatchTokens: dispatchTokenCheck(fakeLookup(dispatch)) });
    for (const path of [`/issues/${dispatch.issueId}`, "/issues/KZN-7", "/issues"]) {
      expect(await call(app, "GET", path, token)).toEqual({ status: 403, body: FORBIDDEN });
    }
  });

  it.each(["completed", "failed", "released", "expired"])(
    "answers 401 to the token of a %s dispatch",
    async (status) => {
      const { dispatch, token } = dispatchWithToken({ status });
      const app = tinyApp({ apiKey: API_KEY, dispatchTokens: dispatchTokenCheck(fakeLookup(dispatch)) });
      for (const path of [`/dispatch/${dispatch.id}/heartbeat`, `/issues/${dispatch.issueId}/comments`]) {
        expect(await call(app, "POST", path, token)).toEqual({ status: 401, body: UNAUTHORIZED });
      }
      expect(await call(app, "GET", "/issues", token)).toEqual({ status: 401, body: UNAUTHORIZED });
    },
  );

  it("lets a stopped dispatch's token reach only that dispatch's own routes (which answer why it stopped)", async () => {
    const { dispatch, token } = dispatchWithToken({ status: "stopped" });
    const app = tinyApp({ apiKey: API_KEY, dispatchTokens: dispatchTokenCheck(fakeLookup(dispatch)) });
    expect((await call(app, "POST", `/dispatch/${dispatch.id}/heartbeat`, token)).status).toBe(200);
    expect(await call(app, "POST", `/issues/${dispatch.issueId}/comments`, token)).toEqual({
      status: 403,
      body: FORBIDDEN,
    });
  });

  it("answers 401 to a token whose dispatch does not exist", async () => {
    const { dispatch, token } = dispatchWithToken();
    const lookup = fakeLookup();
    const app = tinyApp({ apiKey: API_KEY, dispatchTokens: dispatchTokenCheck(lookup) });
    expect(await call(app, "POST", `/dispatch/${dispatch.id}/heartbeat`, token)).toEqual({
      status: 401,
      body: UNAUTHORIZED,
    });
    expect(lookup).toHaveBeenCalledWith(dispatch.id);
  });

  it("answers 401 to a token of the right shape that is not the one its dispatch was given", async () => {
    const { dispatch, token } = dispatchWithToken();
    const forged = `${token.slice(0, 31)}${"0".repeat(64)}`;
    const another = newDispatchToken(dispatch.id).token;
    const app = tinyApp({ apiKey: API_KEY, dispatchTokens: dispatchTokenCheck(fakeLookup(dispatch)) });
    for (const wrong of [forged, another]) {
      expect(await call(app, "POST", `/dispatch/${dispatch.id}/heartbeat`, wrong)).toEqual({
        status: 401,
        body: UNAUTHORIZED,
      });
    }
  });

  it("answers 401 when the stored hash is unusable", async () => {
    const { dispatch, token } = dispatchWithToken();
    const app = tinyApp({
      apiKey: API_KEY,
      dispatchTokens: dispatchTokenCheck(fakeLookup({ ...dispatch, tokenHash: "" })),
    });
    expect(await call(app, "POST", `/dispatch/${dispatch.id}/heartbeat`, token)).toEqual({
      status: 401,
      body: UNAUTHORIZED,
    });
  });

  it("answers 401 to garbage after kzd_ without looking anything up", async () => {
    const { dispatch, token } = dispatchWithToken();
    const lookup = fakeLookup(dispatch);
    const app = tinyApp({ apiKey: API_KEY, dispatchTokens: dispatchTokenCheck(lookup) });
    for (const garbage of [
      "kzd_",
      "kzd_garbage",
      `kzd_${dispatch.id.slice(4)}`,
      `kzd_${dispatch.id.slice(4)}_${"0".repeat(63)}`,
      `kzd_${dispatch.id.slice(4)}_${"A".repeat(64)}`,
      `kzd_${dispatch.id.slice(4).toLowerCase()}_${token.slice(31)}`,
      `${token}0`,
      `kzd_${dispatch.id}_${token.slice(31)}`,
    ]) {
      expect(await call(app, "POST", `/dispatch/${dispatch.id}/heartbeat`, garbage)).toEqual({
        status: 401,
        body: UNAUTHORIZED,
      });
    }
    expect(lookup).not.toHaveBeenCalled();
  });

  it("takes no dispatch tokens when none are configured", async () => {
    const { dispatch, token } = dispatchWithToken();
    const app = tinyApp({ apiKey: API_KEY });
    expect(await call(app, "POST", `/dispatch/${dispatch.id}/heartbeat`, token)).toEqual({
      status: 401,
      body: UNAUTHORIZED,
    });
    expect(await call(app, "POST", `/dispatch/${dispatch.id}/heartbeat`, API_KEY)).toEqual({
      status: 200,
      body: { dispatchId: null },
    });
  });

  it("fails closed with 500 when no service key is configured, even for a live token", async () => {
    const { dispatch, token } = dispatchWithToken();
    const lookup = fakeLookup(dispatch);
    const app = tinyApp({ apiKey: undefined, dispatchTokens: dispatchTokenCheck(lookup) });
    expect(await call(app, "POST", `/dispatch/${dispatch.id}/heartbeat`, token)).toEqual({
      status: 500,
      body: { error: "SERVICE_API_KEY is not configured" },
    });
    expect(lookup).not.toHaveBeenCalled();
  });

  it("lets a failing lookup propagate rather than answer 401", async () => {
    const { dispatch, token } = dispatchWithToken();
    const lookup = vi.fn(async () => {
      throw new Error("database down");
    });
    const app = tinyApp({ apiKey: API_KEY, dispatchTokens: dispatchTokenCheck(lookup) });
    expect((await call(app, "POST", `/dispatch/${dispatch.id}/heartbeat`, token)).status).toBe(500);
  });
});
