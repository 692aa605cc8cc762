/**
 * @module client/mcp/tools — the Kaizen MCP tools: each names the one API route it calls, takes an
 * input schema made from the zod schema that validates that route's body or query (plus the path id
 * the route needs), and answers with the JSON of the API's `data`.
 */
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/mini";
import { commentsBodyWith } from "./schemas.js";
import { claimBody, completeBody } from "../../core/src/dispatch/schemas.js";
import type { ApiRouteKey } from "./access.js";
import type { McpSession } from "./session.js";
import type { paths } from "../client.js";
