/**
 * @module client/cli/commands/issues — `kaizen issues list|show|create|update|merge`: the tracker's
 * issues, by `KZN-<n>` or `iss_…`.
 */
import type { Argv } from "yargs";
import { CREATABLE_STATUSES, ISSUE_SORTS, ISSUE_STATUSES, ISSUE_TYPES } from "../../../core/src/issues/issue-values.js";
import type { Schema } from "../../client.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { integerIn, resolveProjectId, withPaging } from "../options.js";
import {
  type Column,
  emit,
  formatFields,
  formatTable,
  pageFooter,
  priorityLabel,
  section,
  shortTime,
  statusStyle,
} from "../output.js";
import { UsageError } from "../runtime.js";

type Issue = Schema<"Issue">;
type IssueSummary = Pick<Issue, "identifier" | "title" | "type" | "status" | "priority">;

/** The columns issues show in (`issues list`, `queue`, an issue's children). */
export function issueColumns<T>(issue: (row: T) => IssueSummary): Column<T>[] {
  return [
    { header: "ISSUE", value: (row) => issue(row).identifier, style: () => "bold" },
    { header: "STATUS", value: (row) => issue(row).status, style: (row) => statusStyle(issue(row).status) },
    { header: "TYPE", value: (row) => issue(row).type },
    { header: "PRIORITY", value: (row) => priorityLabel(issue(row).priority) },
    { header: "TITLE", value: (row) => issue(row).title, max: 70 },
  ];
}

/**
 * Where the issue's merged fix stands (docs/api.md#verification), in a few words (`issues show`, and
 * `events tail` for `issue.verified` and `issue.regressed`).
 * @example verificationLine({ status: "regressed", regressedAt: "2026-11-26T10:00:00Z", mergedAt: "2026-11-25T09:23:00Z", … }) // "regressed 2026-11-26 10:00 (merged 2026-11-25 09:23)"
 */
export function verificationLine(verification: Issue["verification"]): string | undefined {
  if (!verification) return undefined;
  if (verification.status === "regressed") {
    return `regressed ${shortTime(verification.regressedAt)} (merged ${shortTime(verification.mergedAt)})`;
  }
  return `${verification.status}, watched until ${shortTime(verification.until)} (merged ${shortTime(verification.mergedAt)})`;
}

/** Text set in by four spaces, line by line. */
function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}

/**
 * An issue as `issues show` prints it: its fields, description, pull requests and review feedback, and its
 * children, relations and signals.
 * @example formatIssue(issue, false)
 */
export function formatIssue(issue: Schema<"IssueDetail"> | Issue, colour: boolean): string {
  const detail = "children" in issue ? issue : undefined;
  const parts = [
    `${issue.identifier}  ${issue.title}`,
    formatFields(
      [
        ["id", issue.id],
        ["status", issue.status, statusStyle(issue.status)],
        ["type", issue.type],
        ["priority", priorityLabel(issue.priority)],
        ["project", issue.projectId],
        ["parent", detail?.parent ? `${detail.parent.identifier} ${detail.parent.title}` : issue.parentId],
        ["labels", issue.labels.length > 0 ? issue.labels.join(", ") : null],
        ["signals", issue.signalCount > 0 ? `${issue.signalCount} (last ${shortTime(issue.lastSignalAt)})` : undefined],
        ["blocked by", issue.blockedBy.length > 0 ? issue.blockedBy.join(", ") : undefined],
        ["created", shortTime(issue.createdAt)],
        ["updated", shortTime(issue.updatedAt)],
        ["completed", issue.completedAt ? shortTime(issue.completedAt) : undefined],
        ["verification", verificationLine(issue.verification)],
      ],
      colour,
    ),
  ];
  if (issue.description) parts.push(section("Description", issue.description, colour));
  if (issue.hypothesis) {
    parts.push(
      section(
        "Hypothesis",
        `${issue.hypothesis.statement}\nconfidence ${issue.hypothesis.confidence}; validated by: ${issue.hypothesis.validationCriteria}`,
        colour,
      ),
    );
  }
  if (issue.agentSummary) parts.push(section("Agent summary", issue.agentSummary, colour));
  if (issue.commits.length > 0) {
    parts.push(section("Commits", issue.commits.map((c) => `${c.sha.slice(0, 12)}  ${c.message}`).join("\n"), colour));
  }
  if (issue.pullRequests.length > 0) {
    const lines = issue.pullRequests.map(
      (pr) =>
        `${pr.repository ?? ""}#${pr.number}  ${pr.title}${pr.state ? `  (${pr.state})` : ""}${pr.url ? `  ${pr.url}` : ""}`,
    );
    parts.push(section("Pull requests", lines.join("\n"), colour));
  }
  if (issue.feedback.length > 0) {
    const rounds = issue.reviewRounds > 0 ? `, sent back ${issue.reviewRounds} time(s)` : "";
    const lines = issue.feedback.map(
      (entry) =>
        `${shortTime(entry.at)}  ${entry.kind}${entry.author ? ` by ${entry.author}` : ""}` +
        `${entry.pullRequest ? ` on #${entry.pullRequest.number}` : ""}\n${indent(entry.body)}`,
    );
    parts.push(section(`Review feedback${rounds}`, lines.join("\n"), colour));
  }
  if (detail && detail.children.length > 0) {
    parts.push(
      section(
        "Children",
        formatTable(
          issueColumns((c: IssueSummary) => c),
          detail.children,
          colour,
        ),
        colour,
      ),
    );
  }
  if (detail && detail.relations.length > 0) {
    const lines = detail.relations.map((r) => `${r.type.padEnd(10)}  ${r.relatedIssueId}  (${r.id})`);
    parts.push(section("Relations", lines.join("\n"), colour));
  }
  if (detail && detail.signals.length > 0) {
    const table = formatTable(
      [
        { header: "RECEIVED", value: (s: Schema<"Signal">) => shortTime(s.receivedAt) },
        { header: "SOURCE", value: (s) => s.source },
        { header: "SEVERITY", value: (s) => s.severity, style: (s) => statusStyle(s.severity) },
        { header: "SIGNAL", value: (s) => s.id },
        { header: "TITLE", value: (s) => s.title, max: 60 },
      ],
      detail.signals,
      colour,
    );
    parts.push(section("Latest signals", table, colour));
  }
  return parts.join("\n");
}

/** Issue-field flags `create` and `update` share. */
function issueFieldOptions<T>(y: Argv<T>) {
  return y
    .option("description", { type: "string", describe: "Markdown description" })
    .option("priority", {
      type: "number",
      describe: "0 none, 1 urgent, 2 high, 3 medium, 4 low",
      coerce: integerIn("priority", 0, 4),
    })
    .option("project", { type: "string", describe: "Project id (prj_…) or name" })
    .option("parent", { type: "string", describe: "Parent issue (KZN-<n> or iss_…)" })
    .option("label", { type: "string", array: true, describe: "A label name (repeat for several)" });
}

/** Registers `kaizen issues …`. */
export function registerIssues(yargs: Argv, define: Define): Argv {
  return yargs.command(...COMMANDS.issues, (y) =>
    y
      .command(
        ...define(
          "list",
          "List issues, newest first",
          (y) =>
            withPaging(y)
              .option("status", {
                type: "string",
                array: true,
                choices: ISSUE_STATUSES,
                describe: "Only these statuses",
              })
              .option("type", { type: "string", array: true, choices: ISSUE_TYPES, describe: "Only these types" })
              .option("priority", {
                type: "number",
                describe: "Only this priority (0 none, 1 urgent … 4 low)",
                coerce: integerIn("priority", 0, 4),
              })
              .option("project", { type: "string", describe: "Only this project (prj_… or its name)" })
              .option("parent", { type: "string", describe: "Only the children of this issue" })
              .option("label", { type: "string", describe: "Only issues with this label" })
              .option("fingerprint", { type: "string", describe: "Only the issue with this signal fingerprint" })
              .option("q", { type: "string", describe: "Title contains this text (any case)" })
              .option("sort", { type: "string", choices: ISSUE_SORTS, describe: "Order (default -createdAt)" }),
          async (args, { client, output }) => {
            const kaizen = client("key");
            const projectId = args.project ? await resolveProjectId(kaizen, args.project) : undefined;
            const { data } = await kaizen.GET("/api/issues", {
              params: {
                query: {
                  page: args.page,
                  limit: args.limit,
                  status: args.status?.join(","),
                  type: args.type?.join(","),
                  priority: args.priority === undefined ? undefined : String(args.priority),
                  projectId,
                  parentId: args.parent,
                  label: args.label,
                  fingerprint: args.fingerprint,
                  q: args.q,
                  sort: args.sort as (typeof ISSUE_SORTS)[number] | undefined,
                },
              },
            });
            const page = data ?? { data: [], total: 0 };
            emit(output, page.data, (issues) =>
              [
                ...(issues.length > 0
                  ? [
                      formatTable(
                        issueColumns((i: Issue) => i),
                        issues,
                        output.colour,
                      ),
                    ]
                  : []),
                pageFooter(issues.length, page.total, args.page ?? 1, args.limit ?? 20, "issues"),
              ].join("\n"),
            );
            return 0;
          },
        ),
      )
      .command(
        ...define(
          "show <issue>",
          "Show an issue with its children, relations and latest signals",
          (y) => y.positional("issue", { type: "string", demandOption: true, describe: "KZN-<n> or iss_…" }),
          async (args, { client, output }) => {
            const { data } = await client("key").GET("/api/issues/{id}", { params: { path: { id: args.issue } } });
            emit(output, data?.data, (issue) => (issue ? formatIssue(issue, output.colour) : ""));
            return 0;
          },
        ),
      )
      .command(
        ...define(
          "create",
          "Create an issue",
          (y) =>
            issueFieldOptions(
              y
                .option("title", { type: "string", demandOption: true, describe: "Title (1..500 characters)" })
                .option("type", { type: "string", choices: ISSUE_TYPES, default: "task", describe: "Issue type" })
                .option("status", {
                  type: "string",
                  choices: CREATABLE_STATUSES,
                  describe: "Initial status (default triage)",
                }),
            ),
          async (args, { client, output }) => {
            const kaizen = client("key");
            const projectId = args.project ? await resolveProjectId(kaizen, args.project) : undefined;
            const { data } = await kaizen.POST("/api/issues", {
              body: {
                title: args.title,
                type: args.type as (typeof ISSUE_TYPES)[number],
                status: args.status as (typeof CREATABLE_STATUSES)[number] | undefined,
                description: args.description,
                priority: args.priority,
                projectId,
                parentId: args.parent,
                labels: args.label,
              },
            });
            emit(output, data?.data, (issue) =>
              issue ? `Created ${issue.identifier} (${issue.id}) in ${issue.status}` : "",
            );
            return 0;
          },
        ),
      )
      .command(
        ...define(
          "update <issue>",
          "Change an issue's fields or status (status moves follow the state machine)",
          (y) =>
            issueFieldOptions(
              y
                .positional("issue", { type: "string", demandOption: true, describe: "KZN-<n> or iss_…" })
                .option("status", { type: "string", choices: ISSUE_STATUSES, describe: "New status" })
                .option("title", { type: "string", describe: "New title" })
                .option("type", { type: "string", choices: ISSUE_TYPES, describe: "New type" })
                .option("summary", { type: "string", describe: "Agent summary" })
                .option("if-match", {
                  type: "string",
                  describe: "Only if the issue's ETag is still this (else 412)",
                }),
            ),
          async (args, { client, output }) => {
            const kaizen = client("key");
            const body = {
              status: args.status as (typeof ISSUE_STATUSES)[number] | undefined,
              title: args.title,
              type: args.type as (typeof ISSUE_TYPES)[number] | undefined,
              description: args.description,
              priority: args.priority,
              projectId: args.project ? await resolveProjectId(kaizen, args.project) : undefined,
              parentId: args.parent,
              labels: args.label,
              agentSummary: args.summary,
            };
            if (Object.values(body).every((value) => value === undefined)) {
              throw new UsageError("Nothing to update: give at least one of the flags (kaizen issues update --help)");
            }
            const { data } = await kaizen.PATCH("/api/issues/{id}", {
              params: { path: { id: args.issue }, header: args.ifMatch ? { "If-Match": args.ifMatch } : undefined },
              body,
            });
            emit(output, data?.data, (issue) =>
              issue
                ? `Updated ${issue.identifier}: ${issue.status}, ${priorityLabel(issue.priority)}, "${issue.title}"`
                : "",
            );
            return 0;
          },
        ),
      )
      .command(
        ...define(
          "merge <issue>",
          "Merge a duplicate into the issue that stays: it is canceled, and its signals and fingerprints go there",
          (y) =>
            y
              .positional("issue", { type: "string", demandOption: true, describe: "The duplicate (KZN-<n> or iss_…)" })
              .option("into", {
                type: "string",
                demandOption: true,
                describe: "The issue that stays (KZN-<n> or iss_…)",
              }),
          async (args, { client, output }) => {
            const { data } = await client("key").POST("/api/issues/{id}/merge", {
              params: { path: { id: args.issue } },
              body: { intoId: args.into },
            });
            emit(output, data?.data, (issue) =>
              issue
                ? `Merged ${args.issue} into ${issue.identifier}: ${issue.signalCount} signals, fingerprints ${issue.fingerprints.join(", ")}`
                : "",
            );
            return 0;
          },
        ),
      )
      .demandCommand(1, "Which issues command? (list, show, create, update, merge)"),
  );
}
