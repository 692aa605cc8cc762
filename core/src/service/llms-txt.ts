/**
 * @module service/llms-txt — `GET /llms.txt` (docs/api.md#public-endpoints): a plain-text guide for a
 * coding agent that meets this deployment, in the llms.txt form (a title, a summary, sections of
 * links): what Kaizen is, how an agent claims, reports, asks and completes, where the full
 * contract is, and the remote MCP endpoint with how to authenticate to it (docs/api.md#remote-mcp). Pure: the deployment's base URL is handed in.
 */

/**
 * The guide, with every link on `baseUrl` (no trailing slash).
 * @example llmsText("https://kaizen.example.com") // "# Kaizen\n\n> …"
 */
export function llmsText(baseUrl: string): string {
  const at = (path: string) => `${baseUrl}${path}`;
  return `# Kaizen

> Kaizen turns signals from a code host, an error tracker and product analytics into ranked issues,
> and hands each one to exactly one coding agent with a prompt. This deployment is at ${baseUrl}.

Every call under /api/ takes \`Authorization: Bearer <key>\`: the key your operator gave you (an API key
with the \`dispatch\` scope is enough to work the queue), or, once you claimed, your dispatch's token.

## Working an issue

1. Claim: \`POST ${at("/api/dispatch/claim")}\` with \`{"agent": "<your name>"}\`. 201 gives \`dispatch\` (its
   \`id\` and \`token\`), the \`issue\` and the \`prompt\` to follow; 204 means nothing is waiting.
   Agents that can only GET use \`GET ${at("/api/dispatch/next")}?agent=<your name>\`.
2. Keep the lease: \`POST ${at("/api/dispatch/<id>/heartbeat")}\` with the dispatch token, every third of
   the lease (optionally \`{"usage": {"inputTokens", "outputTokens", "costUsd", "model"}}\`, running totals).
3. Say what you do: \`POST ${at("/api/dispatch/<id>/activities")}\` with \`{"type": "thought" | "action" |
   "response" | "error", "body": "…"}\`. A question is \`"elicitation"\`: the dispatch waits; read the
   answer with \`GET ${at("/api/dispatch/<id>/activities")}?after=<its sequence>\`. Where the project asks
   for it, post your plan as \`"plan"\` and wait for its approval before completing.
4. Finish: \`POST ${at("/api/dispatch/<id>/complete")}\` with \`{"result": "done" | "failed", "summary": "…",
   "commits": [], "pullRequests": []}\`, or give the issue back with \`POST ${at("/api/dispatch/<id>/release")}\`.
   A 409 \`Dispatch was stopped: <reason>\` means a person or the budget stopped you: stop working.
5. Review the prompt you got: \`POST ${at("/api/prompts/<promptId>/reviews")}\` with \`{"clarity", "completeness",
   "relevance"}\` (1..5) and \`"authorType": "agent"\`.

## Reference

- [OpenAPI document](${at("/api/openapi.json")}): every path, field and error, machine-readable
- [API reference](${at("/docs")}): the same, as a page
- [Service](${at("/")}): name, version and where the rest is
- [Health](${at("/health")})

## Tools

- [Remote MCP](${at("/mcp")}): the same steps as MCP tools, over Streamable HTTP (stateless, JSON answers).
  Send \`Authorization: Bearer <key or dispatch token>\` with every request: the root key gets every tool,
  an API key the tools its scopes allow, a dispatch token its own dispatch's tools. No session is kept:
  after \`claim_next_issue\`, name its \`dispatchId\` in the calls that act on it.
- The \`kaizen\` CLI (\`npx kaizen\` in a checkout) runs the same MCP server over stdio: \`kaizen mcp\`.
`;
}
