import { beforeAll, describe, expect, it } from "vitest";
import { ListingIndex } from "../../core/src/db/listing-index.js";
import type { DbUsage } from "../../core/src/index.js";
import { newIssue } from "../../core/src/issues/issue-item.js";
import { ISSUE_UPDATED_LISTINGS } from "../../core/src/issues/keys.js";
import { issueStore } from "../../core/src/services.js";
import { AUTH, type TestApp, testApp } from "../helpers/app.js";

const COUNT = 260;

const fields = (i: number) =>
  newIssue({
    title: `Issue ${i}`,
    type: i % 2 === 0 ? "task" : "signal",
    status: i % 4 === 0 ? "todo" : "triage",
    priority: i % 5,
  });

describe(`issue listing costs over ${COUNT} issues (three count buckets)`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
    const store = issueStore({ db: t.db });
    for (let i = 1; i <= COUNT; i++) await store.create(fields(i));
  }, 180_000);

  async function measured(
    query: string,
  ): Promise<{ usage: DbUsage; body: { data: { number: number }[]; total: number } }> {
    const before = t.db.usage();
    const response = await t.app.request(`/api/issues${query}`, { headers: AUTH });
    const after = t.db.usage();
    expect(response.status).toBe(200);
    return {
      usage: {
        calls: after.calls - before.calls,
        readCapacity: after.readCapacity - before.readCapacity,
        writeCapacity: after.writeCapacity - before.writeCapacity,
      },
      body: (await response.json()) as { data: { number: number }[]; total: number },
    };
  }

  it("pages in both orders across buckets with no gap or repeat", async () => {
    for (const [sort, expected] of [
      ["createdAt", Array.from({ length: COUNT }, (_, i) => i + 1)],
      ["-createdAt", Array.from({ length: COUNT }, (_, i) => COUNT - i)],
    ] as const) {
      const seen: number[] = [];
      for (let page = 1; page <= Math.ceil(COUNT / 30); page++) {
        seen.push(...(await measured(`?sort=${sort}&limit=30&page=${page}`)).body.data.map((issue) => issue.number));
      }
      expect(seen).toEqual(expected);
    }
    const todo: number[] = [];
    for (let page = 1; page <= 7; page++) {
      todo.push(
        ...(await measured(`?status=todo&limit=10&page=${page}&sort=createdAt`)).body.data.map((i) => i.number),
      );
    }
    expect(todo).toEqual(Array.from({ length: COUNT / 4 }, (_, i) => 4 * (i + 1)));
  });

  it("costs three calls per page, the first page or the last", async () => {
    for (const query of ["?page=1", "?page=13", "?page=13&sort=createdAt", "?status=todo&page=7&limit=10"]) {
      const { usage, body } = await measured(query);
      expect(body.data.length).toBeGreaterThan(0);
      expect(usage.calls).toBe(3);
    }
  });

  it("reaches a page in the far half of a crowded bucket from the bucket's other end", async () => {
    // Every issue was updated (created) within moments, so the -updatedAt listing holds them all
    // in one hour bucket: the last page must not walk the whole bucket to get there.
    const first = await measured("?sort=-updatedAt&limit=1&page=1");
    const last = await measured(`?sort=-updatedAt&limit=1&page=${COUNT}`);
    expect(first.body.data.map((issue) => issue.number)).toEqual([COUNT]);
    expect(last.body.data.map((issue) => issue.number)).toEqual([1]);
    expect(last.usage.calls).toBe(3);
    expect(last.usage.readCapacity / first.usage.readCapacity).toBeLessThanOrEqual(2);
    const partial = await measured(`?sort=-updatedAt&limit=50&page=${Math.ceil(COUNT / 50)}`);
    expect(partial.body.data.map((issue) => issue.number)).toEqual(
      Array.from({ length: COUNT % 50 }, (_, i) => (COUNT % 50) - i),
    );
    expect(partial.usage.calls).toBe(3);
    // The listing's own reads (no BatchGet): the short last page is read from the far end too.
    const updated = new ListingIndex(t.db, ISSUE_UPDATED_LISTINGS);
    const readOf = async (offset: number, limit: number) => {
      const before = t.db.usage().readCapacity;
      const page = await updated.page("all", { order: "desc", offset, limit });
      return { read: t.db.usage().readCapacity - before, size: page.entries.length };
    };
    const head = await readOf(0, 50);
    const tail = await readOf(COUNT - (COUNT % 50), 50);
    expect(tail.size).toBe(COUNT % 50);
    expect(tail.read).toBeLessThanOrEqual(head.read);
    const middle = await measured(`?sort=-updatedAt&limit=7&page=30`);
    expect(middle.body.data.map((issue) => issue.number)).toEqual(Array.from({ length: 7 }, (_, i) => COUNT - 203 - i));
  });

  it("answers past the end from the counts alone (one call)", async () => {
    const { usage, body } = await measured("?page=14");
    expect(body).toEqual({ data: [], total: COUNT });
    expect(usage.calls).toBe(1);
  });

  it("does not read the items it skips: the last page costs about what the first does", async () => {
    const first = await measured("?page=1");
    const last = await measured("?page=13");
    expect(first.usage.readCapacity).toBeGreaterThan(0);
    // Reading the 240 skipped issues would cost over ten times the first page.
    expect(last.usage.readCapacity / first.usage.readCapacity).toBeLessThanOrEqual(1.5);
  });

  it("reads an issue's whole detail in one call by id, two by KZN-<number> (the number lookup first)", async () => {
    const { body } = await measured("?limit=1");
    const before = t.db.usage();
    const response = await t.app.request(`/api/issues/KZN-${body.data[0]?.number}`, { headers: AUTH });
    expect(response.status).toBe(200);
    const id = ((await response.json()) as { data: { id: string } }).data.id;
    const middle = t.db.usage();
    expect((await t.app.request(`/api/issues/${id}`, { headers: AUTH })).status).toBe(200);
    const after = t.db.usage();
    expect(middle.calls - before.calls).toBe(2);
    expect(after.calls - middle.calls).toBe(1);
    const detail = (await (await t.app.request(`/api/issues/${id}`, { headers: AUTH })).json()) as {
      data: Record<string, unknown>;
    };
    expect(detail.data).toMatchObject({ parent: null, children: [], relations: [], signals: [] });
  });

  it("costs two calls to create (the number's atomic update, one transaction), both writes", async () => {
    const before = t.db.usage();
    await issueStore({ db: t.db }).create(fields(COUNT + 1));
    const after = t.db.usage();
    expect(after.calls - before.calls).toBe(2);
    expect(after.readCapacity - before.readCapacity).toBe(0);
    expect(after.writeCapacity - before.writeCapacity).toBeGreaterThan(2);
  });
});
