/** The CLI's output formatting: aligned tables, fields, colour only when asked, API errors on stderr. */
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import {
  createOutput,
  formatApiError,
  formatFields,
  formatTable,
  pageFooter,
  priorityLabel,
  truncate,
  wantsColour,
} from "../../../client/cli/output.js";
import { KaizenApiError } from "../../../client/client.js";

const ESC = "\u001b[";
const rows = [
  { id: "KZN-1", status: "todo", title: "Checkout times out" },
  { id: "KZN-12", status: "in_progress", title: "Ünïcode títle ✓" },
];
const columns = [
  { header: "ISSUE", value: (r: (typeof rows)[number]) => r.id },
  { header: "STATUS", value: (r: (typeof rows)[number]) => r.status, style: () => "yellow" as const },
  { header: "TITLE", value: (r: (typeof rows)[number]) => r.title },
];

describe("formatTable", () => {
  it("aligns every column on the widest cell, two spaces apart, no trailing spaces", () => {
    expect(formatTable(columns, rows, false)).toBe(
      [
        "ISSUE   STATUS       TITLE",
        "KZN-1   todo         Checkout times out",
        "KZN-12  in_progress  Ünïcode títle ✓",
      ].join("\n"),
    );
  });

  it("right-aligns numbers and cuts long cells with …", () => {
    const table = formatTable(
      [
        { header: "#", value: (r: { n: number; t: string }) => String(r.n), align: "right" },
        { header: "T", value: (r: { n: number; t: string }) => r.t, max: 6 },
      ],
      [
        { n: 7, t: "short" },
        { n: 123, t: "a much longer title\nwith a second line" },
      ],
      false,
    );
    expect(table).toBe(["  #  T", "  7  short", "123  a muc…"].join("\n"));
  });

  it("colours only when asked, and colour never shifts the columns", () => {
    const plain = formatTable(columns, rows, false);
    const coloured = formatTable(columns, rows, true);
    expect(plain).not.toContain(ESC);
    expect(coloured).toContain(`${ESC}33m`);
    expect(coloured).toContain(`${ESC}1m`);
    // Without the escapes, the coloured table is the plain one.
    expect(stripVTControlCharacters(coloured)).toBe(plain);
  });
});

describe("formatFields", () => {
  it("aligns keys, shows null as -, leaves undefined out", () => {
    expect(
      formatFields(
        [
          ["status", "todo"],
          ["project", null],
          ["parent", undefined],
          ["priority", 2],
        ],
        false,
      ),
    ).toBe(["status    todo", "project   -", "priority  2"].join("\n"));
  });
});

describe("small formats", () => {
  it("truncate keeps short text and joins lines", () => {
    expect(truncate("abc", 3)).toBe("abc");
    expect(truncate("abcd", 3)).toBe("ab…");
    expect(truncate("a\r\n  b", undefined)).toBe("a b");
  });

  it("pageFooter says where the page is and how to get the next", () => {
    expect(pageFooter(20, 45, 1, 20, "issues")).toBe("1–20 of 45 issues (--page 2 for more)");
    expect(pageFooter(5, 45, 3, 20, "issues")).toBe("41–45 of 45 issues");
    expect(pageFooter(0, 0, 1, 20, "issues")).toBe("No issues.");
    expect(pageFooter(0, 3, 9, 20, "issues")).toBe("Page 9 is past the end: 3 issues in all.");
  });

  it("priorityLabel names the five priorities", () => {
    expect([0, 1, 2, 3, 4].map(priorityLabel)).toEqual(["none", "urgent", "high", "medium", "low"]);
  });
});

describe("colour decision", () => {
  it("colours a TTY only, and never with NO_COLOR", () => {
    expect(wantsColour({ write: () => true, isTTY: true }, {})).toBe(true);
    expect(wantsColour({ write: () => true, isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(wantsColour({ write: () => true, isTTY: false }, {})).toBe(false);
    expect(wantsColour({ write: () => true }, {})).toBe(false);
  });

  it("createOutput ends every text with one newline, on the right stream", () => {
    const out: string[] = [];
    const err: string[] = [];
    const output = createOutput({
      stdout: { write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => err.push(t) },
      env: {},
      json: true,
    });
    output.out("a");
    output.out("b\n");
    output.err("c");
    expect(out).toEqual(["a\n", "b\n"]);
    expect(err).toEqual(["c\n"]);
    expect(output).toMatchObject({ json: true, colour: false });
  });
});

describe("formatApiError", () => {
  const error = (status: number, extra: Partial<ConstructorParameters<typeof KaizenApiError>[0]> = {}) =>
    new KaizenApiError({
      status,
      error: "Validation failed",
      method: "POST",
      url: "http://k.example/api/issues",
      ...extra,
    });

  it("prints the status, the message, each detail and the request id", () => {
    const text = formatApiError(
      error(400, { details: [{ path: "title", message: "must not be empty" }], requestId: "req-1" }),
      "KAIZEN_API_KEY",
    );
    expect(text).toBe("kaizen: 400 Validation failed\n  title: must not be empty\n  (request req-1)");
  });

  it("says where a refused key came from, and what an unreachable service needs", () => {
    expect(
      formatApiError(error(401, { error: "Missing or malformed Authorization header" }), "/x/.kaizen/env"),
    ).toContain("key from /x/.kaizen/env");
    expect(formatApiError(error(0, { error: "cannot reach http://k.example (ECONNREFUSED)" }), undefined)).toMatch(
      /^kaizen: cannot reach http:\/\/k\.example \(ECONNREFUSED\): is the Kaizen server running\?/,
    );
  });
});
