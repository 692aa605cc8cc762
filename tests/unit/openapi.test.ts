/**
 * The OpenAPI document and the route table: both derived from the families' declarations
 * (`core/src/<domain>/api.ts`); the document is a valid 3.1 document whose request schemas are
 * those that validate requests, and both generated files are what the declarations give now.
 */
import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { DispatchService } from "../../core/src/dispatch/dispatch-service.js";
import type { ClaimResult, QueueItem } from "../../core/src/dispatch/schemas.js";
import { ALL_DECLARATIONS } from "../../core/src/families.js";
import type { IssueService } from "../../core/src/issues/issue-service.js";
import { createIssueBody } from "../../core/src/issues/schemas.js";
import { TEXT } from "../../core/src/openapi/declare.js";
import { jsonSchemaOf, openApiPath } from "../../core/src/openapi/document.js";
import type { IssueDetail } from "../../core/src/openapi/resources.js";
import { allRoutes, FAMILIES, ROUTE_TABLE, routeKey } from "../../core/src/routes.js";
import type { IngestResult } from "../../core/src/signals/schemas.js";
import type { SignalService } from "../../core/src/signals/signal-service.js";
import {
  currentOpenApiDocument,
  OPENAPI_FILE,
  openApiText,
  ROUTE_TABLE_FILE,
  routeTableText,
} from "../../scripts/openapi.js";
import { declarationOf } from "../helpers/route-walk.js";

type Json = Record<string, unknown>;
interface OperationObject {
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: ({ name: string; in: string; required: boolean } | { $ref: string })[];
  requestBody?: { required: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, Json>;
}

const document = currentOpenApiDocument() as Json & {
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, Json>;
    securitySchemes: Record<string, Json>;
    responses: Record<string, { headers?: Json }>;
  };
};
const operationOf = (method: string, path: string): OperationObject => {
  const operation = document.paths[openApiPath(path)]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${path} is not in the document`);
  return operation;
};
const bodySchemaOf = (method: string, path: string): Json => {
  const schema = operationOf(method, path).requestBody?.content["application/json"]?.schema;
  if (!schema) throw new Error(`${method} ${path} has no JSON body`);
  return schema;
};

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
  });

  it("the validator would catch a broken document", async () => {
    const broken = structuredClone(document);
    (broken.paths["/api/issues"] as Json).get = { responses: { "200": { content: {} } } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it("has exactly the route table's operations, with {param} paths", () => {
    const expected = allRoutes()
      .map((route) => `${route.method} ${openApiPath(route.path)}`)
      .sort();
    const actual = Object.entries(document.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(actual).toEqual(expected);
    expect(actual).toContain("GET /api/issues/{id}");
    expect(actual).toContain("POST /api/templates/{id}/versions/{versionId}/promote");
    expect(actual).toContain("GET /api/openapi.json");
    expect(actual).toContain("GET /docs");
  });

  it("documents every declared route, each with its text (kept outside Lambda bundles)", () => {
    expect(TEXT).toBe(true);
    for (const family of FAMILIES) {
      for (const [key, declaration] of Object.entries(ALL_DECLARATIONS[family])) {
        const [method = "", path = ""] = key.split(" ");
        const operation = operationOf(method, path) as OperationObject & { summary?: string };
        expect(declaration.doc, key).not.toBe(false);
        expect(operation.summary, key).toBe(declaration.doc ? declaration.doc.summary : undefined);
      }
    }
  });

  it("declares every path parameter, required", () => {
    for (const route of allRoutes()) {
      const names = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => name);
      const declared = (operationOf(route.method, route.path).parameters ?? []).filter(
        (parameter): parameter is { name: string; in: string; required: boolean } =>
          "in" in parameter && parameter.in === "path",
      );
      expect(
        declared.map(({ name }) => name),
        routeKey(route),
      ).toEqual(names);
      for (const parameter of declared) expect(parameter.required).toBe(true);
    }
  });

  it("takes query parameters from each list's query schema", () => {
    const names = (method: string, path: string) =>
      (operationOf(method, path).parameters ?? []).map((parameter) =>
        "$ref" in parameter ? parameter.$ref.replace("#/components/parameters/", "") : parameter.name,
      );
    expect(names("GET", "/api/issues")).toEqual(
      expect.arrayContaining(["page", "limit", "status", "type", "priority", "q", "sort", "label"]),
    );
    expect(names("GET", "/api/dispatch/next")).toEqual(
      expect.arrayContaining(["agent", "projectId", "types", "leaseSeconds"]),
    );
    expect(names("GET", "/api/signals")).toEqual(expect.arrayContaining(["source", "severity", "since"]));
    expect(names("POST", "/api/issues")).toContain("IdempotencyKey");
    expect(names("POST", "/api/dispatch/claim")).toContain("IdempotencyKey");
    expect(names("POST", "/api/keys")).not.toContain("IdempotencyKey");
    expect(names("PATCH", "/api/issues/:id")).toContain("IfMatch");
  });

  it("describes POST /api/issues' body as the validation does: title and type required, strict", () => {
    const body = bodySchemaOf("POST", "/api/issues");
    expect(body.required).toEqual(expect.arrayContaining(["title", "type"]));
    expect((body.required as string[]).sort()).toEqual(["title", "type"]);
    expect(body.additionalProperties).toBe(false);
    expect((body.properties as Record<string, Json>).type?.enum).toEqual([
      "signal",
      "hypothesis",
      "plan",
      "task",
      "monitor",
    ]);
    expect(body).toEqual(jsonSchemaOf(createIssueBody(), "input"));
  });

  it("marks every JSON body strict, as the request schemas are", () => {
    for (const route of allRoutes()) {
      if (!declarationOf(routeKey(route)).body) continue;
      expect(bodySchemaOf(route.method, route.path).additionalProperties, routeKey(route)).toBe(false);
    }
  });

  it("describes bodies before their transforms: a label colour is a #rrggbb string", () => {
    const color = (bodySchemaOf("POST", "/api/labels").properties as Record<string, Json>).color;
    expect(color).toMatchObject({ type: "string", pattern: "^#[0-9a-fA-F]{6}$" });
    const claim = bodySchemaOf("POST", "/api/dispatch/claim");
    expect(claim.required).toEqual(["agent"]);
    expect((claim.properties as Record<string, Json>).leaseSeconds).toMatchObject({ minimum: 60, maximum: 7200 });
  });

  it("secures bearer routes by bearer with their scope, receivers by their signature header, public routes by nothing", () => {
    const schemes = document.components.securitySchemes;
    expect(schemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    for (const route of allRoutes()) {
      const { security } = operationOf(route.method, route.path);
      // A route open to every credential (the remote MCP endpoint) names no scope.
      if (route.auth === "bearer") {
        expect(security, routeKey(route)).toEqual([{ bearerAuth: route.anyCaller ? [] : [route.scope] }]);
      }
      if (route.auth === "none") expect(security, routeKey(route)).toEqual([]);
      if (route.auth === "webhook") {
        const [requirement] = security;
        const scheme = schemes[Object.keys(requirement ?? {})[0] ?? ""];
        expect(scheme, routeKey(route)).toMatchObject({ type: "apiKey", in: "header" });
      }
    }
    const headers = Object.values(schemes).map((scheme) => scheme.name);
    expect(headers).toEqual(
      expect.arrayContaining(["X-Codehost-Signature-256", "X-Errortracker-Hook-Signature", "X-Analytics-Secret"]),
    );
  });

  it("answers with the envelopes: {data} items, {data, total} lists, 204s and the error envelope", () => {
    expect(operationOf("POST", "/api/issues").responses["201"]).toMatchObject({
      content: {
        "application/json": {
          schema: { required: ["data"], properties: { data: { $ref: "#/components/schemas/Issue" } } },
        },
      },
    });
    expect(operationOf("GET", "/api/issues").responses["200"]).toMatchObject({
      content: {
        "application/json": {
          schema: {
            required: ["data", "total"],
            properties: { data: { type: "array", items: { $ref: "#/components/schemas/Issue" } } },
          },
        },
      },
    });
    // It takes no body, and refuses one that says anything (400, 413, 415).
    expect(Object.keys(operationOf("DELETE", "/api/issues/:id").responses).sort()).toEqual(
      ["204", "400", "401", "403", "404", "412", "413", "415", "503"].sort(),
    );
    expect(Object.keys(operationOf("POST", "/api/dispatch/claim").responses)).toEqual(
      expect.arrayContaining(["201", "204", "400", "401", "413", "415", "503"]),
    );
    expect(Object.keys(operationOf("POST", "/api/signals/codehost").responses)).toEqual(
      expect.arrayContaining(["200", "201", "400", "401", "413", "415", "500"]),
    );
    expect(operationOf("GET", "/docs").responses["200"]).toMatchObject({ content: { "text/html": {} } });
    expect(document.components.schemas.Error).toMatchObject({ required: ["error"] });
    expect(document.components.schemas.Issue).toMatchObject({
      required: expect.arrayContaining(["id", "number", "title", "status", "labels"]),
    });
  });

  it("names the headers each answer carries: its request id, an item's ETag and Location, a replay's mark, a retry's wait", () => {
    const headersOf = (method: string, path: string, status: string) =>
      Object.keys((operationOf(method, path).responses[status]?.headers ?? {}) as Json).sort();
    expect(headersOf("POST", "/api/issues", "201")).toEqual([
      "ETag",
      "Idempotent-Replayed",
      "Location",
      "X-Request-Id",
    ]);
    expect(headersOf("GET", "/api/issues/:id", "200")).toEqual(["ETag", "X-Request-Id"]);
    expect(headersOf("GET", "/api/issues", "200")).toEqual(["Link", "X-Request-Id"]);
    // A comment has no address of its own; the claim for agents that can only GET hands one out.
    expect(headersOf("POST", "/api/issues/:id/comments", "201")).toEqual([
      "ETag",
      "Idempotent-Replayed",
      "X-Request-Id",
    ]);
    expect(headersOf("GET", "/api/dispatch/next", "200")).toEqual(["ETag", "Location", "X-Request-Id"]);
    expect(headersOf("POST", "/api/dispatch/claim", "204")).toEqual(
      ["Idempotent-Replayed", "Kaizen-Claim-Stopped", "X-Request-Id"].sort(),
    );
    // A receiver's duplicate delivery answers the stored signal without pointing at it again.
    expect(headersOf("POST", "/api/signals/codehost", "200")).toEqual(["ETag", "X-Request-Id"]);
    expect(headersOf("POST", "/api/signals/codehost", "201")).toEqual(["ETag", "Location", "X-Request-Id"]);
    const components = document.components;
    expect(Object.keys(components.responses.Unavailable?.headers ?? {}).sort()).toEqual([
      "Retry-After",
      "X-Request-Id",
    ]);
    expect(Object.keys(components.responses.TooManyRequests?.headers ?? {}).sort()).toEqual([
      "Retry-After",
      "X-Request-Id",
    ]);
    expect(Object.keys(components.responses.Unauthorized?.headers ?? {}).sort()).toEqual([
      "WWW-Authenticate",
      "X-Request-Id",
    ]);
    expect(Object.keys(components.responses.NotFound?.headers ?? {})).toEqual(["X-Request-Id"]);
  });

  it("describes what the services return: their answers' types fit the response schemas' types", () => {
    type Answer<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
    expectTypeOf<Exclude<Answer<DispatchService["claim"]>, null | { stopped: string }>>().toExtend<ClaimResult>();
    expectTypeOf<Answer<DispatchService["queue"]>["items"][number]>().toExtend<QueueItem>();
    expectTypeOf<Answer<SignalService["ingest"]>>().toExtend<IngestResult>();
    expectTypeOf<Answer<IssueService["getIssueDetail"]>["detail"]>().toExtend<
      Omit<IssueDetail, "signals"> & { signals: { id: string; receivedAt: string }[] }
    >();
  });

  it("tags every operation with its family", () => {
    for (const route of allRoutes()) expect(operationOf(route.method, route.path).tags).toEqual([route.family]);
  });

  it("is what docs/openapi.json holds (run `npm run openapi` after changing a schema or route)", () => {
    const committed = JSON.parse(readFileSync(OPENAPI_FILE, "utf8")) as Json;
    expect(
      committed,
      "docs/openapi.json is out of date with the schemas and the route table: run `npm run openapi` and commit it",
    ).toEqual(currentOpenApiDocument());
  });

  it("is written by `npm run openapi` exactly as the formatter lays it out", () => {
    expect(readFileSync(OPENAPI_FILE, "utf8"), "run `npm run openapi`").toBe(openApiText());
  });
});

describe("the route table", () => {
  it("is what the declarations give (run `npm run openapi` after declaring or changing a route)", () => {
    expect(
      readFileSync(ROUTE_TABLE_FILE, "utf8"),
      "core/src/route-table.ts is out of date with the declarations: run `npm run openapi` and commit it",
    ).toBe(routeTableText());
  });

  it("has each family's declared routes, in their order, and every route in exactly one family", () => {
    for (const family of FAMILIES) {
      expect(ROUTE_TABLE[family].map(routeKey), family).toEqual(Object.keys(ALL_DECLARATIONS[family]));
    }
    const keys = allRoutes().map(routeKey);
    expect(new Set(keys).size, "a route declared by two families").toBe(keys.length);
  });
});
