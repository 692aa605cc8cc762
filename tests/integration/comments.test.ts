/**
 * `GET|POST /api/issues/:id/comments` through the app factory (docs/api.md#issue-endpoints). Storage and paging
 * details are covered against the service in comments-service.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AUTH, createIssues, jsonPost, type TestApp, testApp } from "../helpers/app.js";

type Comment = {
  id: string;
  issueId: string;
  parentId: string | null;
  body: string;
  authorName: string;
  authorType: string;
  createdAt: string;
  updatedAt: string;
};
type ItemBody = { data: Comment };
type ListBody = { data: Comment[]; total: number };
type ErrorBody = { error: string; details?: { path: string; message: string }[] };

const UNKNOWN_ISSUE = "iss_01ARZ3NDEKTSV4RRFFQ69G5FAV";
const UNKNOWN_COMMENT = "cmt_01ARZ3NDEKTSV4RRFFQ69G5FAV";
const valid = { body: "Repro: add two items, **then** pay.", authorName: "Ada", authorType: "human" };

describe("GET|POST /api/issues/:id/comments", () => {
  let t: TestApp;
  let issue: { id: string; identifier: string };
  let other: { id: string; identifier: string };

  beforeAll(async () => {
    t = await testApp();
    [issue, other] = (await createIssues(t.app, 2)) as unknown as [typeof issue, typeof issue];
  });

  async function post(ref: string, body: unknown, headers: Record<string, string> = {}) {
    const response = await t.app.request(`/api/issues/${ref}/comments`, jsonPost(body, headers));
    return { response, body: (await response.json()) as ItemBody & ErrorBody };
  }

  async function list(ref: string, query = "") {
    const response = await t.app.request(`/api/issues/${ref}/comments${query}`, { headers: AUTH });
    return { response, body: (await response.json()) as ListBody & ErrorBody };
  }

  async function freshIssue(): Promise<{ id: string; identifier: string }> {
    return (await createIssues(t.app, 1))[0] as unknown as { id: string; identifier: string };
  }

  it("creates a comment: 201 with every field of the contract, an ETag and no Location", async () => {
    const { response, body } = await post(issue.id, { ...valid, authorType: "agent" });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("etag")).toBe('"1"');
    // No route reads one comment, so there is nothing for a Location to name.
    expect(response.headers.get("location")).toBeNull();
    expect(body.data).toEqual({
      id: expect.stringMatching(/^cmt_[0-9A-HJKMNP-TV-Z]{26}$/),
      issueId: issue.id,
      parentId: null,
      body: valid.body,
      authorName: "Ada",
      authorType: "agent",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: body.data.createdAt,
    });
    const listed = await list(issue.id);
    expect(listed.response.status).toBe(200);
    expect(listed.body).toEqual({ data: [body.data], total: 1 });
  });

  it("takes the issue as KZN-<n> too", async () => {
    const target = await freshIssue();
    const { response, body } = await post(target.identifier, valid);
    expect(response.status).toBe(201);
    expect(body.data.issueId).toBe(target.id);
    expect((await list(target.identifier)).body).toEqual({ data: [body.data], total: 1 });
  });

  it("lists oldest first, 25 comments as pages of 20 and 5 with the total and Link headers", async () => {
    const target = await freshIssue();
    const ids: string[] = [];
    for (let i = 1; i <= 25; i++) ids.push((await post(target.id, { ...valid, body: `comment ${i}` })).body.data.id);

    const first = await list(target.id);
    expect(first.body.total).toBe(25);
    expect(first.body.data.map((c) => c.id)).toEqual(ids.slice(0, 20));
    expect(first.response.headers.get("link")).toBe(
      `<http://localhost/api/issues/${target.id}/comments?page=2&limit=20>; rel="next"`,
    );

    const second = await list(target.id, "?page=2");
    expect(second.body.total).toBe(25);
    expect(second.body.data.map((c) => c.id)).toEqual(ids.slice(20));
    expect(second.response.headers.get("link")).toBe(
      `<http://localhost/api/issues/${target.id}/comments?page=1&limit=20>; rel="prev"`,
    );

    const past = await list(target.id, "?page=3");
    expect(past.response.status).toBe(200);
    expect(past.body).toEqual({ data: [], total: 25 });

    const small = await list(target.id, "?page=4&limit=5");
    expect(small.body.data.map((c) => c.body)).toEqual([
      "comment 16",
      "comment 17",
      "comment 18",
      "comment 19",
      "comment 20",
    ]);
  });

  it("threads replies (of any depth) and filters one comment's direct replies", async () => {
    const target = await freshIssue();
    const root = (await post(target.id, { ...valid, body: "root" })).body.data;
    const reply = await post(target.id, { ...valid, body: "reply", parentId: root.id });
    expect(reply.response.status).toBe(201);
    expect(reply.body.data.parentId).toBe(root.id);
    const nested = (await post(target.id, { ...valid, body: "nested", parentId: reply.body.data.id })).body.data;
    expect(nested.parentId).toBe(reply.body.data.id);
    const second = (await post(target.identifier, { ...valid, body: "reply 2", parentId: root.id })).body.data;

    expect((await list(target.id)).body.data.map((c) => c.body)).toEqual(["root", "reply", "nested", "reply 2"]);
    expect((await list(target.id, `?parentId=${root.id}`)).body).toEqual({ data: [reply.body.data, second], total: 2 });
    expect((await list(target.id, `?parentId=${reply.body.data.id}`)).body).toEqual({ data: [nested], total: 1 });
    expect((await list(target.id, `?parentId=${nested.id}`)).body).toEqual({ data: [], total: 0 });
    // Another issue's comment has no replies here; the filter matches nothing.
    expect((await list(other.id, `?parentId=${root.id}`)).body).toEqual({ data: [], total: 0 });
  });

  it("refuses a parentId that is not a comment of this issue (400), writing nothing", async () => {
    const target = await freshIssue();
    const foreign = (await post(other.id, valid)).body.data;
    for (const parentId of [foreign.id, UNKNOWN_COMMENT]) {
      const { response, body } = await post(target.id, { ...valid, parentId });
      expect(response.status).toBe(400);
      expect(body.error).toBe(`parentId: comment ${parentId} is not a comment of this issue`);
    }
    expect((await list(target.id)).body).toEqual({ data: [], total: 0 });
  });

  it.each([
    ["an empty body", { ...valid, body: "" }, /^body: /],
    ["a blank body", { ...valid, body: "   \n" }, /^body: /],
    ["a body over 50000 characters", { ...valid, body: "x".repeat(50_001) }, /^body: must be 1\.\.50000 characters/],
    ["an empty authorName", { ...valid, authorName: "" }, /^authorName: /],
    ["an authorName over 100 characters", { ...valid, authorName: "a".repeat(101) }, /^authorName: /],
    ["a bad authorType", { ...valid, authorType: "bot" }, /^authorType: /],
    ["a missing authorType", { body: "x", authorName: "Ada" }, /^authorType: /],
    ["an unknown field", { ...valid, title: "x" }, /unknown field: title/],
    ["a malformed parentId", { ...valid, parentId: "KZN-1" }, /^parentId: must be a comment id/],
  ])("refuses %s with a 400 naming the field", async (_name, input, message) => {
    const { response, body } = await post(issue.id, input);
    expect(response.status).toBe(400);
    expect(body.error).toMatch(message);
  });

  it("refuses malformed JSON (400) and bodies that are not JSON (415)", async () => {
    expect((await post(issue.id, "{nope")).response.status).toBe(400);
    const response = await t.app.request(`/api/issues/${issue.id}/comments`, {
      method: "POST",
      headers: { ...AUTH, "Content-Type": "text/plain" },
      body: "hello",
    });
    expect(response.status).toBe(415);
  });

  it.each([
    ["an unknown parameter", "?sort=createdAt", /unknown field: sort/],
    ["a malformed parentId", "?parentId=abc", /^parentId: /],
    ["limit 0", "?limit=0", /^limit: /],
    ["page -1", "?page=-1", /^page: /],
  ])("refuses a list query with %s (400)", async (_name, query, message) => {
    const { response, body } = await list(issue.id, query);
    expect(response.status).toBe(400);
    expect(body.error).toMatch(message);
  });

  it("404s for an unknown issue, by id and by KZN-<n>, on both methods", async () => {
    for (const ref of [UNKNOWN_ISSUE, "KZN-99999"]) {
      const posted = await post(ref, valid);
      expect(posted.response.status).toBe(404);
      expect(posted.body.error).toBe(`Issue ${ref} not found`);
      const listed = await list(ref);
      expect(listed.response.status).toBe(404);
      expect(listed.body.error).toBe(`Issue ${ref} not found`);
    }
  });

  it("needs the bearer token", async () => {
    expect((await t.app.request(`/api/issues/${issue.id}/comments`)).status).toBe(401);
    const response = await t.app.request(`/api/issues/${issue.id}/comments`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(valid),
    });
    expect(response.status).toBe(401);
  });

  it("reads a page by issue id in three calls (counts, entries, BatchGet)", async () => {
    const target = await freshIssue();
    for (let i = 0; i < 5; i++) await post(target.id, { ...valid, body: `c${i}` });
    const before = t.db.usage();
    const { response, body } = await list(target.id, "?limit=2&page=2");
    const calls = t.db.usage().calls - before.calls;
    expect(response.status).toBe(200);
    expect(body.data.map((c) => c.body)).toEqual(["c2", "c3"]);
    expect(calls).toBe(3);
  });
});
