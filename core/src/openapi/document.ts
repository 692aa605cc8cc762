/**
 * @module openapi/document — builds the OpenAPI 3.1 document from the families' route declarations
 * (`core/src/<domain>/api.ts`: guard, request schemas, answers, text) and the zod schemas of the
 * answers. Runs at build time (`npm run openapi` writes docs/openapi.json, which the service serves),
 * so no function bundles the generator.
 */
import * as z from "zod/mini";
import { takesIdempotencyKey } from "../http/idempotency.js";
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_PAGE } from "../http/pagination.js";
import type { Family, HttpMethod, RouteSpec, WebhookProvider } from "../routes.js";
import { PROVIDER_HEADERS } from "../webhooks/headers.js";
import { componentHeaders, componentResponses, type Json, json, responsesOf } from "./answers.js";
import type { Declaration, Declarations, Doc } from "./declare.js";
import { RESOURCE_SCHEMAS } from "./resources.js";

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
  runners: "Hosted runners: GitHub Actions workflows Kaizen hands dispatches to",
  access: "API keys: who may do what",
  mcp: "The MCP tools of `kaizen mcp` over Streamable HTTP, for agents and MCP clients anywhere",
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

function pathParameters(route: RouteSpec, doc: Doc): Json[] {
  return [...route.path.matchAll(/:(\w+)/g)].map(([, name = ""]) => ({
    name,
    in: "path",
    required: true,
    description: doc.params?.[name] ?? name,
    schema: { type: "string" },
  }));
}

function requestBody(route: RouteSpec, declaration: Declaration): Json | undefined {
  if (declaration.body) {
    return { required: !declaration.bodyOptional, content: json(jsonSchemaOf(declaration.body(), "input")) };
  }
  if ("raw" in declaration.success && declaration.success.raw === "jsonrpc") {
    const message = { type: ["object", "array"], description: "A JSON-RPC 2.0 message, or a batch of them" };
    return { required: true, content: json(message) };
  }
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

function headerParameters(route: RouteSpec, declaration: Declaration): Json[] {
  const headers: Json[] = [];
  if (takesIdempotencyKey(route)) headers.push({ $ref: "#/components/parameters/IdempotencyKey" });
  if (declaration.ifMatch) headers.push({ $ref: "#/components/parameters/IfMatch" });
  return headers;
}

function security(route: RouteSpec): Json[] {
  // OpenAPI 3.1 lets a bearer requirement name the roles an operation needs: its scope.
  if (route.auth === "bearer") return [{ bearerAuth: route.scope ? [route.scope] : [] }];
  // Either header verifies (docs/api.md#webhook-verification): alternatives, one requirement object each.
  if (route.auth === "webhook" && route.provider)
    return webhookSchemes(route.provider).map(([name]) => ({ [name]: [] }));
  return [];
}

function operationObject(route: RouteSpec & { family: Family }, declaration: Declaration): Json {
  const { doc } = declaration;
  if (!doc) throw new Error(`${route.method} ${route.path} has no OpenAPI text (is this a Lambda bundle?)`);
  const parameters = [
    ...pathParameters(route, doc),
    ...(declaration.query ? queryParameters(declaration.query()) : []),
    ...headerParameters(route, declaration),
  ];
  const body = requestBody(route, declaration);
  return {
    tags: [route.family],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    operationId: operationId(route),
    security: security(route),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responsesOf(route, declaration, doc),
  };
}

/** `POST /api/issues/:id/comments` → `postApiIssuesIdComments`. */
function operationId(route: RouteSpec): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
  return [route.method.toLowerCase(), ...words.map((word) => word[0]?.toUpperCase() + word.slice(1))].join("");
}

/** Every declared route with its family, in declaration order: family by family, each family's in its file's order. */
export function declaredRoutes(
  families: Readonly<Record<Family, Declarations>>,
): { family: Family; route: RouteSpec; declaration: Declaration }[] {
  return (Object.entries(families) as [Family, Declarations][]).flatMap(([family, declarations]) =>
    Object.entries(declarations).map(([key, declaration]) => {
      const [method, path = ""] = key.split(" ") as [HttpMethod, string];
      const { auth, provider, bodyLimit, idempotent, token, scope, anyCaller, reach, audit } = declaration;
      const route: RouteSpec = {
        method,
        path,
        auth,
        ...(provider === undefined ? {} : { provider }),
        ...(bodyLimit === undefined ? {} : { bodyLimit }),
        ...(idempotent === undefined ? {} : { idempotent }),
        ...(token === undefined ? {} : { token }),
        ...(scope === undefined ? {} : { scope }),
        ...(anyCaller === undefined ? {} : { anyCaller }),
        ...(reach === undefined ? {} : { reach }),
        ...(audit === undefined ? {} : { audit }),
      };
      return { family, route, declaration };
    }),
  );
}

/**
 * The whole OpenAPI 3.1 document of the families' declarations.
 * @example writeFileSync("docs/openapi.json", JSON.stringify(buildOpenApiDocument(declarations, { version: "0.1.0" }), null, 2));
 */
export function buildOpenApiDocument(
  families: Readonly<Record<Family, Declarations>>,
  info: { version: string; description?: string },
): Json {
  const paths: Record<string, Json> = {};
  for (const { family, route, declaration } of declaredRoutes(families)) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationObject({ ...route, family }, declaration) };
  }
  const schemas = componentSchemas();
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
      responses: componentResponses(),
      headers: componentHeaders(),
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
          description:
            "SERVICE_API_KEY (`kaizen_` + 64 hex), or a dispatch token where the operation says so. Each operation's " +
            "requirement names the scope it needs (`read`, `write`, `dispatch` or `admin`; docs/security.md#scopes); " +
            "a `dispatch` key may also do, on a dispatch it claimed, what that dispatch's token may.",
        },
        ...Object.fromEntries((Object.keys(WEBHOOK_SCHEMES) as WebhookProvider[]).flatMap(webhookSchemes)),
      },
    },
  };
}
