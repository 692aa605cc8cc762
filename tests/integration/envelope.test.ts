import { Logger } from "@aws-lambda-powertools/logger";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import { createApp, createDb } from "../../core/src/index.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { TEST_API_KEY, testConfig } from "../helpers/db.js";

describe("error envelope", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("answers unknown routes with a JSON 404", async () => {
    for (const path of ["/nope", "/api/nope", "/api/issues/iss_x/unknown"]) {
      const response = await t.app.request(path, { headers: AUTH });
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await response.json()).toEqual({ error: `No route for GET ${path}` });
    }
  });

  it("answers a wrong method on a known path with 405 and Allow", async () => {
    const put = await t.app.request("/api/issues", { method: "PUT", headers: AUTH });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(await put.json()).toEqual({ error: "Method not allowed" });
    const putOne = await t.app.request("/api/issues/KZN-1", { method: "PUT", headers: AUTH });
    expect(putOne.status).toBe(405);
    expect(putOne.headers.get("allow")).toBe("DELETE, GET, HEAD, PATCH");
    const post = await t.app.request("/health", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  it("answers HEAD wherever GET is served (the gateway routes both), with no body", async () => {
    const head = await t.app.request("/api/issues", { method: "HEAD", headers: AUTH });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect((await t.app.request("/health", { method: "HEAD" })).status).toBe(200);
  });

  it("answers malformed JSON with 400", async () => {
    const response = await t.app.request("/api/issues", jsonPost('{"title": "x",'));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "Malformed JSON body" });
  });

  it("answers an empty body with 400", async () => {
    const response = await t.app.request("/api/issues", jsonPost(""));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/empty/);
  });

  it("answers a body that is not declared JSON with 415", async () => {
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", ""]) {
      const response = await t.app.request("/api/issues", {
        method: "POST",
        headers: { ...AUTH, ...(contentType ? { "Content-Type": contentType } : {}) },
        body: JSON.stringify({ title: "x", type: "task" }),
      });
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({ error: "Content-Type must be application/json" });
    }
  });

  it("accepts JSON with a charset parameter", async () => {
    const response = await t.app.request(
      "/api/issues",
      jsonPost({ title: "charset", type: "task" }, { "Content-Type": "application/json; charset=utf-8" }),
    );
    expect(response.status).toBe(201);
  });

  it("answers a body over 1 MiB with 413, by length and by streamed size", async () => {
    const big = JSON.stringify({ title: "x", type: "task", description: "a".repeat(1024 * 1024) });
    const declared = await t.app.request("/api/issues", jsonPost(big));
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: "Request body exceeds the 1 MiB limit" });

    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await t.app.request("/api/issues", {
      method: "POST",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it("accepts a body just under 1 MiB (and validates it)", async () => {
    const body = JSON.stringify({ title: "x", type: "task", description: "a".repeat(50_001) });
    const response = await t.app.request("/api/issues", jsonPost(body));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("description: must be at most 50000 characters");
  });

  it("echoes a client's X-Request-Id and makes one otherwise", async () => {
    const echoed = await t.app.request("/", { headers: { "X-Request-Id": "client-id-123" } });
    expect(echoed.headers.get("x-request-id")).toBe("client-id-123");
    const made = await t.app.request("/");
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await t.app.request("/", { headers: { "X-Request-Id": "bad id\twith spaces" } });
    expect(unsafe.headers.get("x-request-id")).not.toBe("bad id\twith spaces");
    const error = await t.app.request("/nope", { headers: { "X-Request-Id": "err-1" } });
    expect(error.headers.get("x-request-id")).toBe("err-1");
  });
});

/** Collects what the logger writes (INFO to stdout, ERROR to stderr). */
function captureOutput(lines: string[]): void {
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
  }
}

describe("logs", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("are JSON lines that carry the request id and never the key or the body", async () => {
    const lines: string[] = [];
    captureOutput(lines);
    const { app } = await testApp({ logger: new Logger({ serviceName: "kaizen", logLevel: "INFO" }) });
    await app.request(
      "/api/issues",
      jsonPost({ title: "secret-title-xyz", type: "task" }, { "X-Request-Id": "log-1" }),
    );
    await app.request("/api/issues", { headers: { Authorization: "Bearer kaizen_wrong", "X-Request-Id": "log-2" } });
    vi.restoreAllMocks();
    const records = lines
      .join("")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const ids = records.map((record) => record.requestId);
    expect(ids).toContain("log-1");
    expect(ids).toContain("log-2");
    expect(records.find((r) => r.requestId === "log-1")).toMatchObject({ method: "POST", status: 201 });
    const text = lines.join("");
    expect(text).not.toContain(TEST_API_KEY);
    expect(text).not.toContain("kaizen_wrong");
    expect(text).not.toContain("secret-title-xyz");
  });

  it("record the request id of a 5xx whose body leaks nothing", async () => {
    const lines: string[] = [];
    captureOutput(lines);
    const db = createDb({ tableName: "missing", region: "us-east-1", endpoint: "http://127.0.0.1:9" });
    const app = createApp(ALL_FAMILIES, {
      config: testConfig({ tableName: "missing", endpoint: "http://127.0.0.1:9" }),
      db,
      logger: new Logger({ serviceName: "kaizen", logLevel: "INFO" }),
    });
    const response = await app.request("/api/issues", { headers: { ...AUTH, "X-Request-Id": "down-1" } });
    vi.restoreAllMocks();
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(response.headers.get("x-request-id")).toBe("down-1");
    expect(await response.json()).toEqual({ error: "Database unavailable" });
    const errors = lines
      .join("")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => record.level === "ERROR");
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((record) => record.requestId === "down-1")).toBe(true);
  });
});
