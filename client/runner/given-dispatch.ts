/**
 * @module client/runner/given-dispatch — `kaizen run --dispatch`: a dispatch claimed elsewhere (a
 * hosted runner's hand-off), worked with its token. The token's heartbeat tells the dispatch's lease,
 * issue and prompt; the prompt's text and the issue's number are read with the token where the
 * server allows it, else with the key when the runner has one (docs/agents.md#running-an-agent-kaizen-run).
 */
import { REDACTED_TOKEN } from "../../core/src/prompts/claim-prompts.js";
import { KaizenApiError, type KaizenClient, type Schema } from "../client.js";
import type { Assignment } from "./dispatch-run.js";

/** A dispatch the runner cannot work as given: the message says why and what would do. */
export class GivenDispatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GivenDispatchError";
  }
}

/**
 * What the command is told about dispatch `dispatchId`: its lease (from a heartbeat with the token,
 * which also proves the token), its prompt and its issue's `KZN-<n>` (`issue` when the caller knows
 * it, as a hand-off does). A prompt neither credential can read is a {@link GivenDispatchError}.
 * @example await givenAssignment({ dispatchId, token, tokenClient, keyClient })
 */
export async function givenAssignment(given: {
  dispatchId: string;
  token: string;
  issue?: string | undefined;
  tokenClient: KaizenClient;
  keyClient?: KaizenClient | undefined;
}): Promise<Assignment> {
  const { data } = await given.tokenClient.POST("/api/dispatch/{id}/heartbeat", {
    params: { path: { id: given.dispatchId } },
  });
  if (!data) throw new GivenDispatchError(`the heartbeat of ${given.dispatchId} answered no dispatch`);
  const dispatch = data.data;
  const clients = [given.tokenClient, ...(given.keyClient ? [given.keyClient] : [])];
  // The issue is read once, and only when its number is not given or there is no prompt to work from.
  const named = given.issue?.trim();
  const read = !named || !dispatch.promptId ? await readIssue(clients, dispatch) : undefined;
  const issue = named || read?.identifier;
  const prompt = dispatch.promptId ? await readPrompt(clients, dispatch.promptId) : undefined;
  const fallback = !dispatch.promptId && read ? issueText(read) : undefined;
  // The prompt as recorded has `[dispatch token]` where the claim's text had the token: put it back,
  // so the command reads the prompt as an agent that claimed it would (docs/api.md#prompts-and-reviews).
  const text = (prompt?.text ?? fallback)?.replaceAll(REDACTED_TOKEN, given.token);
  if (text === undefined) {
    throw new GivenDispatchError(
      `Cannot read the prompt of ${given.dispatchId}: this server does not let a dispatch token read it. ` +
        "Give the runner a key with the read scope as well (KAIZEN_API_KEY), which it uses for that read only.",
    );
  }
  return {
    dispatchId: dispatch.id,
    token: given.token,
    identifier: issue ?? dispatch.issueId,
    prompt: text,
    leaseSeconds: dispatch.leaseSeconds,
  };
}

/** The first answer of `read` with each client in turn that is not a 401 or 403; undefined when none may read it. */
async function firstReadable<T>(
  clients: KaizenClient[],
  read: (client: KaizenClient) => Promise<T>,
): Promise<T | undefined> {
  for (const client of clients) {
    try {
      return await read(client);
    } catch (error) {
      if (!(error instanceof KaizenApiError) || (error.status !== 401 && error.status !== 403)) throw error;
    }
  }
  return undefined;
}

function readPrompt(clients: KaizenClient[], promptId: string) {
  return firstReadable(clients, async (client) => {
    const { data } = await client.GET("/api/prompts/{id}", { params: { path: { id: promptId } } });
    return data?.data;
  });
}

function readIssue(clients: KaizenClient[], dispatch: Schema<"Dispatch">) {
  return firstReadable(clients, async (client) => {
    const { data } = await client.GET("/api/issues/{id}", { params: { path: { id: dispatch.issueId } } });
    return data?.data;
  });
}

/** An issue without a prompt (no template matched it): its title and description, as a claim's runner gives it. */
function issueText(issue: Schema<"IssueDetail">): string {
  return `${issue.identifier}: ${issue.title}\n\n${issue.description ?? ""}`.trimEnd();
}
