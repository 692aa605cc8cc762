/**
 * @module client/cli/commands/audit — `kaizen audit`: the audit log, newest first (`GET /api/audit`):
 * every change under /api/, every refused request (401, 403) and Kaizen's own actions, each with who
 * acted, what was asked, on what, and how it ended; filtered by actor, target, status and time. It
 * needs the admin scope: the command sends the service key, never KAIZEN_DISPATCH_TOKEN.
 */
import type { Argv } from "yargs";
import type { Schema } from "../../client.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { integerIn, parseInstant, withPaging } from "../options.js";
import { emit, formatTable, pageFooter, type Style } from "../output.js";
import { EXIT } from "../runtime.js";

export type AuditRecord = Schema<"AuditRecord">;

/**
 * `--since` as people type it: a duration back from `now` (`30m`, `2h`, `7d`, `2w`), a day
 * (`2026-11-25`: its start, UTC) or a time with its zone (`2026-11-25T09:00:00Z`,
 * `2026-11-25T10:00+01:00`); the API's form, an ISO time in UTC.
 * @example parseSince("2h", new Date("2026-11-25T09:00:00Z")) // "2026-11-25T07:00:00.000Z"
 */
export function parseSince(value: string, now: Date): string {
  return parseInstant(value, now, {
    flag: "--since",
    direction: "past",
    examples: { durations: "30m, 2h, 7d, 2w", day: "2026-11-25", time: "2026-11-25T09:00:00Z" },
  });
}

/**
 * A record's time as the table shows it, to the second, in UTC.
 * @example auditTime("2026-11-25T09:23:41.512Z") // "2026-11-25 09:23:41"
 */
export function auditTime(iso: string): string {
  return iso.replace("T", " ").slice(0, 19);
}

/**
 * Who acted, in a word or a name: `unauthenticated` for a refused credential that named no one
 * (a 401), `kaizen` for Kaizen's own actions, else the actor's name (a key's, `root key`, a dispatch's id).
 * @example actorText({ ...record, actor: null }) // "unauthenticated"
 */
export function actorText(record: Pick<AuditRecord, "actor">): string {
  if (record.actor === null) return "unauthenticated";
  if (record.actor.kind === "automation") return "kaizen";
  return record.actor.name;
}

/**
 * What was done: the request (`POST /api/keys`), or the action of one of Kaizen's own moves.
 * @example requestText({ method: "POST", path: "/api/keys", action: null }) // "POST /api/keys"
 */
export function requestText(record: Pick<AuditRecord, "method" | "path" | "action">): string {
  if (record.method !== null && record.path !== null) return `${record.method} ${record.path}`;
  return record.action ?? record.path ?? "-";
}

/** A status's colour: refusals and failures red, other client errors yellow, successes green. */
function statusColour(status: number | null): Style | undefined {
  if (status === null) return undefined;
  if (status === 401 || status === 403 || status >= 500) return "red";
  if (status >= 400) return "yellow";
  return status < 300 ? "green" : undefined;
}

/** Records as `kaizen audit` prints them, in the API's order (newest first): time (UTC), actor, request, target, status. */
export function formatAuditList(records: AuditRecord[], colour: boolean): string {
  return formatTable(
    [
      { header: "TIME (UTC)", value: (r: AuditRecord) => auditTime(r.at) },
      { header: "ACTOR", value: (r) => actorText(r), max: 40 },
      { header: "REQUEST", value: (r) => requestText(r), max: 70 },
      { header: "TARGET", value: (r) => r.targetId ?? "-" },
      {
        header: "STATUS",
        value: (r) => (r.status === null ? "-" : String(r.status)),
        style: (r) => statusColour(r.status),
      },
    ],
    records,
    colour,
  );
}

/** The flags of `kaizen audit`, as parsed. */
export interface AuditFlags {
  page: number;
  limit: number;
  actor?: string | undefined;
  target?: string | undefined;
  status?: number | undefined;
  since?: string | undefined;
}

/**
 * The query of `GET /api/audit` for the flags: the filters given, the status as the digits the API takes.
 * @example auditQuery({ page: 1, limit: 20, status: 403 }) // { page: 1, limit: 20, status: "403" }
 */
export function auditQuery(flags: AuditFlags) {
  return {
    page: flags.page,
    limit: flags.limit,
    ...(flags.actor === undefined ? {} : { actorId: flags.actor }),
    ...(flags.target === undefined ? {} : { targetId: flags.target }),
    ...(flags.status === undefined ? {} : { status: String(flags.status) }),
    ...(flags.since === undefined ? {} : { since: flags.since }),
  };
}

/** Shown by `kaizen audit --help`. */
const EPILOGUE = `Records are kept 90 days. Each says who acted: a key (its name; --actor takes its id, key_…), the
root key (root; root-previous before its rotation), a dispatch's token (dsp_…), unauthenticated (a 401: the credential named no one), or
kaizen (Kaizen's own actions, such as an issue it moved or a dispatch its budget stopped; their
request is the action). --json prints the API's records, with each actor's kind and id and the request id.
Needs the admin scope (the service key has it).`;

/** Registers `kaizen audit`. */
export function registerAudit(yargs: Argv, define: Define): Argv {
  return yargs.command(
    ...define(
      ...COMMANDS.audit,
      (y) =>
        withPaging(y)
          .option("actor", {
            type: "string",
            describe: "Only what this actor did: a key's id (key_…), root, a dispatch (dsp_…) or kaizen",
          })
          .option("target", { type: "string", describe: "Only records on this resource (an id: iss_…, key_…, dsp_…)" })
          .option("status", {
            type: "number",
            describe: "Only records that ended with this HTTP status (403: the refusals of a scope or a project)",
            coerce: integerIn("status", 100, 599),
          })
          .option("since", {
            type: "string",
            describe: "Only records from then on: a duration back from now (2h, 7d, 30m, 2w), a day or an ISO time",
            coerce: (value: unknown) => parseSince(String(value), new Date()),
          })
          .epilogue(EPILOGUE),
      async (args, { client, output }) => {
        const { data } = await client("key").GET("/api/audit", { params: { query: auditQuery(args) } });
        const page = data ?? { data: [], total: 0 };
        emit(output, page.data, (records) =>
          [
            ...(records.length > 0 ? [formatAuditList(records, output.colour)] : []),
            pageFooter(records.length, page.total, args.page, args.limit, "records"),
          ].join("\n"),
        );
        return EXIT.ok;
      },
    ),
  );
}
