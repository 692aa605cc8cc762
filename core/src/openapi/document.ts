/**
 * @module openapi/document — builds the OpenAPI 3.1 document from the route table, the operations
 * table and the zod schemas of requests and answers. Runs at build time (`npm run openapi` writes
 * docs/openapi.json, which the service serves), so no function bundles the generator.
 */
import * as z from "zod/mini";
import { takesIdempotencyKey } from "../http/idempotency.js";
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_PAGE } from "../http/pagination.js";
import { allRoutes, type Family, type RouteSpec, type WebhookProvider } from "../routes.js";
import { PROVIDER_HEADERS } from "../webhooks/headers.js";
import { type AnyRouteKey, OPERATIONS, type Operation, type Success } from "./operations.js";
import { RESOURCE_SCHEMAS } from "./resources.js";

type Json = Record<string, unknown>;

/** What each tag (one per family) covers. */
const TAGS: Record<Family, string> = {
  service: "Service information, health, this document, the reference page and the webhook providers' setup",
  issues: "Issues, their relations and comments",
  catalog: "Projects, goals and labels",
  webhooks: "Signed webhook receivers for the code host, the error tracker and the analytics tool",
  signals: "Signals: manual ones and reads",
  templates: "Prompt templates and their versions",
  prompts: "Rendered prompts and their reviews",
  dispatch: "Hand-offs of issues to agents: claims, leases and outcomes",
  dashboard: "What the engine is doing, from maintained counts",
  destinations: "Outbound events: where Kaizen sends them, signed, and how each delivery went",
};

/** Each receiver's security scheme under the neutral header; the provider's own header gets a scheme of its own. */
const WEBHOOK_SCHEMES: Record<WebhookProvider, { name: string; ownName?: string; description: string }> = {
  codehost: {
    name: "codehostSignature",
    ownName: "githubSignature",
    description: "`sha256=<hex>`: HMAC-SHA256 of the raw body bytes with CODEHOST_WEBHOOK_SECRET.",
  },
  errortracker: {
    name: "errortrackerSignature",
    ownName: "sentrySignature",
    description: "Lowercase hex HMAC-SHA256, with ERRORTRACKER_CLIENT_SECRET, of the body parsed and serialised again.",
  },
  analytics: {
    name: "analyticsSecret",
    description: "The value of ANALYTICS_WEBHOOK_SECRET itself.",
  },
};

/** The security schemes of `provider`'s receiver: its neutral header, and the provider's own when it has one. */
function webhookSchemes(provider: WebhookProvider): [string, Json][] {
  const { name, ownName, description } = WEBHOOK_SCHEMES[provider];
  const { provider: who, signature, aliases } = PROVIDER_HEADERS[provider];
  const schemes: [string, Json][] = [[name, { type: "apiKey", in: "header", name: signature, description }]];
  const own = aliases[signature];
  if (own !== undefined && ownName !== undefined) {
    const ownDescription = `${who}'s own header for the same value: ${description}`;
    schemes.push([ownName, { type: "apiKey", in: "header", name: own, description: ownDescription }]);
  }
  return schemes;
}

/** Why each error status is answered, for the shared `components.responses`. */
const ERRORS = {
  400: ["BadRequest", "Validation error: malformed JSON, a wrong type, an out-of-range or unknown field"],
  401: ["Unauthorized", "Missing or malformed Authorization header, or an invalid webhook signature"],
  403: ["Forbidden", "A dispatch token used outside its own dispatch"],
  404: ["NotFound", "No such resource"],
  409: ["Conflict", "Conflict with the resource's state, or an Idempotency-Key reused with another body"],
  412: ["PreconditionFailed", "If-Match given and the resource's ETag differs"],
  413: ["PayloadTooLarge", "Body over the limit (1 MiB, 5 MiB for webhook receivers)"],
  415: ["UnsupportedMediaType", "The body is not of a media type this endpoint takes"],
  429: [
    "TooManyRequests",
    "A limit was reached (a claim by an agent holding its project's `limits.maxActivePerAgent` dispatches); retry after `Retry-After` seconds",
  ],
  500: ["InternalError", "Internal error, or this receiver's secret is not configured"],
  503: [
    "Unavailable",
    "The database is unreachable or throttling, or the same change is still in progress elsewhere (concurrent changes that keep conflicting, a copy of a delivery still being stored); retry after `Retry-After` seconds",
  ],
} as const;
type ErrorStatus = keyof typeof ERRORS;

/** The routes that never touch the database. */
const STATIC_ROUTES = new Set<string>(["GET /", "GET /api/openapi.json", "GET /docs", "GET /docs/assets/:file"]);

/**
 * JSON Schema of a zod schema as OpenAPI 3.1 embeds it: `input` for what clients send (before
 * transforms and defaults), `output` for what the API answers.
 */
export function jsonSchemaOf(schema: z.ZodMiniType, io: "input" | "output"): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: "draft-2020-12", override }) as Json;
  return rest;
}

/** `format: date-time` says it; zod's long regex beside it would only repeat it at every timestamp. */
function override({ jsonSchema }: { jsonSchema: Json }): void {
  if (jsonSchema.format === "date-time") delete jsonSchema.pattern;
}

/** The resource schemas, each once under `components.schemas`, referring to each other by `$ref`. */
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries(RESOURCE_SCHEMAS)) registry.add(schema, { id: name });
  const { schemas } = z.toJSONSchema(registry, {
    io: "output",
    target: "draft-2020-12",
    uri: (id) => `#/components/schemas/${id}`,
    override,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as Json;
      return [name, rest];
    }),
  );
}

/** `/api/issues/:id` → `/api/issues/{id}`. */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:(\w+)/g, "{$1}");
}

/** The `page`/`limit` pair as numbers (on the wire they are strings; pagination.ts parses them). */
const PAGINATION_PARAMETERS: Record<string, Json> = {
  page: { type: "integer", minimum: 1, maximum: MAX_PAGE, default: 1 },
  limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
};

function queryParameters(query: z.ZodMiniType): Json[] {
  const schema = jsonSchemaOf(query, "input");
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties)
    .map(([name, property]) => ({
      name,
      in: "query",
      required: required.has(name),
      schema: property,
    }))
    .map((parameter) =>
      PAGINATION_PARAMETERS[parameter.name] ? { $ref: `#/components/parameters/${parameter.name}` } : parameter,
    );
}

function pathParameters(route: RouteSpec, operation: Operation): Json[] {
  return [...route.path.matchAll(/:(\w+)/g)].map(([, name = ""]) => ({
    name,
    in: "path",
    required: true,
    description: operation.params?.[name] ?? name,
    schema: { type: "string" },
  }));
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ "application/json": { schema } });

function successResponse(success: Success): Json {
  if (success.status === 204) {
    if (!success.headers) return { description: success.description };
    const headers = Object.fromEntries(
      Object.entries(success.headers).map(([name, { description, values }]) => [
        name,
        { description, schema: { type: "string", enum: values } },
      ]),
    );
    return { description: success.description, headers };
  }
  if ("item" in success) {
    return {
      description: success.description,
      content: json({ type: "object", required: ["data"], properties: { data: ref(success.item) } }),
    };
  }
  if ("list" in success) {
    return {
      description: success.description,
      headers: { Link: { description: 'Neighbouring pages (`rel="next"`, `rel="prev"`)', schema: { type: "string" } } },
      content: json({
        type: "object",
        required: ["data", "total"],
        properties: {
          data: { type: "array", items: ref(success.list) },
          total: { type: "integer", minimum: 0, description: "Count of all matching items" },
        },
      }),
    };
  }
  switch (success.raw) {
    case "health":
      return { description: success.description, content: json(ref("Health")) };
    case "openapi":
      return { description: success.description, content: json({ type: "object" }) };
    case "html":
      return { description: success.description, content: { "text/html": { schema: { type: "string" } } } };
    case "asset":
      return {
        description: success.description,
        content: {
          "text/javascript": { schema: { type: "string" } },
          "text/css": { schema: { type: "string" } },
        },
      };
  }
}

/** The error statuses a route can answer: from how it is guarded and what it reads, plus its own. */
export function errorStatuses(route: RouteSpec, operation: Operation): ErrorStatus[] {
  const key = `${route.method} ${route.path}`;
  const statuses = new Set<ErrorStatus>(operation.errors ?? []);
  if (operation.query || operation.body || route.auth === "webhook") statuses.add(400);
  if (route.auth !== "none") statuses.add(401);
  if (route.auth === "bearer") statuses.add(403);
  if (route.path.includes("/:")) statuses.add(404);
  if (takesIdempotencyKey(route)) statuses.add(409);
  if (operation.ifMatch) statuses.add(412);
  if (operation.body || route.auth === "webhook") {
    statuses.add(413);
    statuses.add(415);
  }
  if (route.auth === "webhook") statuses.add(500);
  if (!STATIC_ROUTES.has(key)) statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

function requestBody(route: RouteSpec, operation: Operation): Json | undefined {
  if (operation.body) return { required: true, content: json(jsonSchemaOf(operation.body, "input")) };
  if (route.auth !== "webhook") return undefined;
  const payload = { type: "object", description: "The provider's event, whole" };
  return {
    required: true,
    content: {
      "application/json": { schema: payload },
      ...(route.provider === "codehost"
        ? {
            "application/x-www-form-urlencoded": {
              schema: { type: "object", required: ["payload"], properties: { payload: { type: "string" } } },
            },
          }
        : {}),
    },
  };
}

function headerParameters(route: RouteSpec, operation: Operation): Json[] {
  const headers: Json[] = [];
  if (takesIdempotencyKey(route)) headers.push({ $ref: "#/components/parameters/IdempotencyKey" });
  if (operation.ifMatch) headers.push({ $ref: "#/components/parameters/IfMatch" });
  return headers;
}

function security(route: RouteSpec): Json[] {
  if (route.auth === "bearer") return [{ bearerAuth: [] }];
  // Either header verifies (docs/api.md#webhook-verification): alternatives, one requirement object each.
  if (route.auth === "webhook" && route.provider)
    return webhookSchemes(route.provider).map(([name]) => ({ [name]: [] }));
  return [];
}

function operationObject(route: RouteSpec & { family: Family }, operation: Operation): Json {
  const responses: Json = {};
  for (const success of [operation.success, operation.alsoSuccess]) {
    if (success) responses[String(success.status)] = successResponse(success);
  }
  if (operation.success.status === 200 && "raw" in operation.success && operation.success.raw === "health") {
    responses["503"] = { description: "Degraded: a check failed", content: json(ref("Health")) };
  }
  for (const status of errorStatuses(route, operation)) {
    responses[String(status)] ??= { $ref: `#/components/responses/${ERRORS[status][0]}` };
  }
  const parameters = [
    ...pathParameters(route, operation),
    ...(operation.query ? queryParameters(operation.query) : []),
    ...headerParameters(route, operation),
  ];
  const body = requestBody(route, operation);
  return {
    tags: [route.family],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    operationId: operationId(route),
    security: security(route),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** `POST /api/issues/:id/comments` → `postApiIssuesIdComments`. */
function operationId(route: RouteSpec): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
  return [route.method.toLowerCase(), ...words.map((word) => word[0]?.toUpperCase() + word.slice(1))].join("");
}

/**
 * The whole OpenAPI 3.1 document.
 * @example writeFileSync("docs/openapi.json", JSON.stringify(buildOpenApiDocument({ version: "0.1.0" }), null, 2));
 */
export function buildOpenApiDocument(info: { version: string; description?: string }): Json {
  const paths: Record<string, Json> = {};
  for (const route of allRoutes()) {
    const operation = OPERATIONS[`${route.method} ${route.path}` as AnyRouteKey];
    if (!operation) throw new Error(`No OpenAPI operation for ${route.method} ${route.path}`);
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationObject(route, operation) };
  }
  const schemas = componentSchemas();
  const errorResponses = Object.fromEntries(
    Object.values(ERRORS).map(([name, description]) => [name, { description, content: json(ref("Error")) }]),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "Kaizen API",
      version: info.version,
      ...(info.description ? { description: info.description } : {}),
    },
    servers: [{ url: "/", description: "This deployment" }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas,
      responses: errorResponses,
      parameters: {
        ...Object.fromEntries(
          Object.entries(PAGINATION_PARAMETERS).map(([name, schema]) => [
            name,
            { name, in: "query", required: false, schema },
          ]),
        ),
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description: "The same key with the same body within 24 h returns the first response again",
          schema: { type: "string" },
        },
        IfMatch: {
          name: "If-Match",
          in: "header",
          required: false,
          description: "The ETag the change is based on (412 when the resource has changed)",
          schema: { type: "string" },
        },
      },
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "SERVICE_API_KEY (`kaizen_` + 64 hex), or a dispatch token where the operation says so",
        },
        ...Object.fromEntries((Object.keys(WEBHOOK_SCHEMES) as WebhookProvider[]).flatMap(webhookSchemes)),
      },
    },
  };
}
