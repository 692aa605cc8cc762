/**
 * The one-item envelope and its `ETag` (docs/api.md#concurrency-and-idempotency): a stored version as a
 * strong tag, and for a document computed for the request a weak tag of its content, the same for
 * the same content, another for other content, and never one `If-Match` accepts.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { contentEtagOf, etagOf, FIRST_ETAG, itemResponse, storedResponse } from "../../../core/src/http/respond.js";

describe("an item answer's ETag", () => {
  it("is the tag it is given, beside the envelope", async () => {
    const app = new Hono();
    app.get("/", (c) => itemResponse(c, { id: "x" }, { status: 201, etag: etagOf(3) }));
    const response = await app.request("/");
    expect(response.status).toBe(201);
    expect(response.headers.get("etag")).toBe('"3"');
    expect(await response.json()).toEqual({ data: { id: "x" } });
    expect(FIRST_ETAG).toBe('"1"');
  });

  it("of a stored resource is its version, with `Location` where it is read when one is given", async () => {
    const app = new Hono();
    app.get("/made", (c) => storedResponse(c, { id: "x" }, 1, { status: 201, location: "/api/things/x" }));
    app.get("/read", (c) => storedResponse(c, { id: "x" }, 4));
    const made = await app.request("/made");
    expect(made.status).toBe(201);
    expect(made.headers.get("etag")).toBe('"1"');
    expect(made.headers.get("location")).toBe("/api/things/x");
    expect(await made.json()).toEqual({ data: { id: "x" } });
    const read = await app.request("/read");
    expect(read.status).toBe(200);
    expect(read.headers.get("etag")).toBe('"4"');
    expect(read.headers.get("location")).toBeNull();
  });

  it("of computed content is weak and follows the content", () => {
    const tag = contentEtagOf({ total: 3, byStatus: { todo: 3 } });
    expect(tag).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
    expect(contentEtagOf({ total: 3, byStatus: { todo: 3 } })).toBe(tag);
    expect(contentEtagOf({ total: 4, byStatus: { todo: 4 } })).not.toBe(tag);
    // A weak tag is refused by If-Match (tests/unit/conditional.test.ts reads one).
    expect(tag.startsWith('W/"')).toBe(true);
  });
});
