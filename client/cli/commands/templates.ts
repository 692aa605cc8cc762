/**
 * @module client/cli/commands/templates — `kaizen templates list|show|preview`: the prompt
 * templates, one with its active version and what became of its work, and the prompt an issue
 * would get now.
 */
import type { Argv } from "yargs";
import { ISSUE_TYPES } from "../../../core/src/issues/issue-values.js";
import type { Schema } from "../../client.js";
import { humanReviewsText, outcomesText, percentText } from "../../measures.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { resolveProjectId, withPaging } from "../options.js";
import { emit, formatFields, formatTable, pageFooter, section, shortTime } from "../output.js";

/** A template's conditions in one line: `type=signal signalSource=errortracker`. */
function conditionsLine(conditions: Schema<"Template">["conditions"]): string {
  const parts = Object.entries(conditions).map(
    ([key, value]) => `${key}=${Array.isArray(value) ? value.join(",") : String(value)}`,
  );
  return parts.length > 0 ? parts.join(" ") : "(any issue)";
}

type Version = Schema<"Version">;

/**
 * The active version's figures as `show` prints them: its use and reviews, what became of its
 * dispatches' work (docs/api.md#outcomes), its verified rate, and people's reviews of its agents'
 * pull requests. Without an active version, one `active -` line.
 */
export function versionFields(version: Version | null): [string, string | null][] {
  if (!version) return [["active", null]];
  return [
    [
      "active",
      `version ${version.version} (${version.id}), used ${version.usageCount}×, ${version.reviewCount} reviews, score ${version.reviewScore?.toFixed(2) ?? "-"}`,
    ],
    ["outcomes", outcomesText(version.outcomes)],
    ["verified rate", percentText(version.verifiedRate)],
    ["human reviews", humanReviewsText(version.humanReviews)],
  ];
}

/**
 * A template as `show` prints it: its fields, its active version's figures, then that version's content.
 * @example formatTemplate(template, false)
 */
export function formatTemplate(template: Schema<"TemplateDetail">, colour: boolean): string {
  const version = template.activeVersion;
  const parts = [
    `${template.slug}  ${template.name}`,
    formatFields(
      [
        ["id", template.id],
        ["description", template.description],
        ["conditions", conditionsLine(template.conditions)],
        ["specificity", template.specificity],
        ["project", template.projectId],
        ...versionFields(version),
        ["updated", shortTime(template.updatedAt)],
      ],
      colour,
    ),
  ];
  if (version) parts.push(section(`Content (version ${version.version})`, version.content, colour));
  return parts.join("\n");
}

/** Registers `kaizen templates …`. */
export function registerTemplates(yargs: Argv, define: Define): Argv {
  return yargs.command(...COMMANDS.templates, (y) =>
    y
      .command(
        ...define(
          "list",
          "List templates, newest first",
          (y) =>
            withPaging(y)
              .option("type", { type: "string", choices: ISSUE_TYPES, describe: "Only templates for this issue type" })
              .option("project", { type: "string", describe: "Only templates scoped to this project (prj_… or name)" }),
          async (args, { client, output }) => {
            const kaizen = client("key");
            const projectId = args.project ? await resolveProjectId(kaizen, args.project) : undefined;
            const { data } = await kaizen.GET("/api/templates", {
              params: {
                query: {
                  page: args.page,
                  limit: args.limit,
                  type: args.type as (typeof ISSUE_TYPES)[number] | undefined,
                  projectId,
                },
              },
            });
            const page = data ?? { data: [], total: 0 };
            emit(output, page.data, (templates) => {
              const table = formatTable(
                [
                  { header: "SLUG", value: (t: Schema<"Template">) => t.slug, style: () => "bold" },
                  { header: "NAME", value: (t) => t.name, max: 40 },
                  { header: "CONDITIONS", value: (t) => conditionsLine(t.conditions), max: 50 },
                  { header: "SPECIFICITY", value: (t) => String(t.specificity), align: "right" },
                  { header: "ACTIVE VERSION", value: (t) => t.activeVersionId ?? "-" },
                ],
                templates,
                output.colour,
              );
              const footer = pageFooter(templates.length, page.total, args.page ?? 1, args.limit ?? 20, "templates");
              return templates.length > 0 ? `${table}\n${footer}` : footer;
            });
            return 0;
          },
        ),
      )
      .command(
        ...define(
          "show <template>",
          "Show a template, its active version's figures (use, outcomes, people's reviews) and its content",
          (y) =>
            y.positional("template", { type: "string", demandOption: true, describe: "Template id (tpl_…) or slug" }),
          async (args, { client, output }) => {
            const { data } = await client("key").GET("/api/templates/{id}", {
              params: { path: { id: args.template } },
            });
            emit(output, data?.data, (template) => (template ? formatTemplate(template, output.colour) : ""));
            return 0;
          },
        ),
      )
      .command(
        ...define(
          "preview <issue>",
          "Render the prompt an agent claiming this issue would get now (changes nothing)",
          (y) =>
            y
              .positional("issue", { type: "string", demandOption: true, describe: "KZN-<n> or iss_…" })
              .option("version-id", { type: "string", describe: "Render this version (ver_…, a draft too) instead" }),
          async (args, { client, output }) => {
            const { data } = await client("key").GET("/api/templates/preview/{issueId}", {
              params: { path: { issueId: args.issue }, query: { versionId: args.versionId } },
            });
            emit(output, data?.data, (preview) => {
              if (!preview?.template || !preview.version) return `No template matches ${args.issue}.`;
              const header = `--- ${preview.template.slug}, version ${preview.version.version} (${preview.version.status})`;
              return `${header}\n${preview.text ?? ""}`;
            });
            return 0;
          },
        ),
      )
      .demandCommand(1, "Which templates command? (list, show, preview)"),
  );
}
