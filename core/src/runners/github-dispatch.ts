/**
 * @module runners/github-dispatch — one hand-off to GitHub Actions (docs/api.md#hosted-runners): a repository
 * dispatch, `POST {GITHUB_API_URL}/repos/<owner>/<repo>/dispatches`, which succeeds on a 2xx answered
 * within {@link GITHUB_TIMEOUT_MS}. What it reports of a refusal is GitHub's status and message,
 * never the token it sent.
 */

/** How long GitHub has to answer (docs/api.md#hosted-runners). */
export const GITHUB_TIMEOUT_MS = 10_000;
/** The most of GitHub's message a runner's `lastError` keeps. */
const MESSAGE_LIMIT = 300;

/** What a runner hands over: the repository dispatch's body (`client_payload` as the workflow reads it). */
export interface RepositoryDispatch {
  githubApiUrl: string;
  repository: string;
  eventType: string;
  githubToken: string;
  payload: { dispatchId: string; issue: string; token: string; kaizenUrl: string };
}

/** What one hand-off came to. */
export interface HandOffResult {
  ok: boolean;
  /** The status GitHub answered, or null when it did not answer in time or at all. */
  status: number | null;
  /** Why it failed: `HTTP 422: <GitHub's message>`, `timeout after 10 s`, or the connection's error. */
  error: string | null;
}

/** Sends one repository dispatch; never throws. */
export async function sendRepositoryDispatch(
  dispatch: RepositoryDispatch,
  timeoutMs = GITHUB_TIMEOUT_MS,
): Promise<HandOffResult> {
  const url = `${dispatch.githubApiUrl.replace(/\/+$/, "")}/repos/${dispatch.repository}/dispatches`;
  try {
    const response = await fetch(url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        Authorization: `Bearer ${dispatch.githubToken}`,
        Accept: "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
        "Content-Type": "application/json",
        "User-Agent": "Kaizen-Runners/1",
      },
      body: JSON.stringify({ event_type: dispatch.eventType, client_payload: dispatch.payload }),
    });
    if (response.status >= 200 && response.status < 300) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: true, status: response.status, error: null };
    }
    const message = await githubMessage(response);
    const error = `HTTP ${response.status}${message ? `: ${message}` : ""}`;
    return { ok: false, status: response.status, error: withoutSecret(error, dispatch.githubToken) };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    const why = timedOut ? `timeout after ${timeoutMs / 1000} s` : connectionError(error);
    return { ok: false, status: null, error: withoutSecret(why, dispatch.githubToken) };
  }
}

/** GitHub's `message` from an error's JSON body (its REST API's form), else the body's start. */
async function githubMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  let message = text;
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === "string") message = parsed.message;
  } catch {
    // Not JSON: the text as it came.
  }
  const oneLine = message.replace(/\s+/g, " ").trim();
  return oneLine.length > MESSAGE_LIMIT ? `${oneLine.slice(0, MESSAGE_LIMIT)}…` : oneLine;
}

/** `text` with the token cut out, should an answer ever echo it. */
function withoutSecret(text: string, secret: string): string {
  return secret === "" ? text : text.split(secret).join("[redacted]");
}

function connectionError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return `connection failed: ${detail}`;
}
