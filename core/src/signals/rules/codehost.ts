/**
 * @module signals/rules/codehost — provider event types, fingerprints, severities and titles of code-host
 * webhook deliveries (docs/api.md#receivers, docs/api.md#fingerprints-and-severity), and the Kaizen
 * issues a pull request names (what its review says is ./codehost-review.ts's).
 */
import {
  type ClassifiedSignal,
  field,
  headerValue,
  idText,
  presentHeaders,
  type Severity,
  signalTitle,
  sourceName,
  text,
  UNKNOWN,
  type WebhookDelivery,
} from "./index.js";

/** The code-host headers a signal keeps, under their canonical names. */
export const CODEHOST_HEADERS = ["X-Codehost-Event", "X-Codehost-Delivery", "X-Codehost-Hook-ID"] as const;

/** Events whose alert is a security finding in a repository: critical whatever their action. */
export const CODEHOST_SECURITY_EVENT_TYPES: ReadonlySet<string> = new Set([
  "code_scanning_alert",
  "secret_scanning_alert",
  "dependabot_alert",
  "security_advisory",
  "repository_vulnerability_alert",
]);

const CI_EVENT_TYPES: ReadonlySet<string> = new Set(["check_run", "check_suite", "workflow_run"]);
const CI_FAILURES: ReadonlySet<string> = new Set(["failure", "timed_out"]);

/** A fingerprint, severity and (when the payload has a better one than the fallback) title. */
interface Verdict {
  fingerprint: string;
  severity: Severity;
  title?: string | undefined;
}

/**
 * Classifies a verified code-host webhook delivery: `X-Codehost-Event` (+ `.action`), `X-Codehost-Delivery`,
 * and the fingerprint and severity of the docs/api.md#fingerprints-and-severity table.
 * @example classifyCodehost(delivery).fingerprint // "codehost:issue:octo/hello#12"
 */
export function classifyCodehost(delivery: WebhookDelivery): ClassifiedSignal {
  const eventType = headerValue(delivery, "X-Codehost-Event");
  const action = text(field(delivery.body, "action"));
  const type = eventType === undefined ? UNKNOWN : action === undefined ? eventType : `${eventType}.${action}`;
  const repo = repositoryName(delivery.body);
  const verdict = codehostVerdict(eventType ?? UNKNOWN, action, delivery.body, repo);
  return {
    type,
    deliveryId: headerValue(delivery, "X-Codehost-Delivery") ?? null,
    fingerprint: verdict.fingerprint,
    severity: verdict.severity,
    title: signalTitle(verdict.title, `${type} on ${repo}`),
    sourceKey: sourceName(field(delivery.body, "repository", "full_name")) ?? null,
    headers: presentHeaders(delivery, CODEHOST_HEADERS),
  };
}

/**
 * The repository a webhook delivery is about: `repository.full_name`, else the organization's login (an
 * organization-wide hook), else `unknown`.
 * @example repositoryName(body) // "octo/hello"
 */
export function repositoryName(body: unknown): string {
  return text(field(body, "repository", "full_name")) ?? text(field(body, "organization", "login")) ?? UNKNOWN;
}

/** The first row of the docs/api.md#fingerprints-and-severity table that matches, in the table's order. */
function codehostVerdict(eventType: string, action: string | undefined, body: unknown, repo: string): Verdict {
  return (
    ciFailureVerdict(eventType, action, body, repo) ??
    securityVerdict(eventType, body, repo) ??
    issueVerdict(eventType, body, repo) ??
    pullRequestVerdict(eventType, body, repo) ??
    otherEventTypeVerdict(eventType, action, body, repo)
  );
}

/** A failed or timed-out CI run, grouped per workflow (or check) and head branch. */
function ciFailureVerdict(eventType: string, action: string | undefined, body: unknown, repo: string): Verdict | null {
  const run = ciRun(eventType, body);
  if (run === null || action !== "completed" || !CI_FAILURES.has(run.conclusion ?? "")) return null;
  return {
    fingerprint: `codehost:ci:${repo}:${run.name}:${run.headBranch}`,
    severity: "high",
    title: `CI failed: ${run.name} on ${run.headBranch}`,
  };
}

interface CiRun {
  name: string;
  headBranch: string;
  conclusion: string | undefined;
  status: string | undefined;
}

/** The name, head branch and outcome of a CI event type, each where that event type's payload keeps it. */
function ciRun(eventType: string, body: unknown): CiRun | null {
  if (!CI_EVENT_TYPES.has(eventType)) return null;
  const run = field(body, eventType);
  // A suite is named by its app; a workflow run by its own name, else by its workflow's (both in GitHub's payload).
  const name =
    eventType === "check_suite"
      ? field(run, "app", "name")
      : (field(run, "name") ?? (eventType === "workflow_run" ? field(body, "workflow", "name") : undefined));
  const headBranch = eventType === "check_run" ? field(run, "check_suite", "head_branch") : field(run, "head_branch");
  return {
    name: text(name) ?? UNKNOWN,
    headBranch: text(headBranch) ?? UNKNOWN,
    conclusion: text(field(run, "conclusion")),
    status: text(field(run, "status")),
  };
}

function securityVerdict(eventType: string, body: unknown, repo: string): Verdict | null {
  if (!CODEHOST_SECURITY_EVENT_TYPES.has(eventType)) return null;
  const alertId =
    idText(field(body, "alert", "number")) ??
    idText(field(body, "alert", "id")) ??
    text(field(body, "security_advisory", "ghsa_id")) ??
    UNKNOWN;
  return {
    fingerprint: `codehost:security:${repo}:${alertId}`,
    severity: "critical",
    title: securityTitle(eventType, body),
  };
}

/** What the finding is, in the words of the tool that found it. */
function securityTitle(eventType: string, body: unknown): string | undefined {
  const alert = field(body, "alert");
  const summary =
    text(field(alert, "rule", "description")) ??
    text(field(alert, "security_advisory", "summary")) ??
    text(field(body, "security_advisory", "summary"));
  const secretType = text(field(alert, "secret_type_display_name")) ?? text(field(alert, "secret_type"));
  const dependency = text(field(alert, "affected_package_name"));
  switch (eventType) {
    case "code_scanning_alert":
      return summary && `Code scanning alert: ${summary}`;
    case "dependabot_alert":
      return summary && `Dependabot alert: ${summary}`;
    case "security_advisory":
      return summary && `Security advisory: ${summary}`;
    case "secret_scanning_alert":
      return secretType && `Secret scanning alert: ${secretType}`;
    default:
      return dependency && `Vulnerable dependency: ${dependency}`;
  }
}

function issueVerdict(eventType: string, body: unknown, repo: string): Verdict | null {
  if (eventType !== "issues") return null;
  const number = idText(field(body, "issue", "number")) ?? UNKNOWN;
  return {
    fingerprint: `codehost:issue:${repo}#${number}`,
    severity: "medium",
    title: text(field(body, "issue", "title")),
  };
}

function pullRequestVerdict(eventType: string, body: unknown, repo: string): Verdict | null {
  if (eventType !== "pull_request") return null;
  const number = idText(field(body, "pull_request", "number")) ?? idText(field(body, "number")) ?? UNKNOWN;
  return {
    fingerprint: `codehost:pr:${repo}#${number}`,
    severity: "low",
    title: text(field(body, "pull_request", "title")),
  };
}

/** Everything else (push, ping, star, CI that did not fail, …): noise worth recording, grouped per repository. */
function otherEventTypeVerdict(eventType: string, action: string | undefined, body: unknown, repo: string): Verdict {
  return {
    fingerprint: `codehost:${eventType}:${repo}`,
    severity: "low",
    title: otherEventTypeTitle(eventType, action, body),
  };
}

function otherEventTypeTitle(eventType: string, action: string | undefined, body: unknown): string | undefined {
  const run = ciRun(eventType, body);
  if (run !== null) {
    const outcome = run.conclusion ?? run.status ?? action ?? "event";
    return `CI ${outcome}: ${run.name} on ${run.headBranch}`;
  }
  if (eventType === "push") {
    const ref = text(field(body, "ref"));
    const commits = field(body, "commits");
    const count = Array.isArray(commits) ? commits.length : 0;
    return ref && `Push to ${ref} (${count} ${count === 1 ? "commit" : "commits"})`;
  }
  return undefined;
}

const ISSUE_MENTION = /KZN-(\d+)/gi;
// `kaizen/12`, `kaizen/12-fix-login`, `kaizen/12/retry`; not `kaizen/123abc`'s 12, not `kaizen/x12`.
const ISSUE_BRANCH = /^(?:refs\/heads\/)?kaizen\/(\d+)(?:\D.*)?$/is;

/**
 * Kaizen issue numbers a pull request names: `KZN-<n>` anywhere in its title or body (any case), or
 * a head branch `kaizen/<n>` optionally followed by a non-digit and anything. Unique, ascending.
 * @example issueReferences({ title: "Fix login (KZN-12)", headBranch: "kaizen/7-retry" }) // [7, 12]
 */
export function issueReferences(pr: {
  title?: string | null;
  body?: string | null;
  headBranch?: string | null;
}): number[] {
  const found = new Set<number>();
  for (const source of [pr.title, pr.body]) {
    for (const match of (source ?? "").matchAll(ISSUE_MENTION)) addIssueNumber(found, match[1]);
  }
  addIssueNumber(found, ISSUE_BRANCH.exec(pr.headBranch ?? "")?.[1]);
  return [...found].sort((a, b) => a - b);
}

/** Issue numbers start at 1; a number too large to be exact names nothing. */
function addIssueNumber(found: Set<number>, digits: string | undefined): void {
  if (digits === undefined) return;
  const number = Number(digits);
  if (Number.isSafeInteger(number) && number >= 1) found.add(number);
}
