/**
 * What a request's audit record names as its target (core/src/http/audit.ts, docs/security.md#audit-log):
 * the route's `:id`, or what the request created, as its answer's `Location` names it, even when the
 * change that carried the record put another resource first. No database: the trail is an in-memory
 * fake of `AuditTrail`, and the handler's change is given.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { TransactItem } from "../../../core/src/db/db.js";
import { type AuditRecord, type AuditTrail, auditTrail } from "../../../core/src/http/audit.js";
import type { AppEnv } from "../../../core/src/http/env.js";
import type { RouteSpec } from "../../../core/src/routes.js";

/** A put of resource `id` of kind `entity`, as a store prepares one. */
const put = (entity: string, id: string): TransactItem => ({ Put: { Item: { pk: id, sk: entity, entity, id } } });

/** A trail that keeps what it is asked to write, the record carried by `change` among them. */
function fakeTrail(change: TransactItem[]) {
  const carried: AuditRecord[] = [];
  const amended: { status: number; targetId: string | null }[] = [];
  const trail: AuditTrail = {
    async carry(draft, work) {
      carried.push(draft(change));
      await work();
      return { written: true, missed: false };
    },
    async write() {},
    async amend(_record, changes) {
      amended.push(changes);
    },
  };
  return { trail, carried, amended };
}

/** An app of one POST route at `path` that changes something and answers 201 with `location`, if any. */
function appOf(path: string, trail: AuditTrail, location?: string) {
  const route: RouteSpec = { method: "POST", path, auth: "bearer", scope: "write", reach: "handler" };
  const app = new Hono<AppEnv>();
  app.post(
    path,
    auditTrail(route, trail, 201, () => new Date("2026-11-28T08:00:00Z")),
    (c) => {
      if (location) c.header("Location", location);
      return c.json({ data: {} }, 201);
    },
  );
  return app;
}

describe("an audit record's target", () => {
  it("is what the answer's Location names, carried at once when the change put it first", async () => {
    const { trail, carried, amended } = fakeTrail([put("dispatch", "dsp_1"), put("issue", "iss_1")]);
    await appOf("/api/dispatch/claim", trail, "/api/dispatch/dsp_1").request("/api/dispatch/claim", { method: "POST" });
    expect(carried.map(({ targetId }) => targetId)).toEqual(["dsp_1"]);
    expect(amended).toEqual([]);
  });

  it("is what the answer's Location names when the change put another resource first, amended once answered", async () => {
    const { trail, carried, amended } = fakeTrail([put("issue", "iss_1"), put("dispatch", "dsp_1")]);
    await appOf("/api/dispatch/claim", trail, "/api/dispatch/dsp_1").request("/api/dispatch/claim", { method: "POST" });
    expect(carried.map(({ targetId }) => targetId)).toEqual(["iss_1"]);
    expect(amended).toEqual([{ status: 201, targetId: "dsp_1" }]);
  });

  it("is the route's :id, whatever the request created", async () => {
    const { trail, carried, amended } = fakeTrail([put("relation", "rel_1")]);
    await appOf("/api/issues/:id/relations", trail, "/api/relations/rel_1").request("/api/issues/iss_1/relations", {
      method: "POST",
    });
    expect(carried.map(({ targetId }) => targetId)).toEqual(["iss_1"]);
    expect(amended).toEqual([]);
  });
});
