/**
 * @module client/mcp/mcp-session — what one MCP server knows of the dispatches it works for (the dispatch
 * token it was started with, the claims it made) and which credential each call goes out with.
 *
 * Credentials: a call on a dispatch the session holds a token for (its heartbeat, complete, release,
 * a comment on its issue, a review of its prompt) goes out with that dispatch's token, so the API
 * itself keeps the agent to its own work (a wrong id is a 403, not someone else's dispatch moved);
 * every other call goes out with the service key. A token the API refuses with 401 has ended with
 * its dispatch: the session stops using it and, when it holds the key, repeats the call with the key
 * (so a review after `complete` still lands, and a late heartbeat answers "Dispatch … is completed"
 * instead of a bare 401).
 */
import { dispatchIdOfToken } from "../../core/src/dispatch/token.js";
import { createKaizenClient, KaizenApiError, type KaizenClient, type Schema } from "../client.js";
import type { Connection } from "../config.js";

type Dispatch = Schema<"Dispatch">;
type ClaimResult = Schema<"ClaimResult">;

/** A dispatch the session works for, with what it has learnt of it so far. */
export interface HeldDispatch {
  id: string;
  /** Its token: from `KAIZEN_DISPATCH_TOKEN` or from the claim that made it. */
  token: string | undefined;
  issueId: string | undefined;
  /** `KZN-<n>`, when a claim told it. */
  identifier: string | undefined;
  /** `null`: the dispatch has no prompt (no template matched); `undefined`: not known yet. */
  promptId: string | null | undefined;
  /** Seen ended (completed, failed, released, expired or stopped), or its token refused; a waiting dispatch is open. */
  ended: boolean;
}

/**
 * Where a session's calls go and with what: the API's URL and credentials and, for the remote MCP
 * endpoint, the fetch that hands each request to the API in the same process (client/mcp/remote.ts).
 */
export type SessionConnection = Pick<Connection, "url" | "apiKey" | "dispatchToken" | "projectId"> & {
  fetch?: ((request: Request) => Promise<Response>) | undefined;
};

/** What a call acts on, which decides its credential: a dispatch, an issue, a prompt, or the service at large. */
export type CallTarget = { dispatchId: string } | { issue: string } | { prompt: string } | "service";

/** A tool call the session cannot make as asked: nothing to default an id to, or no credential for it. */
export class SessionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SessionError";
  }
}

const TOKEN_ENDED_HINT =
  "a dispatch token stops working when its dispatch ends or its lease runs out; review the prompt and comment before completing";

/**
 * The dispatches one MCP server works for and the clients it calls the API with.
 * @example
 * const session = new McpSession(resolveConnection(process.env, process.cwd()));
 * await session.call({ dispatchId: session.dispatchId() }, (kaizen) => kaizen.POST("/api/dispatch/{id}/heartbeat", …));
 */
export class McpSession {
  readonly #url: string;
  readonly #fetch: ((request: Request) => Promise<Response>) | undefined;
  readonly #apiKey: string | undefined;
  readonly #dispatchToken: string | undefined;
  /** The project a connected repository works on (`KAIZEN_PROJECT`): claims default to it. */
  readonly projectId: string | undefined;
  readonly #clients = new Map<string, KaizenClient>();
  readonly #held = new Map<string, HeldDispatch>();
  #currentId: string | undefined;

  /** Throws a {@link SessionError} for a `dispatchToken` that is not a dispatch token (`kzd_…`). */
  constructor(connection: SessionConnection) {
    this.#url = connection.url;
    this.#fetch = connection.fetch;
    this.projectId = connection.projectId;
    this.#apiKey = connection.apiKey;
    this.#dispatchToken = connection.dispatchToken;
    if (connection.dispatchToken !== undefined) {
      const id = dispatchIdOfToken(connection.dispatchToken);
      if (id === undefined)
        throw new SessionError("KAIZEN_DISPATCH_TOKEN is not a dispatch token (kzd_<ULID>_<64 hex>)");
      this.#held.set(id, blank(id, connection.dispatchToken));
      this.#currentId = id;
    }
  }

  /** The dispatch tools default to: the latest claim of this session, else the dispatch token's. */
  get current(): HeldDispatch | undefined {
    return this.#currentId === undefined ? undefined : this.#held.get(this.#currentId);
  }

  /** Takes on a dispatch this session claimed: it becomes the current one, and its token serves its calls. */
  adopt(claim: ClaimResult): void {
    const { dispatch, issue } = claim;
    this.#held.set(dispatch.id, {
      id: dispatch.id,
      token: dispatch.token,
      issueId: issue.id,
      identifier: issue.identifier,
      promptId: dispatch.promptId,
      ended: !isOpen(dispatch),
    });
    this.#currentId = dispatch.id;
  }

  /** Records what an answer said of a dispatch this session holds (its issue, prompt, whether it ended). */
  remember(dispatch: Dispatch): void {
    const held = this.#held.get(dispatch.id);
    if (!held) return;
    held.issueId = dispatch.issueId;
    held.promptId = dispatch.promptId;
    held.ended = !isOpen(dispatch);
  }

  /** `given`, or the current dispatch's id; a {@link SessionError} when there is neither. */
  dispatchId(given?: string): string {
    if (given !== undefined) return given;
    const current = this.current;
    if (!current) throw noDispatch("dispatchId (dsp_…)");
    return current.id;
  }

  /** `given`, or the current dispatch's issue (learnt from the API when not known yet). */
  async issueId(given?: string): Promise<string> {
    if (given !== undefined) return given;
    const current = this.current;
    if (!current) throw noDispatch("issueId (iss_… or KZN-<n>)");
    const issueId = current.issueId ?? (await this.#learn(current)).issueId;
    if (issueId === undefined) throw new SessionError(`Dispatch ${current.id}'s issue could not be learnt`);
    return issueId;
  }

  /** `given`, or the current dispatch's prompt (learnt from the API when not known yet). */
  async promptId(given?: string): Promise<string> {
    if (given !== undefined) return given;
    const current = this.current;
    if (!current) throw noDispatch("promptId (prm_…)");
    const promptId = current.promptId === undefined ? (await this.#learn(current)).promptId : current.promptId;
    if (!promptId)
      throw new SessionError(`Dispatch ${current.id} has no prompt to review (no template matched its issue)`);
    return promptId;
  }

  /**
   * Sends one request with the credential `target` calls for: the token of a held, live dispatch it
   * belongs to, else the service key, else the dispatch token (which the API refuses outside its
   * dispatch with a 403).
   */
  async call<T>(target: CallTarget, send: (kaizen: KaizenClient) => Promise<T>): Promise<T> {
    const held = this.#heldFor(target);
    if (held?.token !== undefined && !(held.ended && this.#apiKey)) {
      try {
        return await send(this.#client(held.token));
      } catch (error) {
        if (!(error instanceof KaizenApiError && error.status === 401)) throw error;
        held.ended = true;
        if (!this.#apiKey) throw new SessionError(`${error.error} (${TOKEN_ENDED_HINT})`, { cause: error });
      }
    }
    const credential = this.#apiKey ?? this.#dispatchToken;
    if (credential === undefined) throw new SessionError("No credential: set KAIZEN_API_KEY or KAIZEN_DISPATCH_TOKEN");
    return send(this.#client(credential));
  }

  /** The held dispatch `target` belongs to, a live one first. */
  #heldFor(target: CallTarget): HeldDispatch | undefined {
    if (target === "service") return undefined;
    if ("dispatchId" in target) return this.#held.get(target.dispatchId);
    const belongs =
      "issue" in target
        ? (held: HeldDispatch) =>
            held.issueId === target.issue || held.identifier?.toUpperCase() === target.issue.toUpperCase()
        : (held: HeldDispatch) => held.promptId === target.prompt;
    const matching = [...this.#held.values()].filter(belongs);
    return matching.find((held) => !held.ended) ?? matching[0];
  }

  /**
   * Fills in a held dispatch's issue and prompt: a read with the service key when there is one, else a
   * heartbeat with its token (the only dispatch route a token may call that answers with the
   * dispatch; it also extends the lease, which an agent still at work wants anyway).
   */
  async #learn(held: HeldDispatch): Promise<HeldDispatch> {
    const { data } = this.#apiKey
      ? await this.call("service", (kaizen) => kaizen.GET("/api/dispatch/{id}", { params: { path: { id: held.id } } }))
      : await this.call({ dispatchId: held.id }, (kaizen) =>
          kaizen.POST("/api/dispatch/{id}/heartbeat", { params: { path: { id: held.id } } }),
        );
    if (!data) throw new SessionError(`Dispatch ${held.id} could not be read`);
    this.remember(data.data);
    return held;
  }

  #client(credential: string): KaizenClient {
    let client = this.#clients.get(credential);
    if (!client) {
      client = createKaizenClient({
        baseUrl: this.#url,
        token: credential,
        ...(this.#fetch ? { fetch: this.#fetch } : {}),
      });
      this.#clients.set(credential, client);
    }
    return client;
  }
}

/** Whether a dispatch is still open: its agent works (`active`) or waits for a person (`waiting`), and its token serves it. */
function isOpen(dispatch: Pick<Dispatch, "status">): boolean {
  return dispatch.status === "active" || dispatch.status === "waiting";
}

function blank(id: string, token: string): HeldDispatch {
  return { id, token, issueId: undefined, identifier: undefined, promptId: undefined, ended: false };
}

function noDispatch(what: string): SessionError {
  return new SessionError(
    `No dispatch in this session to default to: pass ${what}, or claim one with claim_next_issue`,
  );
}
