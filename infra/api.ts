/**
 * @module infra/api — one Lambda function per route family and the HTTP API that routes core's
 * route table to them; anything else goes to the default family for the service's own 404/405.
 */
import { CORS_POLICY, LINKED, loadConfig } from "../core/src/config.js";
import { CONSOLE_COPY_FILES } from "../core/src/console/assets.js";
import { DOCS_COPY_FILES } from "../core/src/openapi/docs-page.js";
import { LAMBDA_BUNDLE_DEFINE } from "../core/src/openapi/text.js";
import { allRoutes, DEFAULT_ROUTE_FAMILY, FAMILIES, type Family, gatewayMethods } from "../core/src/routes.js";
import { secrets } from "./secrets.js";
import { table } from "./table.js";

/**
 * API Gateway's form of a Hono path: `:name` segments become `{name}`. Hono-only syntax (regex,
 * optional and wildcard segments) has no API Gateway equivalent and is refused.
 * @example gatewayPath("/api/issues/:id") // "/api/issues/{id}"
 */
export function gatewayPath(honoPath: string): string {
  return honoPath
    .split("/")
    .map((segment) => {
      if (/^[\w.~-]*$/.test(segment)) return segment;
      const param = /^:(\w+)$/.exec(segment);
      if (!param) throw new Error(`Route segment "${segment}" of ${honoPath} has no API Gateway equivalent`);
      return `{${param[1]}}`;
    })
    .join("/");
}

/**
 * How every function is bundled, as scripts/build.ts bundles it for the tests and the bench: what a
 * function imports on demand (Handlebars' compiler) is a chunk not read at a cold start, and the
 * define folds away what no Lambda needs (the routes' OpenAPI text, core/src/openapi/declare.ts; the
 * local conflict emulator, core/src/db/create-db.ts).
 */
export const LAMBDA_NODEJS = {
  format: "esm" as const,
  minify: true,
  sourcemap: true,
  splitting: true,
  esbuild: { define: LAMBDA_BUNDLE_DEFINE },
};

// Origins browsers may call the API from, given at deploy time (`CORS_ALLOWED_ORIGINS=https://… sst deploy`),
// validated by core's rule. The gateway answers CORS itself from core's policy; with none listed it
// sends no CORS headers (SST's default, `cors: true`, would allow every origin).
const { corsAllowedOrigins } = loadConfig({ env: { CORS_ALLOWED_ORIGINS: process.env.CORS_ALLOWED_ORIGINS } });

/**
 * Linked to every function so prompts name a reachable API (`Resource.Api.url`). Created before the
 * functions; its routes are added after them, so the functions depend on the API and not back.
 */
export const api = new sst.aws.ApiGatewayV2(LINKED.api, {
  accessLog: { retention: "1 month" },
  cors:
    corsAllowedOrigins.length === 0
      ? false
      : {
          allowOrigins: corsAllowedOrigins,
          allowMethods: [...CORS_POLICY.allowMethods],
          allowHeaders: [...CORS_POLICY.allowHeaders],
          exposeHeaders: [...CORS_POLICY.exposeHeaders],
          maxAge: `${CORS_POLICY.maxAgeSeconds} seconds`,
        },
  transform: {
    // Rate limiting is the gateway's job (docs/api.md#limits-and-versioning): every route, per stage.
    stage: { defaultRouteSettings: { throttlingBurstLimit: 200, throttlingRateLimit: 100 } },
  },
});

// A custom domain in front of the API (`PUBLIC_BASE_URL=https://… sst deploy`) and a GitHub Enterprise
// Server's API for hosted runners (`GITHUB_API_URL=…`), given at deploy time. Validated by core's own
// rule, so a malformed value stops the deploy rather than every function's start.
const { publicBaseUrl, githubApiUrl } = loadConfig({
  env: { PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL, GITHUB_API_URL: process.env.GITHUB_API_URL },
});

/**
 * What the functions that render links or hand dispatches to hosted runners read from their environment:
 * only what was given at deploy (unset, the API's own URL comes by the link, GitHub's by default).
 */
export const deployedEnvironment: Record<string, string> = {
  ...(publicBaseUrl === undefined ? {} : { PUBLIC_BASE_URL: publicBaseUrl }),
  ...(process.env.GITHUB_API_URL ? { GITHUB_API_URL: githubApiUrl } : {}),
};

/** The deploy-time environment as a function's `environment`, or nothing when none was given. */
const givenEnvironment = () =>
  Object.keys(deployedEnvironment).length === 0 ? {} : { environment: deployedEnvironment };

/** What every function is: Node 20 on arm64 with 512 MB, bundled as above. */
const FUNCTION_BASE = {
  runtime: "nodejs20.x" as const,
  architecture: "arm64" as const,
  memory: "512 MB" as const,
  nodejs: LAMBDA_NODEJS,
};

/** How long a background function has for a stream batch, a queue's messages or a sweep. */
export const BACKGROUND_TIMEOUT_SECONDS = 60;

/**
 * A function run by the table's stream, a queue or a schedule rather than the HTTP API: 60 s for a
 * batch or a sweep, linked to `link`, and given the deploy-time environment when it renders links or
 * hands dispatches to hosted runners (`withEnvironment`).
 */
export function backgroundFunction(handler: string, link: unknown[], options: { withEnvironment?: boolean } = {}) {
  return {
    ...FUNCTION_BASE,
    handler,
    timeout: `${BACKGROUND_TIMEOUT_SECONDS} seconds` as const,
    link,
    ...(options.withEnvironment ? givenEnvironment() : {}),
  };
}

export const functions = Object.fromEntries(
  FAMILIES.map((family) => [
    family,
    new sst.aws.Function(`${family[0]?.toUpperCase()}${family.slice(1)}Function`, {
      ...FUNCTION_BASE,
      handler: `functions/${family}.handler`,
      timeout: "10 seconds",
      link: [table, ...secrets, api],
      ...givenEnvironment(),
      // The `/docs` page's files and the built console, read at run time rather than bundled.
      ...(family === "service" ? { copyFiles: [...DOCS_COPY_FILES, ...CONSOLE_COPY_FILES] } : {}),
    }),
  ]),
) as Record<Family, sst.aws.Function>;

for (const route of allRoutes()) {
  for (const method of gatewayMethods(route)) {
    api.route(`${method} ${gatewayPath(route.path)}`, functions[route.family].arn);
  }
}
api.route("$default", functions[DEFAULT_ROUTE_FAMILY].arn);
