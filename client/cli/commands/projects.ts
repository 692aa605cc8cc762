/**
 * @module client/cli/commands/projects — `kaizen projects list|show` and `kaizen projects sources
 * add|remove`: the projects issues belong to, and the repositories, error-tracker projects and
 * analytics projects whose signals each owns (docs/api.md#project-sources).
 */
import type { Argv } from "yargs";
import type { KaizenClient, Schema } from "../../client.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { listAllProjects, resolveProjectId } from "../options.js";
import { emit, formatFields, formatTable, shortTime } from "../output.js";
import { UsageError } from "../runtime.js";

type Project = Schema<"Project">;
type Sources = Project["sources"];

/** The kinds of source a project owns, as the flags name them. */
const SOURCE_KINDS = ["codehost", "errortracker", "analytics"] as const;
type SourceKind = (typeof SOURCE_KINDS)[number];

/** A project's sources as `projects show` prints them: one line per kind that has any. */
export function formatSources(sources: Sources): string {
  const lines = SOURCE_KINDS.filter((kind) => sources[kind].length > 0).map(
    (kind) => `${kind.padEnd(12)}  ${sources[kind].join(", ")}`,
  );
  return lines.length > 0 ? lines.join("\n") : "none";
}

/**
 * `sources` with `names` of `kind` added (those it already lists, in any case, kept as they are)
 * or removed (matched in any case; one it does not list is a usage error).
 * @example changedSources(sources, "codehost", ["acme/shop"], "add")
 */
export function changedSources(sources: Sources, kind: SourceKind, names: string[], change: "add" | "remove"): Sources {
  const listed = sources[kind];
  const has = (name: string) => listed.some((entry) => entry.toLowerCase() === name.toLowerCase());
  if (change === "add") {
    const added = names.filter(
      (name, i) => !has(name) && names.findIndex((n) => n.toLowerCase() === name.toLowerCase()) === i,
    );
    return { ...sources, [kind]: [...listed, ...added] };
  }
  const missing = names.filter((name) => !has(name));
  if (missing.length > 0) throw new UsageError(`The project does not list ${kind} ${missing.join(", ")}`);
  const removed = new Set(names.map((name) => name.toLowerCase()));
  return { ...sources, [kind]: listed.filter((entry) => !removed.has(entry.toLowerCase())) };
}

/** Reads the project, changes its sources and writes them back at the version read (412 if it moved meanwhile). */
async function changeSources(
  kaizen: KaizenClient,
  reference: string,
  kind: SourceKind,
  names: string[],
  change: "add" | "remove",
): Promise<Project | undefined> {
  const id = await resolveProjectId(kaizen, reference);
  const { data, response } = await kaizen.GET("/api/projects/{id}", { params: { path: { id } } });
  const current = data?.data;
  if (!current) return undefined;
  const etag = response.headers.get("etag") ?? undefined;
  const { data: updated } = await kaizen.PATCH("/api/projects/{id}", {
    params: { path: { id }, header: etag ? { "If-Match": etag } : undefined },
    body: { sources: changedSources(current.sources, kind, names, change) },
  });
  return updated?.data;
}

/** The options `sources add` and `sources remove` share. */
function sourceOptions<T>(y: Argv<T>) {
  return y
    .positional("project", { type: "string", demandOption: true, describe: "Project id (prj_…) or name" })
    .positional("names", { type: "string", array: true, demandOption: true, describe: "Source names" })
    .option("kind", {
      type: "string",
      choices: SOURCE_KINDS,
      default: "codehost",
      describe: "codehost: owner/name repositories; errortracker: project slugs (or ids); analytics: project ids",
    });
}

/** Registers `kaizen projects …`. */
export function registerProjects(yargs: Argv, define: Define): Argv {
  return yargs.command(...COMMANDS.projects, (y) =>
    y
      .command(
        ...define(
          "list",
          "List every project, newest first",
          (y) => y,
          async (_args, { client, output }) => {
            const projects = await listAllProjects(client("key"));
            emit(output, projects, (all) =>
              all.length === 0
                ? "No projects."
                : formatTable(
                    [
                      { header: "PROJECT", value: (p: Project) => p.id },
                      { header: "NAME", value: (p) => p.name, max: 50 },
                      { header: "STATUS", value: (p) => p.status },
                      {
                        header: "SOURCES",
                        value: (p) => String(SOURCE_KINDS.reduce((n, kind) => n + p.sources[kind].length, 0)),
                      },
                      { header: "CREATED", value: (p) => shortTime(p.createdAt) },
                    ],
                    all,
                    output.colour,
                  ),
            );
            return 0;
          },
        ),
      )
      .command(
        ...define(
          "show <project>",
          "Show a project: its sources, automation, limits, plan approval and issue counts",
          (y) =>
            y.positional("project", { type: "string", demandOption: true, describe: "Project id (prj_…) or name" }),
          async (args, { client, output }) => {
            const kaizen = client("key");
            const id = await resolveProjectId(kaizen, args.project);
            const { data } = await kaizen.GET("/api/projects/{id}", { params: { path: { id } } });
            emit(output, data?.data, (project) =>
              project
                ? [
                    `${project.name}  (${project.id})`,
                    formatFields(
                      [
                        ["status", project.status],
                        ["health", project.health],
                        ["goal", project.goalId],
                        ["accept at priority", project.automation.acceptAtPriority],
                        ["accept at signals", project.automation.acceptAtSignals],
                        ["max active per agent", project.limits.maxActivePerAgent],
                        ["daily cost budget", project.limits.dailyCostBudgetUsd],
                        ["max cost per dispatch", project.limits.maxCostPerDispatchUsd],
                        ["max in review", project.limits.maxInReview],
                        [
                          "plan approval",
                          project.autonomy.planApproval ? "yes: agents wait for a person's approval" : "no",
                        ],
                        [
                          "issues",
                          Object.entries(project.issueCounts)
                            .filter(([, n]) => n > 0)
                            .map(([status, n]) => `${status} ${n}`)
                            .join(", ") || "none",
                        ],
                      ],
                      output.colour,
                    ),
                    "Sources",
                    formatSources(project.sources),
                  ].join("\n")
                : "",
            );
            return 0;
          },
        ),
      )
      .command("sources", "Add or remove the sources a project owns (its signals then belong to it)", (y) =>
        y
          .command(
            ...define(
              "add <project> <names..>",
              "Add sources to a project (409 names the project that owns one already)",
              sourceOptions,
              async (args, { client, output }) => {
                const kind = args.kind as SourceKind;
                const project = await changeSources(client("key"), args.project, kind, args.names, "add");
                emit(output, project, (p) => (p ? `${p.name} owns ${kind}: ${p.sources[kind].join(", ")}` : ""));
                return 0;
              },
            ),
          )
          .command(
            ...define(
              "remove <project> <names..>",
              "Give sources up (later signals from them belong to no project)",
              sourceOptions,
              async (args, { client, output }) => {
                const kind = args.kind as SourceKind;
                const project = await changeSources(client("key"), args.project, kind, args.names, "remove");
                emit(output, project, (p) =>
                  p ? `${p.name} owns ${kind}: ${p.sources[kind].join(", ") || "none"}` : "",
                );
                return 0;
              },
            ),
          )
          .demandCommand(1, "Which sources command? (add, remove)"),
      )
      .demandCommand(1, "Which projects command? (list, show, sources)"),
  );
}
