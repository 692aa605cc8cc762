/**
 * The MCP tools a dispatch token is offered, in the order the servers list them: the agent-loop
 * tools on its own dispatch, issue and prompt (docs/security.md#which-mcp-tools-a-credential-sees).
 * Written out once for the tests of the stdio server, the remote endpoint and the access rules, and
 * never derived from the code they test.
 */
export const TOKEN_TOOLS: readonly string[] = [
  "get_issue",
  "heartbeat",
  "post_activity",
  "list_activities",
  "add_comment",
  "review_prompt",
  "complete_dispatch",
  "release_dispatch",
];
