/**
 * @module client/mcp/all-families — every family, `mcp` included: what the local server mounts, and
 * the tests with it. Core's `API_FAMILIES` holds every other family; the `mcp` family's handler lives
 * beside the MCP server (./remote.ts), as core does not import the client (docs/architecture.md#layers).
 */
import { API_FAMILIES } from "../../core/src/families.js";
import type { FamilyModules } from "../../core/src/http/app.js";
import { mcpFamily } from "./remote.js";

export const ALL_FAMILIES = { ...API_FAMILIES, mcp: mcpFamily } satisfies Required<FamilyModules>;
