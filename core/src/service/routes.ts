/** @module service/routes — the `service` family: `GET /` and `GET /health` (API.md 3.7). */
import pkg from "../../../package.json" with { type: "json" };
import type { FamilyModule } from "../http/app.js";
import { itemResponse, JSON_CONTENT_TYPE } from "../http/respond.js";
import { databaseCheck } from "./health.js";

export const SERVICE_VERSION: string = pkg.version;

export const serviceFamily: FamilyModule<"service"> = ({ db }) => {
  const checkDatabase = databaseCheck(db);
  return {
    "GET /": (c) =>
      itemResponse(c, {
        name: "kaizen",
        version: SERVICE_VERSION,
        description: pkg.description,
        docs: "/docs",
        openapi: "/api/openapi.json",
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
        },
        ok ? 200 : 503,
        { "Content-Type": JSON_CONTENT_TYPE, "Cache-Control": "no-store", ...(ok ? {} : { "Retry-After": "5" }) },
      );
    },
  };
};
