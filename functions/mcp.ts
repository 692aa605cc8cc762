/** @module functions/mcp — Lambda for the remote MCP endpoint, `POST /mcp` (docs/api.md#remote-mcp). */
import { mcpFamily } from "../client/mcp/remote.js";
import { lambdaHandler } from "../core/src/lambda.js";

export const handler = lambdaHandler({ mcp: mcpFamily });
