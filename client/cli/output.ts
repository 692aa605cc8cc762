/**
 * @module client/cli/output — how the CLI writes: aligned tables and `key  value` blocks for people
 * (coloured only on a TTY without `NO_COLOR`), exactly the API's `data` as JSON for `--json`, and
 * API errors as one line with their details.
 */
import { styleText } from "node:util";
import type { KaizenApiError } from "../client.js";

/** A `styleText` format: a colour or a modifier. */
export type Style = Parameters<typeof styleText>[0];

/** Where a command writes, and how. */
export interface Output {
  /** `--json`: print the API's `data` and nothing else on stdout. */
  json: boolean;
  /** Colour on stdout: a TTY, and `NO_COLOR` unset or empty. */
  colour: boolean;
  out(text: string): void;
  err(text: string): void;
}

/** A writable end the CLI prints to (`process.stdout`, or a buffer in tests). */
export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean | undefined;
}

/**
 * Whether to colour what goes to `stream`: only a terminal, and never with `NO_COLOR` set (no-color.org).
 * @example wantsColour(process.stdout, process.env) // false when piped
 */
export function wantsColour(stream: TextSink, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}

/**
 * An {@link Output} over two sinks; each written text gets a trailing newline.
 * @example const output = createOutput({ stdout: process.stdout, stderr: process.stderr, env: process.env, json: false });
 */
export function createOutput(options: {
  stdout: TextSink;
  stderr: TextSink;
  env: NodeJS.ProcessEnv;
  json: boolean;
}): Output {
  return {
    json: options.json,
    colour: wantsColour(options.stdout, options.env),
    out: (text) => options.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
    err: (text) => options.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
  };
}

/**
 * `text` in `style` when `colour` is on, else unchanged.
 * @example paint(true, "red", "failed")
 */
export function paint(colour: boolean, style: Style | undefined, text: string): string {
  // The CLI decides about colour itself (wantsColour); styleText must not check the stream again.
  return colour && style && text ? styleText(style, text, { validateStream: false }) : text;
}

/**
 * Prints a command's result: with `--json` exactly `data` (2-space JSON), else what `human` makes of it.
 * @example emit(output, issue, (i) => formatFields([["id", i.id]], output.colour))
 */
export function emit<T>(output: Output, data: T, human: (data: T) => string): void {
  output.out(output.json ? JSON.stringify(data, null, 2) : human(data));
}

/** One column of a table: its header, how a row shows in it, and optionally its colour and width. */
export interface Column<T> {
  header: string;
  value: (row: T) => string;
  /** Longer cells are cut with `…` (default: no limit). */
  max?: number;
  align?: "left" | "right";
  style?: (row: T, cell: string) => Style | undefined;
}

/** Characters as a terminal counts them (code points: good enough for the titles people write). */
function width(text: string): number {
  return [...text].length;
}

/**
 * Cuts `text` to `max` characters, the last one `…`; one line only (line breaks become spaces).
 * @example truncate("Checkout times out", 9) // "Checkout…"
 */
export function truncate(text: string, max: number | undefined): string {
  const line = text.replace(/\s*[\r\n]+\s*/g, " ");
  if (max === undefined || width(line) <= max) return line;
  return `${[...line].slice(0, Math.max(0, max - 1)).join("")}…`;
}

/**
 * Rows as an aligned table: a bold header line, columns two spaces apart, widths from the widest
 * cell, no trailing spaces; colour is applied after padding so it never shifts the columns.
 * @example formatTable([{ header: "ID", value: (r) => r.id }], [{ id: "KZN-1" }], false) // "ID\nKZN-1"
 */
export function formatTable<T>(columns: Column<T>[], rows: T[], colour: boolean): string {
  const cells = rows.map((row) => columns.map((column) => truncate(column.value(row), column.max)));
  const widths = columns.map((column, i) =>
    Math.max(width(column.header), ...cells.map((line) => width(line[i] ?? ""))),
  );
  const render = (texts: string[], styles: (Style | undefined)[]) =>
    texts
      .map((text, i) => {
        const pad = " ".repeat((widths[i] ?? 0) - width(text));
        const last = i === texts.length - 1;
        const padded = columns[i]?.align === "right" ? pad + text : last ? text : text + pad;
        return paint(colour, styles[i], padded);
      })
      .join("  ")
      .trimEnd();
  const header = render(
    columns.map((column) => column.header),
    columns.map(() => "bold"),
  );
  const body = rows.map((row, r) =>
    render(
      cells[r] ?? [],
      columns.map((column, i) => column.style?.(row, cells[r]?.[i] ?? "")),
    ),
  );
  return [header, ...body].join("\n");
}

/**
 * `key  value` lines with the keys aligned; `undefined` values are left out, `null` shows as `-`.
 * @example formatFields([["status", "todo"], ["priority", "high"]], false) // "status    todo\npriority  high"
 */
export function formatFields(
  fields: [key: string, value: string | number | null | undefined, style?: Style][],
  colour: boolean,
): string {
  const shown = fields.filter(([, value]) => value !== undefined);
  const keyWidth = Math.max(0, ...shown.map(([key]) => width(key)));
  return shown
    .map(([key, value, style]) => {
      const text = value === null ? "-" : String(value);
      return `${paint(colour, "dim", key.padEnd(keyWidth))}  ${paint(colour, style, text)}`;
    })
    .join("\n");
}

/**
 * A bold section title followed by its body, for details that have parts (an issue's children, signals).
 * @example section("Children", table, false)
 */
export function section(title: string, body: string, colour: boolean): string {
  return `\n${paint(colour, "bold", title)}\n${body}`;
}

/** `1..N of TOTAL` under a list, with how to see the next page when there is one. */
export function pageFooter(shown: number, total: number, page: number, limit: number, noun: string): string {
  if (total === 0) return `No ${noun}.`;
  const first = (page - 1) * limit + 1;
  const more = first - 1 + shown < total ? ` (--page ${page + 1} for more)` : "";
  return shown === 0
    ? `Page ${page} is past the end: ${total} ${noun} in all.`
    : `${first}–${first - 1 + shown} of ${total} ${noun}${more}`;
}

const STATUS_STYLES: Record<string, Style> = {
  triage: "magenta",
  backlog: "gray",
  todo: "cyan",
  in_progress: "yellow",
  in_review: "blue",
  done: "green",
  canceled: "gray",
  active: "yellow",
  waiting: "yellow",
  completed: "green",
  failed: "red",
  released: "gray",
  expired: "red",
  ok: "green",
  degraded: "red",
  critical: "red",
  high: "yellow",
  draft: "gray",
  retired: "gray",
  running: "yellow",
  promoted: "green",
  winner: "green",
  loser: "red",
  stopped: "gray",
};

/**
 * The colour a status, outcome or severity shows in.
 * @example statusStyle("done") // "green"
 */
export function statusStyle(status: string | null | undefined): Style | undefined {
  return status ? STATUS_STYLES[status] : undefined;
}

const PRIORITY_LABELS = ["none", "urgent", "high", "medium", "low"] as const;

/**
 * An issue priority (0..4) by name, as the prompts' `priorityLabel` helper names it.
 * @example priorityLabel(1) // "urgent"
 */
export function priorityLabel(priority: number): string {
  return PRIORITY_LABELS[priority] ?? String(priority);
}

/**
 * An ISO timestamp shortened for a table: `2025-01-31 14:05` in UTC.
 * @example shortTime("2025-01-31T14:05:09.123Z") // "2025-01-31 14:05"
 */
export function shortTime(iso: string | null | undefined): string {
  return iso ? iso.replace("T", " ").slice(0, 16) : "-";
}

/**
 * An API failure as the CLI prints it on stderr: the status and the API's message, each detail on
 * its own line, the request id to find the log line, and a hint for the usual causes.
 * @example formatApiError(error, "KAIZEN_API_KEY") // "kaizen: 404 Issue KZN-9 not found\n  (request …)"
 */
export function formatApiError(error: KaizenApiError, keySource: string | undefined): string {
  const lines =
    error.status === 0
      ? [`kaizen: ${error.error}: is the Kaizen server running? (set KAIZEN_URL to reach another one)`]
      : [`kaizen: ${error.status} ${error.error}`];
  for (const detail of error.details ?? []) lines.push(`  ${detail.path || "(body)"}: ${detail.message}`);
  if (error.status === 401) {
    lines.push(
      keySource
        ? `  the credential was refused (key from ${keySource}; a dispatch token stops working when its dispatch ends)`
        : "  no credential was sent: set KAIZEN_API_KEY",
    );
  }
  if (error.retryAfterSeconds !== undefined) lines.push(`  try again in ${error.retryAfterSeconds} s`);
  if (error.requestId) lines.push(`  (request ${error.requestId})`);
  return lines.join("\n");
}
