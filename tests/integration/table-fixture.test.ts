/**
 * Data written by an earlier release stays readable (docs/architecture.md#item-kinds): each table
 * fixture (tests/fixtures/table/, made by scripts/table-fixture.ts) is loaded into a fresh table on
 * DynamoDB Local and every item of it read back through today's API, values compared with the
 * fixture's.
 */
import { readdirSync, readFileSync } from "node:fs";
import { type AttributeValue, BatchWriteItemCommand } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { NO_LIMITS } from "../../core/src/catalog/label-store.js";
import { entitiesOf, type StampedKind } from "../../core/src/db/item-kinds.js";
import { AUTH, dataOf, type TestApp, testApp } from "../helpers/app.js";

type Item = Record<string, unknown>;
type Wire = Record<string, unknown>;

const FIXTURES = new URL("../fixtures/table/", import.meta.url);
const FILES = readdirSync(FIXTURES).filter((file) => file.endsWith(".json"));

/** A fixture item's attribute back in the SDK's form: base64 binary as bytes. */
function attribute(value: Wire): AttributeValue {
  if (typeof value.B === "string") return { B: Buffer.from(value.B, "base64") };
  if (Array.isArray(value.BS)) return { BS: (value.BS as string[]).map((b) => Buffer.from(b, "base64")) };
  if (Array.isArray(value.L)) return { L: (value.L as Wire[]).map(attribute) };
  if (value.M) return { M: attributes(value.M as Record<string, Wire>) };
  return value as unknown as AttributeValue;
}

function attributes(item: Record<string, Wire>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(item).map(([name, value]) => [name, attribute(value)]));
}

async function load(t: TestApp, items: Record<string, AttributeValue>[]): Promise<void> {
  for (let start = 0; start < items.length; start += 25) {
    let requests = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    while (requests.length > 0) {
      const out = await t.db.client.send(new BatchWriteItemCommand({ RequestItems: { [t.tableName]: requests } }));
      requests = (out.UnprocessedItems?.[t.tableName] ?? []) as typeof requests;
    }
  }
}

/** The fields of `item` named, as stored (absent ones as null). */
function pick(item: Item, fields: string[]): Item {
  return Object.fromEntries(fields.map((field) => [field, item[field] ?? null]));
}

describe.each(FILES)("the table written by %s", (file) => {
  const fixture = JSON.parse(readFileSync(new URL(file, FIXTURES), "utf8")) as { items: Record<string, Wire>[] };
  const wire = fixture.items.map(attributes);
  const items = wire.map((item) => unmarshall(item) as Item);
  /** The items of a kind, whichever of its entity values (today's or legacy) they were written with. */
  const of = (kind: StampedKind) => items.filter((item) => entitiesOf(kind).includes(String(item.entity)));
  const get = <T = Item>(path: string) => dataOf<T>(t.app.request(path, { headers: AUTH }));
  let t: TestApp;

  beforeAll(async () => {
    t = await testApp();
    await load(t, wire);
  });

  it("holds items of every kind the release wrote", () => {
    for (const kind of ["issue", "signal", "template", "templatever", "version", "prompt", "dispatch"] as const) {
      expect(of(kind).length, kind).toBeGreaterThan(0);
    }
    for (const kind of ["destination", "eventdelivery", "project", "goal", "label", "comment", "experiment"] as const) {
      expect(of(kind).length, kind).toBeGreaterThan(0);
    }
    expect(of("issue").some((issue) => issue.deletedAt)).toBe(true);
    expect(of("issue").some((issue) => issue.deletedAt)).toBe(true);
  });

  it("reads back every issue, and lists those not deleted", async () => {
    const live = of("issue").filter((issue) => !issue.deletedAt);
    for (const stored of live) {
      const issue = await get<Item>(`/api/issues/${stored.id}`);
      const fields = ["id", "number", "title", "type", "status", "priority", "labels", "projectId", "parentId"];
      expect(pick(issue, fields)).toEqual(pick(stored, fields));
      expect(await get<Item>(`/api/issues/KZN-${stored.number}`)).toMatchObject({ id: stored.id });
    }
    const listed = await t.app.request("/api/issues?limit=100", { headers: AUTH });
    const body = (await listed.json()) as { data: Item[]; total: number };
    expect(body.data.map((issue) => issue.id).sort()).toEqual(live.map((issue) => issue.id).sort());
    for (const deleted of of("issue").filter((issue) => issue.deletedAt)) {
      expect((await t.app.request(`/api/issues/${deleted.id}`, { headers: AUTH })).status).toBeGreaterThanOrEqual(400);
    }
  });

  it("reads back every comment of every issue", async () => {
    const byIssue = new Map<string, Item[]>();
    for (const comment of of("comment")) {
      byIssue.set(String(comment.issueId), [...(byIssue.get(String(comment.issueId)) ?? []), comment]);
    }
    for (const [issueId, stored] of byIssue) {
      const comments = await get<Item[]>(`/api/issues/${issueId}/comments`);
      const fields = ["id", "body", "authorType", "authorName", "parentId", "createdAt"];
      expect(comments.map((comment) => pick(comment, fields)).sort(byId)).toEqual(
        stored.map((comment) => pick(comment, fields)).sort(byId),
      );
    }
  });

  it("reads back every signal, with the issue it made or joined", async () => {
    for (const stored of of("signal")) {
      const signal = await get<Item>(`/api/signals/${stored.id}`);
      const fields = ["id", "source", "type", "title", "severity", "fingerprint", "issueId", "action", "receivedAt"];
      expect(pick(signal, fields)).toEqual(pick(stored, fields));
      expect(signal.payload).toBeDefined();
    }
    const listed = await get<Item[]>("/api/signals?limit=100");
    expect(listed.map((signal) => signal.id).sort()).toEqual(
      of("signal")
        .map((signal) => signal.id)
        .sort(),
    );
  });

  it("reads back every template, its versions (by number and by id) and experiments", async () => {
    const versions = of("templatever");
    for (const stored of of("template")) {
      const template = await get<Item>(`/api/templates/${stored.id}`);
      const fields = ["id", "slug", "name", "specificity", "activeVersionId", "conditions"];
      expect(pick(template, fields)).toEqual(pick(stored, fields));
      const listed = await get<Item[]>(`/api/templates/${stored.id}/versions`);
      const mine = versions.filter((version) => version.templateId === stored.id);
      const versionFields = [
        "id",
        "templateId",
        "version",
        "content",
        "status",
        "changelog",
        "authorType",
        "authorName",
      ];
      expect(listed.map((version) => pick(version, versionFields)).sort(byId)).toEqual(
        mine.map((version) => pick(version, versionFields)).sort(byId),
      );
    }
    for (const pointer of of("version")) {
      const template = of("template").find((candidate) => candidate.id === pointer.templateId);
      const listed = await get<Item[]>(`/api/templates/${pointer.templateId}/versions`);
      expect(template, String(pointer.templateId)).toBeDefined();
      const versionId = String(pointer.pk).slice("$kaizen#version_1#".length);
      expect(listed.find((version) => version.version === pointer.number)?.id).toBe(versionId);
    }
    for (const stored of of("experiment")) {
      const path = `/api/templates/${stored.templateId}/experiments/${stored.id}`;
      const experiment = await get<Item>(path);
      const fields = ["id", "templateId", "candidateVersionId", "controlVersionId", "trafficPercent", "status"];
      expect(pick(experiment, fields)).toEqual(pick(stored, fields));
      // Stored before experiments had a version: 1 while it runs, 2 once it ended.
      const etag = (await t.app.request(path, { headers: AUTH })).headers.get("etag");
      expect(etag).toBe(
        stored.version === undefined ? (stored.status === "running" ? '"1"' : '"2"') : `"${stored.version}"`,
      );
    }
  });

  it("reads back every prompt and its reviews, and each version's review score", async () => {
    const reviewEntries = items.filter((item) => String(item.pk).startsWith("$kaizen#reviewlist_1#prompt="));
    for (const stored of of("prompt")) {
      const prompt = await get<Item>(`/api/prompts/${stored.id}`);
      const fields = ["id", "templateId", "versionId", "issueId", "dispatchId", "text", "createdAt"];
      expect(pick(prompt, fields)).toEqual(pick(stored, fields));
      const reviews = await get<Item[]>(`/api/prompts/${stored.id}/reviews`);
      const mine = reviewEntries.filter((entry) => entry.pk === `$kaizen#reviewlist_1#prompt=${stored.id}`);
      expect(reviews.map((review) => review.id).sort()).toEqual(mine.map((entry) => entry.id).sort());
    }
    for (const tally of of("templateverreviews")) {
      const templateId = String(tally.pk).slice("$kaizen#template_1#".length);
      const number = Number(String(tally.sk).split("#")[2]);
      const listed = await get<Item[]>(`/api/templates/${templateId}/versions`);
      expect(listed.find((version) => version.version === number)).toMatchObject({
        reviewCount: tally.reviewCount,
        reviewScore: tally.reviewScore,
      });
    }
  });

  it("reads back every dispatch, with the usage its agent reported", async () => {
    for (const stored of of("dispatch")) {
      const dispatch = await get<Item>(`/api/dispatch/${stored.id}`);
      const fields = ["id", "issueId", "agent", "status", "promptId", "claimedAt", "finishedAt", "usage"];
      expect(pick(dispatch, fields)).toEqual(pick(stored, fields));
    }
  });

  it("reads back every destination (without its secret) and every delivery", async () => {
    const deliveries = of("eventdelivery");
    for (const stored of of("destination")) {
      const destination = await get<Item>(`/api/event-destinations/${stored.id}`);
      const fields = ["id", "url", "events", "active", "createdAt"];
      expect(pick(destination, fields)).toEqual(pick(stored, fields));
      expect(destination.secret).toBeUndefined();
      const listed = await get<Item[]>(`/api/event-destinations/${stored.id}/deliveries?limit=100`);
      const mine = deliveries.filter((delivery) => delivery.destinationId === stored.id);
      const deliveryFields = ["id", "eventId", "eventType", "status"];
      expect(listed.map((delivery) => pick(delivery, deliveryFields)).sort(byId)).toEqual(
        mine.map((delivery) => pick(delivery, deliveryFields)).sort(byId),
      );
    }
  });

  it("reads back every project, goal and label", async () => {
    for (const [kind, path, fields] of [
      ["project", "projects", ["id", "name", "description", "status", "goalId", "limits"]],
      ["goal", "goals", ["id", "title", "status", "projectId"]],
    ] as const) {
      for (const stored of of(kind)) {
        // A limit added after the release that wrote the table reads as null (no limit).
        const expected =
          kind === "project" ? { ...stored, limits: { ...NO_LIMITS, ...(stored.limits as object) } } : stored;
        expect(pick(await get<Item>(`/api/${path}/${stored.id}`), [...fields])).toEqual(pick(expected, [...fields]));
      }
      const listed = await get<Item[]>(`/api/${path}?limit=100`);
      expect(listed.map((record) => record.id).sort()).toEqual(
        of(kind)
          .map((record) => record.id)
          .sort(),
      );
    }
    // Labels are read as a list only.
    const fields = ["id", "name", "color", "createdAt"];
    const labels = await get<Item[]>("/api/labels?limit=100");
    expect(labels.map((label) => pick(label, fields)).sort(byId)).toEqual(
      of("label")
        .map((label) => pick(label, fields))
        .sort(byId),
    );
  });

  it("counts the stored issues and dispatches on the dashboard", async () => {
    type Stats = { issues: { total: number; byStatus: Record<string, number> }; dispatches: Record<string, number> };
    const stats = await get<Stats>("/api/dashboard/stats");
    const live = of("issue").filter((issue) => !issue.deletedAt);
    expect(stats.issues.total).toBe(live.length);
    expect(stats.issues.byStatus).toMatchObject(countBy(live, "status"));
    expect(stats.dispatches).toMatchObject(countBy(of("dispatch"), "status"));
  });
});

function countBy(items: Item[], field: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[String(item[field])] = (counts[String(item[field])] ?? 0) + 1;
  return counts;
}

function byId(a: Item, b: Item): number {
  return String(a.id).localeCompare(String(b.id));
}
