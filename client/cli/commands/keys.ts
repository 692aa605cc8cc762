/**
 * @module client/cli/commands/keys — `kaizen keys create|list|show|revoke`: API keys of their own for a
 * person, a tool or an agent fleet, each holding scopes and, optionally, narrowed to projects and
 * given an expiry (docs/security.md#scopes). Every call needs the admin scope: the commands send the
 * service key, never KAIZEN_DISPATCH_TOKEN. A new key's text is in the create's answer only.
 */
import type { Argv } from "yargs";
import type { Schema } from "../../client.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { parseInstant, resolveProjectId, withPaging } from "../options.js";
import { emit, formatFields, formatTable, pageFooter, paint, shortTime } from "../output.js";
import { EXIT, UsageError } from "../runtime.js";

type ApiKey = Schema<"ApiKey">;
type CreatedKey = Schema<"CreatedKey">;
export type Scope = ApiKey["scopes"][number];

/** What each scope allows (docs/security.md#scopes); its keys are every scope the API knows. */
const SCOPE_TEXT: Record<Scope, string> = {
  read: "every GET, but event destinations",
  write: "what read allows, and every change (issues, signals, projects, templates, steering, …)",
  dispatch: "claims and an agent's steps of a dispatch (heartbeat, activities, complete, release)",
  admin: "everything: the others, event destinations and API keys",
};

/** The scopes, in the API's order. */
export const SCOPES = Object.keys(SCOPE_TEXT) as Scope[];

/** Most projects one key may be narrowed to (the API's limit). */
const MAX_PROJECTS = 20;

/** The revocation's rule as the API states it (`DELETE /api/keys/:id`). */
const REVOCATION = "refused at once on the instance that revoked it and everywhere within 30 s";

/**
 * `--scope` as people type it: repeated, or names separated by commas, each one of {@link SCOPES};
 * each once, in the order given. An unknown name is a usage error listing the scopes.
 * @example parseScopes(["read", "write,dispatch"]) // ["read", "write", "dispatch"]
 */
export function parseScopes(value: unknown): Scope[] {
  const names = [value]
    .flat()
    .flatMap((part) => String(part).split(","))
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
  if (names.length === 0) throw new UsageError(`--scope needs at least one of: ${SCOPES.join(", ")}`);
  const unknown = names.find((name) => !(SCOPES as string[]).includes(name));
  if (unknown !== undefined) {
    throw new UsageError(`--scope: ${unknown} is not a scope; the scopes are ${SCOPES.join(", ")}`);
  }
  return [...new Set(names as Scope[])];
}

/**
 * `--expires` as people type it: a duration from `now` (`30d`, `12h`, `90m`, `2w`), a day
 * (`2027-01-31`: its start, UTC) or a time with its zone (`2027-01-31T18:00:00Z`,
 * `2027-01-31T18:00+01:00`); the API's form, an ISO time in UTC. The API refuses one not in the future.
 * @example parseExpiry("30d", new Date("2026-11-25T09:00:00Z")) // "2026-12-25T09:00:00.000Z"
 */
export function parseExpiry(value: string, now: Date): string {
  return parseInstant(value, now, {
    flag: "--expires",
    direction: "future",
    examples: { durations: "30d, 12h, 90m, 2w", day: "2027-01-31", time: "2027-01-31T18:00:00Z" },
  });
}

/** `--project`, given once or repeated: the references in their order, each once. */
function projectReferences(value: unknown): string[] {
  return [...new Set([value].flat().map((reference) => String(reference).trim()))].filter((ref) => ref !== "");
}

/** A key's projects in a few words: `every project`, or their ids. */
export function projectsText(projectIds: readonly string[] | null): string {
  return projectIds === null ? "every project" : projectIds.join(", ");
}

/** A key's projects in a table cell: `all`, the one id, or the first and how many more. */
function projectsCell(projectIds: readonly string[] | null): string {
  if (projectIds === null) return "all";
  const [first = "-", ...rest] = projectIds;
  return rest.length > 0 ? `${first} +${rest.length}` : first;
}

/** Whether a key has passed its expiry at `now`. */
function expired(key: ApiKey, now: Date): boolean {
  return key.expiresAt !== null && Date.parse(key.expiresAt) <= now.getTime();
}

/** A key's expiry in words: `never`, its time (UTC), and `(expired)` once passed. */
function expiryText(key: ApiKey, now: Date): string {
  if (key.expiresAt === null) return "never";
  return `${shortTime(key.expiresAt)}${expired(key, now) ? " (expired)" : ""}`;
}

/**
 * Keys as `keys list` prints them: id, name, scopes, projects, prefix, last use, expiry and
 * revocation; a revoked key's revocation and an expired key's expiry in red.
 */
export function formatKeyList(keys: ApiKey[], colour: boolean, now: Date = new Date()): string {
  return formatTable(
    [
      { header: "ID", value: (k: ApiKey) => k.id },
      { header: "NAME", value: (k) => k.name, max: 40 },
      { header: "SCOPES", value: (k) => k.scopes.join(",") },
      { header: "PROJECTS", value: (k) => projectsCell(k.projectIds) },
      { header: "PREFIX", value: (k) => k.prefix },
      { header: "LAST USED", value: (k) => (k.lastUsedAt === null ? "never" : shortTime(k.lastUsedAt)) },
      { header: "EXPIRES", value: (k) => expiryText(k, now), style: (k) => (expired(k, now) ? "red" : undefined) },
      {
        header: "REVOKED",
        value: (k) => shortTime(k.revokedAt),
        style: (k) => (k.revokedAt === null ? undefined : "red"),
      },
    ],
    keys,
    colour,
  );
}

/** A key as `keys show` prints it: its name and id, then each field (times in UTC). */
export function formatKey(key: ApiKey, colour: boolean, now: Date = new Date()): string {
  return [
    paint(colour, "bold", `${key.name}  (${key.id})`),
    formatFields(
      [
        ["scopes", key.scopes.join(", ")],
        ["projects", projectsText(key.projectIds)],
        ["prefix", `${key.prefix}… (the key's first ${key.prefix.length} characters)`],
        ["created", shortTime(key.createdAt)],
        ["expires", expiryText(key, now), expired(key, now) ? "red" : undefined],
        ["last used", key.lastUsedAt === null ? "never" : shortTime(key.lastUsedAt)],
        ["revoked", key.revokedAt === null ? "no" : shortTime(key.revokedAt), key.revokedAt === null ? "green" : "red"],
      ],
      colour,
    ),
  ].join("\n");
}

/** A created key as `keys create` prints it: what it holds, the key, and that it is shown this once. */
export function createdLines(created: CreatedKey, colour: boolean): string[] {
  const expiry = created.expiresAt === null ? "never expires" : `expires ${shortTime(created.expiresAt)} UTC`;
  return [
    `Created key ${created.id} (${created.name}): ${created.scopes.join(", ")} on ${projectsText(created.projectIds)}; ${expiry}.`,
    `key  ${paint(colour, "yellow", created.key)}`,
    paint(
      colour,
      "bold",
      "The key is shown once, now: store it (as KAIZEN_API_KEY, or Authorization: Bearer …). Kaizen keeps only its digest.",
    ),
  ];
}

/**
 * A revocation's answer as one line: the key, when it was revoked (a key revoked already keeps its
 * first revocation), and from when it is refused.
 * @example revokedLine(key) // "Revoked key_… (ci) at 2026-11-25 09:23 UTC: refused at once on the instance that revoked it and everywhere within 30 s."
 */
export function revokedLine(key: ApiKey): string {
  return `Revoked ${key.id} (${key.name}) at ${shortTime(key.revokedAt)} UTC: ${REVOCATION}.`;
}

const KEY_ID = { type: "string", demandOption: true, describe: "Key id (key_…)" } as const;

/** Shown by `kaizen keys create --help`. */
const CREATE_EPILOGUE = `Scopes (admin includes every other scope, write includes read; dispatch stands alone):
${SCOPES.map((scope) => `  ${scope.padEnd(9)} ${SCOPE_TEXT[scope]}`).join("\n")}
The key (kaizen_ and 64 hex characters) is printed this once; Kaizen keeps only its digest, and
kaizen keys list shows its first 12 characters. Needs the admin scope (the service key has it).`;

/** Registers `kaizen keys …`. */
export function registerKeys(yargs: Argv, define: Define): Argv {
  return yargs.command(...COMMANDS.keys, (y) =>
    y
      .command(
        ...define(
          "create <name>",
          "Make an API key: prints it, shown this once",
          (y) =>
            y
              .positional("name", {
                type: "string",
                demandOption: true,
                describe: "What the key is for, 1..100 characters (who holds it, the tool or the fleet)",
              })
              .option("scope", {
                type: "string",
                demandOption: true,
                describe: `A scope the key holds (repeat, or comma-separate, for several): ${SCOPES.join(", ")}`,
                coerce: parseScopes,
              })
              .option("project", {
                type: "string",
                describe: `Narrow the key to this project, id (prj_…) or name (repeat for several, up to ${MAX_PROJECTS}; default every project)`,
                coerce: projectReferences,
              })
              .option("expires", {
                type: "string",
                describe:
                  "When it stops working: a duration (30d, 12h, 90m, 2w), a day (2027-01-31) or an ISO time (…Z)",
                coerce: (value: unknown) => parseExpiry(String(value), new Date()),
              })
              .epilogue(CREATE_EPILOGUE),
          async (args, { client, output }) => {
            const kaizen = client("key");
            const references = args.project ?? [];
            if (references.length > MAX_PROJECTS) {
              throw new UsageError(`--project: a key is narrowed to at most ${MAX_PROJECTS} projects`);
            }
            const projectIds: string[] = [];
            for (const reference of references) projectIds.push(await resolveProjectId(kaizen, reference));
            const { data } = await kaizen.POST("/api/keys", {
              body: {
                name: args.name,
                scopes: args.scope,
                ...(projectIds.length > 0 ? { projectIds: [...new Set(projectIds)] } : {}),
                ...(args.expires === undefined ? {} : { expiresAt: args.expires }),
              },
            });
            emit(output, data?.data, (created) => (created ? createdLines(created, output.colour).join("\n") : ""));
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "list",
          "List API keys, oldest first, revoked ones included (never their text, only its first 12 characters)",
          (y) => withPaging(y),
          async (args, { client, output }) => {
            const { data } = await client("key").GET("/api/keys", {
              params: { query: { page: args.page, limit: args.limit } },
            });
            const page = data ?? { data: [], total: 0 };
            emit(output, page.data, (keys) =>
              [
                ...(keys.length > 0 ? [formatKeyList(keys, output.colour)] : []),
                pageFooter(keys.length, page.total, args.page, args.limit, "keys"),
              ].join("\n"),
            );
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "show <id>",
          "Show an API key: its scopes, projects, prefix, expiry, last use and revocation",
          (y) => y.positional("id", KEY_ID),
          async (args, { client, output }) => {
            const { data } = await client("key").GET("/api/keys/{id}", { params: { path: { id: args.id } } });
            emit(output, data?.data, (key) => (key ? formatKey(key, output.colour) : ""));
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "revoke <id>",
          `Revoke an API key: ${REVOCATION}`,
          (y) => y.positional("id", KEY_ID).epilogue("A key revoked already keeps its first revocation."),
          async (args, { client, output }) => {
            const { data } = await client("key").DELETE("/api/keys/{id}", { params: { path: { id: args.id } } });
            emit(output, data?.data, (key) => (key ? revokedLine(key) : ""));
            return EXIT.ok;
          },
        ),
      )
      .demandCommand(1, "Which keys command? (create, list, show, revoke)"),
  );
}
