/** The built bundles, invoked as Lambda would: API Gateway HTTP API v2 events against DynamoDB Local. */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from "aws-lambda";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { apiGatewayEvent } from "../helpers/apigw.js";
import { freshTable, TEST_API_KEY } from "../helpers/db.js";

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;
type Result = { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded: boolean };

const lambdaContext = { functionName: "test", awsRequestId: "aws-req-1" } as Context;
let loads = 0;

/** Imports a bundle afresh with the given environment, as a cold Lambda start would. */
async function loadHandler(family: string, env: Record<string, string | undefined>): Promise<Handler> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete process.env[name];
  try {
    const url = `${pathToFileURL(inject("bundles")[family] ?? "").href}?load=${++loads}`;
    return ((await import(url)) as { handler: Handler }).handler;
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}

async function invoke(handler: Handler, event: APIGatewayProxyEventV2) {
  const result = (await handler(event, lambdaContext)) as Result;
  const body = result.isBase64Encoded ? Buffer.from(result.body, "base64").toString("utf8") : result.body;
  return { ...result, json: JSON.parse(body) as Record<string, unknown> };
}

describe("Lambda bundles", () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    const { tableName, endpoint } = await freshTable();
    env = {
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: endpoint,
      SERVICE_API_KEY: TEST_API_KEY,
      AWS_REGION: "us-east-1",
    };
  });

  it("exist for every handler file", () => {
    const families = readdirSync("functions").map((file) => file.replace(/\.ts$/, ""));
    expect(Object.keys(inject("bundles")).sort()).toEqual(families.sort());
  });

  it("service: GET / and GET /health", async () => {
    const handler = await loadHandler("service", env);
    const root = await invoke(handler, apiGatewayEvent({ method: "GET", path: "/" }));
    expect(root.statusCode).toBe(200);
    expect(root.json).toMatchObject({ data: { name: "kaizen" } });
    expect(root.headers["content-type"]).toBe("application/json; charset=utf-8");
    const health = await invoke(handler, apiGatewayEvent({ method: "GET", path: "/health" }));
    expect(health.statusCode).toBe(200);
    expect(health.json).toMatchObject({ status: "ok", checks: { database: "ok" } });
  });

  it("service: the $default route gives the JSON 404 and 405 of the whole route table", async () => {
    const handler = await loadHandler("service", env);
    const missing = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: "/api/nothing", routeKey: "$default" }),
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json).toEqual({ error: "No route for GET /api/nothing" });
    const wrong = await invoke(
      handler,
      apiGatewayEvent({ method: "DELETE", path: "/api/issues", routeKey: "$default" }),
    );
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe("GET, POST");
  });

  it("uses API Gateway's request id when the client sends none, and the client's when it does", async () => {
    const handler = await loadHandler("service", env);
    const event = apiGatewayEvent({ method: "GET", path: "/" });
    const result = await invoke(handler, event);
    expect(result.headers["x-request-id"]).toBe(event.requestContext.requestId);
    const own = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: "/", headers: { "x-request-id": "mine" } }),
    );
    expect(own.headers["x-request-id"]).toBe("mine");
  });

  it("issues: create with a base64-encoded body, read it back, list with a query string", async () => {
    const handler = await loadHandler("issues", env);
    const body = JSON.stringify({ title: "Émoji 🚀 and 漢字", type: "task", priority: 1 });
    const created = await invoke(
      handler,
      apiGatewayEvent({
        method: "POST",
        path: "/api/issues",
        headers: { Authorization: `Bearer ${TEST_API_KEY}`, "Content-Type": "application/json" },
        body,
        base64: true,
      }),
    );
    expect(created.statusCode).toBe(201);
    const issue = created.json.data as { id: string; number: number; title: string };
    expect(issue.title).toBe("Émoji 🚀 and 漢字");
    expect(created.headers.etag).toBe('"1"');

    const fetched = await invoke(
      handler,
      apiGatewayEvent({
        method: "GET",
        path: `/api/issues/KZN-${issue.number}`,
        headers: { authorization: `Bearer ${TEST_API_KEY}` },
      }),
    );
    expect(fetched.statusCode).toBe(200);
    expect((fetched.json.data as { id: string }).id).toBe(issue.id);

    const listed = await invoke(
      handler,
      apiGatewayEvent({
        method: "GET",
        path: "/api/issues",
        query: "priority=1&limit=5&page=1",
        headers: { AUTHORIZATION: `Bearer ${TEST_API_KEY}` },
      }),
    );
    expect(listed.statusCode).toBe(200);
    expect(listed.json).toMatchObject({ total: 1, data: [{ id: issue.id }] });

    const plain = await invoke(
      handler,
      apiGatewayEvent({
        method: "POST",
        path: "/api/issues",
        headers: { authorization: `Bearer ${TEST_API_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ title: "plain", type: "plan" }),
      }),
    );
    expect(plain.statusCode).toBe(201);
  });

  it("issues: refuses bad input with the JSON envelope", async () => {
    const handler = await loadHandler("issues", env);
    const auth = { authorization: `Bearer ${TEST_API_KEY}` };
    const cases: [Parameters<typeof apiGatewayEvent>[0], number, string][] = [
      [{ method: "GET", path: "/api/issues" }, 401, "Missing or malformed Authorization header"],
      [
        { method: "GET", path: "/api/issues", headers: { authorization: "Basic eDp5" } },
        401,
        "Missing or malformed Authorization header",
      ],
      [
        { method: "GET", path: "/api/issues", query: "page=0", headers: auth },
        400,
        "page: page must be an integer between 1 and 10000",
      ],
      [
        {
          method: "POST",
          path: "/api/issues",
          headers: { ...auth, "content-type": "application/json" },
          body: "{oops",
          base64: true,
        },
        400,
        "Malformed JSON body",
      ],
      [
        { method: "POST", path: "/api/issues", headers: { ...auth, "content-type": "text/plain" }, body: "{}" },
        415,
        "Content-Type must be application/json",
      ],
      [
        {
          method: "POST",
          path: "/api/issues",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ title: "x", type: "task", description: "y".repeat(1024 * 1024) }),
        },
        413,
        "Request body exceeds the 1 MiB limit",
      ],
      [{ method: "GET", path: "/api/issues/KZN-424242", headers: auth }, 404, "Issue KZN-424242 not found"],
    ];
    for (const [event, status, message] of cases) {
      const result = await invoke(handler, apiGatewayEvent(event));
      expect({ status: result.statusCode, error: result.json.error }).toEqual({ status, error: message });
    }
  });

  it("fails closed with 500 when SERVICE_API_KEY is not configured", async () => {
    const handler = await loadHandler("issues", { ...env, SERVICE_API_KEY: undefined });
    const result = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: "/api/issues", headers: { authorization: `Bearer ${TEST_API_KEY}` } }),
    );
    expect(result.statusCode).toBe(500);
    expect(result.json).toEqual({ error: "SERVICE_API_KEY is not configured" });
  });

  it("refuses to start with a malformed key, saying why", () => {
    const bundle = inject("bundles").issues ?? "";
    const run = spawnSync(
      process.execPath,
      ["--no-warnings", "--input-type=module", "-e", `await import(${JSON.stringify(pathToFileURL(bundle).href)})`],
      {
        env: { ...process.env, ...env, SERVICE_API_KEY: "kaizen_not-a-key" },
        encoding: "utf8",
      },
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("SERVICE_API_KEY is malformed");
    expect(run.stderr).not.toContain("kaizen_not-a-key");
  });

  it("reads the table and key from SST links when no environment variable is set", async () => {
    const handler = await loadHandler("issues", {
      TABLE_NAME: undefined,
      SERVICE_API_KEY: undefined,
      DYNAMODB_ENDPOINT: env.DYNAMODB_ENDPOINT,
      SST_RESOURCE_App: JSON.stringify({ name: "kaizen", stage: "test" }),
      SST_RESOURCE_Table: JSON.stringify({ name: env.TABLE_NAME }),
      SST_RESOURCE_ServiceApiKey: JSON.stringify({ value: TEST_API_KEY }),
    });
    const result = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: "/api/issues", headers: { authorization: `Bearer ${TEST_API_KEY}` } }),
    );
    expect(result.statusCode).toBe(200);
    expect(result.json.total).toBeGreaterThan(0);
  });
});
