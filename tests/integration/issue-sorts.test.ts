/** The other orders and filters of GET /api/issues, with their totals and costs. */
import { beforeAll, describe, expect, it } from "vitest";
import type { DbUsage } from "../../core/src/index.js";
import { newIssue } from "../../core/src/issues/issue-item.js";
import { issueStore } from "../../core/src/services.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";

type Listed = {
  data: { number: number; priority: number; status: string; type: string; title: string }[];
  total: number;
};

const COUNT = 130;
const TYPES = ["signal", "hypothesis", "plan", "task", "monitor"] as const;
const STATUSES = ["triage", "backlog", "todo", "done", "canceled"] as const;

describe(`issue orders and filters over ${COUNT} issues`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
    const store = issueStore({ db: t.db });
    for (let i = 1; i <= COUNT; i++) {
      await store.create(
        newIssue({
          title: i % 10 === 0 ? `Checkout Timeout ${i}` : `Issue ${i}`,
          type: TYPES[i % 5] ?? "task",
          status: STATUSES[i % 5] ?? "triage",
          priority: i % 5,
          fingerprint: i % 13 === 0 ? "errortracker:issue:42" : null,
        }),
      );
    }
  }, 120_000);

  async function list(query: string): Promise<{ body: Listed; usage: DbUsage }> {
    const before = t.db.usage();
    const response = await t.app.request(`/api/issues${query}`, { headers: AUTH });
    expect(response.status).toBe(200);
    const after = t.db.usage();
    return {
      body: (await response.json()) as Listed,
      usage: {
        calls: after.calls - before.calls,
        readCapacity: after.readCapacity - before.readCapacity,
        writeCapacity: after.writeCapacity - before.writeCapacity,
      },
    };
  }

  const expectedPriorityOrder = (numbers: number[]) =>
    [...numbers].sort((a, b) => (a % 5 || 5) - (b % 5 || 5) || a - b);

  it("sorts by priority (urgent first, none last, then by number) across pages, three calls a page", async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 7; page++) {
      const { body, usage } = await list(`?sort=priority&page=${page}`);
      expect(body.total).toBe(COUNT);
      expect(usage.calls).toBeLessThanOrEqual(3);
      seen.push(...body.data.map((issue) => issue.number));
    }
    expect(seen).toEqual(expectedPriorityOrder(Array.from({ length: COUNT }, (_, i) => i + 1)));
  });

  it("sorts a filtered list by priority", async () => {
    const { body } = await list("?sort=priority&type=task&limit=100");
    const tasks = Array.from({ length: COUNT }, (_, i) => i + 1).filter((n) => n % 5 === 3);
    expect(body.data.map((issue) => issue.number)).toEqual(expectedPriorityOrder(tasks));
    expect(body.total).toBe(tasks.length);
  });

  it("sorts by number ascending", async () => {
    const { body } = await list("?sort=number&limit=5&page=2");
    expect(body.data.map((issue) => issue.number)).toEqual([6, 7, 8, 9, 10]);
  });

  it("sorts by -updatedAt: the most recently changed first, three calls a page", async () => {
    for (const number of [7, 77, 3]) {
      const response = await t.app.request(`/api/issues/KZN-${number}`, {
        ...jsonPost({ title: `Touched ${number}` }),
        method: "PATCH",
      });
      expect(response.status).toBe(200);
    }
    const { body, usage } = await list("?sort=-updatedAt&limit=4");
    expect(body.data.map((issue) => issue.number)).toEqual([3, 77, 7, COUNT]);
    expect(body.total).toBe(COUNT);
    expect(usage.calls).toBeLessThanOrEqual(3);
    const far = await list("?sort=-updatedAt&page=7");
    expect(far.body.data.length).toBe(10);
    expect(far.usage.calls).toBeLessThanOrEqual(3);
    const filtered = await list("?sort=-updatedAt&q=touched");
    expect(filtered.body.data.map((issue) => issue.number)).toEqual([3, 77, 7]);
  });

  it("filters by comma lists of status and type, with exact totals", async () => {
    const { body } = await list("?status=todo,done&limit=100&sort=createdAt");
    const expected = Array.from({ length: COUNT }, (_, i) => i + 1).filter((n) => n % 5 === 2 || n % 5 === 3);
    expect(body.data.map((issue) => issue.number)).toEqual(expected);
    expect(body.total).toBe(expected.length);
    const both = await list("?status=todo,done&type=plan,task");
    expect(both.body.total).toBe(expected.length);
    const one = await list("?status=todo&type=signal,monitor");
    expect(one.body.total).toBe(0);
  });

  it("searches titles case-insensitively with q", async () => {
    const { body } = await list("?q=checkout%20TIMEOUT&sort=createdAt&limit=100");
    expect(body.data.map((issue) => issue.number)).toEqual(
      Array.from({ length: COUNT / 10 }, (_, i) => (i + 1) * 10).filter((n) => ![3, 7, 77].includes(n)),
    );
    expect((await list("?q=nothing-like-this")).body).toEqual({ data: [], total: 0 });
    expect((await list("?q=timeout&status=triage")).body.total).toBe(COUNT / 10);
  });

  it("filters by fingerprint", async () => {
    const { body } = await list("?fingerprint=errortracker%3Aissue%3A42&sort=createdAt&limit=100");
    expect(body.data.map((issue) => issue.number)).toEqual(
      Array.from({ length: Math.floor(COUNT / 13) }, (_, i) => (i + 1) * 13),
    );
  });

  it("refuses bad values of the new parameters", async () => {
    for (const [query, message] of [
      ["sort=title", "sort: Invalid option"],
      ["q=", "q: must not be empty"],
      ["parentId=123", "parentId: must be an issue id"],
      ["fingerprint=", "fingerprint: must not be empty"],
    ] as const) {
      const response = await t.app.request(`/api/issues?${query}`, { headers: AUTH });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error.startsWith(message)).toBe(true);
    }
  });
});
