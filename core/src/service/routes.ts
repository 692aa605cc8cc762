/**
 * @module service/routes — the `service` family's handlers (docs/api.md#service-health-dashboard-and-docs; routes in ./api.ts): `GET /`, `GET /llms.txt`, `GET /health`, the OpenAPI
 * document, the `/docs` reference page with its files, the webhook providers' setup, and the web
 * console's pages and files (`/app`, docs/api.md#console).
 */
import type { Context } from "hono";
import pkg from "../../../package.json" with { type: "json" };
import { CONSOLE_SECURITY_HEADERS, readConsoleAsset, readConsoleShell } from "../console/assets.js";
import { familyModule } from "../http/app.js";
import { pageOffset } from "../http/pagination.js";
import { contentEtagOf, itemResponse, JSON_CONTENT_TYPE, listResponse } from "../http/respond.js";
import { DOCS_HTML_CONTENT_TYPE, DOCS_PAGE_HTML, readDocsAsset } from "../openapi/docs-page.js";
import { allRoutes } from "../routes.js";
import { serviceApi } from "./api.js";
import { databaseCheck } from "./health.js";
import { llmsText } from "./llms-txt.js";
import { providerSetups } from "./providers.js";
import type { Health, ServiceInfo } from "./schemas.js";

export const SERVICE_VERSION: string = pkg.version;

/**
 * docs/openapi.json, built by `npm run openapi` from the schemas that validate requests, so no
 * function bundles the generator (a test fails when the file and the schemas drift apart). Imported
 * on first use: esbuild keeps it in a lazily run wrapper, so cold starts do not build the object.
 */
let openApiText: Promise<string> | undefined;
const loadOpenApiText = () =>
  import("../../../docs/openapi.json", { with: { type: "json" } }).then(({ default: document }) =>
    JSON.stringify(document),
  );

/** Every console page answers with the shell; the page's own script shows what the URL names. */
async function consolePage(c: Context): Promise<Response> {
  return c.body(await readConsoleShell(), 200, {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-cache",
    ...CONSOLE_SECURITY_HEADERS,
  });
}

/** The service family; API Gateway's `$default` route is its function's too, so it judges misses by the whole route table. */
export const serviceFamily = {
  ...familyModule(serviceApi, ({ db, config, clock }) => {
    const checkDatabase = databaseCheck(db, { clock });
    // From the configuration alone, which does not change while the process runs.
    const providers = providerSetups(config);
    const info: ServiceInfo = {
      name: "kaizen",
      version: SERVICE_VERSION,
      description: pkg.description,
      docs: "/docs",
      openapi: "/api/openapi.json",
    };
    // A document of the running release, not a stored item: a weak ETag of its content.
    const infoEtag = contentEtagOf(info);
    return {
      "GET /": (c) => itemResponse(c, info, { etag: infoEtag }),
      "GET /llms.txt": (c) =>
        c.body(llmsText(config.publicBaseUrl ?? new URL(c.req.url).origin), 200, {
          "Content-Type": "text/plain; charset=utf-8",
        }),
      "GET /health": async (c) => {
        const database = await checkDatabase();
        const ok = database === "ok";
        return c.json(
          {
            status: ok ? "ok" : "degraded",
            version: SERVICE_VERSION,
            timestamp: new Date().toISOString(),
            checks: { database },
          } satisfies Health,
          ok ? 200 : 503,
          { "Content-Type": JSON_CONTENT_TYPE, "Cache-Control": "no-store", ...(ok ? {} : { "Retry-After": "5" }) },
        );
      },
      "GET /api/openapi.json": async (c) => {
        openApiText ??= loadOpenApiText();
        return c.body(await openApiText, 200, {
          "Content-Type": JSON_CONTENT_TYPE,
          "Cache-Control": "public, max-age=300",
        });
      },
      "GET /docs": (c) => c.body(DOCS_PAGE_HTML, 200, { "Content-Type": DOCS_HTML_CONTENT_TYPE }),
      "GET /docs/assets/:file": async (c) => {
        const { body, contentType } = await readDocsAsset(c.req.param("file") ?? "");
        return c.body(body, 200, { "Content-Type": contentType, "Cache-Control": "public, max-age=86400" });
      },
      "GET /app": consolePage,
      "GET /app/issues": consolePage,
      "GET /app/issues/:id": consolePage,
      "GET /app/queue": consolePage,
      "GET /app/activity": consolePage,
      "GET /app/agents": consolePage,
      "GET /app/prompts": consolePage,
      "GET /app/prompts/:id": consolePage,
      "GET /app/providers": consolePage,
      "GET /app/projects": consolePage,
      "GET /app/projects/:id": consolePage,
      "GET /app/goals": consolePage,
      "GET /app/labels": consolePage,
      "GET /app/keys": consolePage,
      "GET /app/audit": consolePage,
      "GET /app/assets/:file": async (c) => {
        const { body, contentType } = await readConsoleAsset(c.req.param("file") ?? "");
        // Named by their content's hash: a new build is a new name, so a copy never goes stale.
        return c.body(body, 200, {
          "Content-Type": contentType,
          "Cache-Control": "public, max-age=31536000, immutable",
          ...CONSOLE_SECURITY_HEADERS,
        });
      },
      // All three on one page: the list is as long as the route table's receivers.
      "GET /api/providers": (c, { query }) => {
        const start = pageOffset(query);
        return listResponse(c, providers.slice(start, start + query.limit), providers.length, query);
      },
    };
  }),
  misses: allRoutes,
};
