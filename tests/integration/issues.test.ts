import { beforeAll, describe, expect, it } from "vitest";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";

type Body = { data: Record<string, unknown> };

describe("POST /api/issues and GET /api/issues/:id", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("creates an issue with every field of the contract, absent values null", async () => {
    const response = await t.app.request("/api/issues", jsonPost({ title: "Checkout fails", type: "signal" }));
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as Body;
    expect(data).toEqual({
      id: expect.stringMatching(/^iss_[0-9A-Z]{26}$/),
      number: expect.any(Number),
      identifier: `KZN-${data.number}`,
      title: "Checkout fails",
      description: null,
      type: "signal",
      status: "triage",
      priority: 0,
      parentId: null,
      projectId: null,
      labels: [],
      fingerprint: null,
      signalSource: null,
      fingerprints: [],
      signalCount: 0,
      lastSignalAt: null,
      hypothesis: null,
      agentSummary: null,
      commits: [],
      pullRequests: [],
      blockedBy: [],
      reviewRounds: 0,
      feedback: [],
      verification: null,
      statusChange: null,
      completedAt: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: data.createdAt,
    });
    expect(response.headers.get("location")).toBe(`/api/issues/${data.id}`);
    expect(response.headers.get("etag")).toBe('"1"');
  });

  it("stores and returns the optional fields", async () => {
    const input = {
      title: "Hypothesis: slow search loses users",
      type: "hypothesis",
      description: "## Why\nSearch p95 is 3 s.",
      status: "backlog",
      priority: 2,
      hypothesis: {
        statement: "Search latency drives churn",
        confidence: 0.7,
        evidence: ["p95 3s", "exit rate 40%"],
        validationCriteria: "Churn drops after fix",
      },
      agentSummary: "Investigated",
      commits: [{ sha: "abc1234", message: "Speed up search" }],
      pullRequests: [{ number: 12, title: "Faster search", mergedAt: "2026-01-02T03:04:05.000Z" }],
    };
    const created = (await (await t.app.request("/api/issues", jsonPost(input))).json()) as Body;
    const fetched = await t.app.request(`/api/issues/${created.data.id}`, { headers: AUTH });
    expect(fetched.status).toBe(200);
    const { data } = (await fetched.json()) as Body;
    expect(data).toEqual({ ...created.data, parent: null, children: [], relations: [], signals: [] });
    expect(data).toMatchObject({
      ...input,
      hypothesis: { ...input.hypothesis, prediction: null },
      completedAt: null,
    });
  });

  it("sets completedAt for an issue created done or canceled", async () => {
    for (const status of ["done", "canceled"]) {
      const { data } = (await (
        await t.app.request("/api/issues", jsonPost({ title: status, type: "task", status }))
      ).json()) as Body;
      expect(data.completedAt).toEqual(expect.stringMatching(/Z$/));
    }
  });

  it("reads an issue by KZN-<number> as well as by id, with its ETag", async () => {
    const { data } = (await (
      await t.app.request("/api/issues", jsonPost({ title: "by ref", type: "task" }))
    ).json()) as Body;
    for (const ref of [`KZN-${data.number}`, `kzn-${data.number}`, String(data.id)]) {
      const response = await t.app.request(`/api/issues/${ref}`, { headers: AUTH });
      expect(response.status).toBe(200);
      expect(response.headers.get("etag")).toBe('"1"');
      expect(((await response.json()) as Body).data.id).toBe(data.id);
    }
  });

  it("answers 404 for ids and numbers that do not exist, and for malformed ids", async () => {
    for (const ref of ["KZN-99999", "iss_01ARZ3NDEKTSV4RRFFQ69G5FAV", "not-an-id", "KZN-0"]) {
      const response = await t.app.request(`/api/issues/${ref}`, { headers: AUTH });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: `Issue ${ref} not found` });
    }
  });

  it.each([
    [{ type: "task" }, "title: Invalid input: expected string, received undefined"],
    [{ title: "", type: "task" }, "title: must be 1..500 characters"],
    [{ title: "x".repeat(501), type: "task" }, "title: must be 1..500 characters"],
    [{ title: "x" }, 'type: Invalid option: expected one of "signal"|"hypothesis"|"plan"|"task"|"monitor"'],
    [
      { title: "x", type: "bug" },
      'type: Invalid option: expected one of "signal"|"hypothesis"|"plan"|"task"|"monitor"',
    ],
    [{ title: "x", type: "task", priority: 5 }, "priority: must be between 0 and 4"],
    [{ title: "x", type: "task", priority: 1.5 }, "priority: Invalid input: expected int, received number"],
    [
      { title: "x", type: "task", status: "in_progress" },
      'status: Invalid option: expected one of "triage"|"backlog"|"todo"|"done"|"canceled"',
    ],
    [{ title: "x", type: "task", titel: "typo" }, "unknown field: titel"],
    [{ title: "x", type: "task", label: ["a"], foo: 1 }, "unknown fields: label, foo"],
    [
      {
        title: "x",
        type: "task",
        hypothesis: { statement: "s", confidence: 2, evidence: [], validationCriteria: "v" },
      },
      "hypothesis.confidence: must be between 0 and 1",
    ],
    [{ title: "x", type: "task", commits: [{ sha: "zz", message: "m" }] }, "commits.0.sha: must be a hex commit sha"],
    [[], "Invalid input: expected object, received array"],
    ["just a string", "Invalid input: expected object, received string"],
  ])("refuses %j with 400: %s", async (body, message) => {
    const response = await t.app.request("/api/issues", jsonPost(JSON.stringify(body)));
    expect(response.status).toBe(400);
    const json = (await response.json()) as { error: string; details: unknown[] };
    expect(json.error).toBe(message);
    expect(json.details.length).toBeGreaterThan(0);
  });

  it("writes nothing for a refused body", async () => {
    const before = ((await (await t.app.request("/api/issues", { headers: AUTH })).json()) as { total: number }).total;
    await t.app.request("/api/issues", jsonPost({ title: "x", type: "nope" }));
    const after = ((await (await t.app.request("/api/issues", { headers: AUTH })).json()) as { total: number }).total;
    expect(after).toBe(before);
  });
});
