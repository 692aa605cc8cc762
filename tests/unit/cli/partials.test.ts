/**
 * `kaizen partials`: how partials are listed and shown (pure functions), content read from text, a
 * file or stdin, and the requests the commands send, to a stub that records them (in process, no
 * server): the bodies of a create and an update, the name in the path, and usage errors before any
 * request.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatPartial, formatPartialList, readContent } from "../../../client/cli/commands/partials.js";
import { UsageError } from "../../../client/cli/runtime.js";
import type { Schema } from "../../../client/client.js";
import { inProcessKaizen, withStub } from "../../helpers/cli-stub.js";

const cwd = mkdtempSync(join(tmpdir(), "kaizen-cli-partials-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function partial(fields: Partial<Schema<"Partial">> = {}): Schema<"Partial"> {
  return {
    name: "kaizen-reporting",
    content: "## Reporting back\n",
    description: "How agents report back",
    createdAt: "2026-11-20T08:30:00.000Z",
    updatedAt: "2026-11-21T09:00:00.000Z",
    ...fields,
  };
}

describe("readContent", () => {
  it("takes the text as given, a file's text after @, and stdin's for -", () => {
    const file = join(cwd, "footer.hbs");
    writeFileSync(file, "Thanks, {{issueRef issue}}.\n");
    expect(readContent("inline {{x}}")).toBe("inline {{x}}");
    expect(readContent(`@${file}`)).toBe("Thanks, {{issueRef issue}}.\n");
    expect(readContent("-", () => "from stdin")).toBe("from stdin");
  });

  it("names a file it cannot read", () => {
    expect(() => readContent(`@${join(cwd, "missing.hbs")}`)).toThrow(UsageError);
    expect(() => readContent(`@${join(cwd, "missing.hbs")}`)).toThrow(
      /^--content: cannot read .*missing\.hbs \(ENOENT\)$/,
    );
  });
});

describe("formatPartialList and formatPartial", () => {
  it("list each partial's name, description and last change; show its fields, how to include it and its content", () => {
    expect(formatPartialList([partial(), partial({ name: "footer", description: null })], false).split("\n")).toEqual([
      "NAME              DESCRIPTION             UPDATED",
      "kaizen-reporting  How agents report back  2026-11-21 09:00",
      "footer            -                       2026-11-21 09:00",
    ]);
    const shown = formatPartial(partial(), false);
    expect(shown.split("\n")[0]).toBe("kaizen-reporting");
    expect(shown).toContain("{{> kaizen-reporting}}");
    expect(shown).toContain("## Reporting back");
  });
});

const kaizen = inProcessKaizen(cwd);

describe("kaizen partials", () => {
  it("lists, shows, creates, updates and deletes, sending what the flags say", async () => {
    const file = join(cwd, "signoff.hbs");
    writeFileSync(file, "Signed, {{issueRef issue}}\n");
    await withStub(
      (request) =>
        request.method === "DELETE"
          ? { status: 204 }
          : request.url?.startsWith("/api/partials?")
            ? { status: 200, json: { data: [partial()], total: 3 } }
            : { status: request.method === "POST" ? 201 : 200, json: { data: partial({ name: "signoff" }) } },
      async (url, seen) => {
        const env = { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_writer" };
        const list = await kaizen(["partials", "list", "--page", "2", "--limit", "1"], env);
        expect(list.status).toBe(0);
        expect(list.stdout).toContain("kaizen-reporting  How agents report back");
        expect(list.stdout).toContain("2–2 of 3 partials (--page 3 for more)");
        const show = await kaizen(["partials", "show", "signoff"], env);
        expect(show.stdout.split("\n")[0]).toBe("signoff");
        const create = await kaizen(
          ["partials", "create", "signoff", "--content", `@${file}`, "--description", "Sign-off"],
          env,
        );
        expect(create.stdout).toBe("Created partial signoff.\n");
        const update = await kaizen(["partials", "update", "signoff", "--content", "Bye"], env);
        expect(update.stdout).toBe("Updated partial signoff.\n");
        const removed = await kaizen(["partials", "delete", "signoff"], env);
        expect(removed.stderr).toBe("");
        expect(removed.stdout).toBe("Deleted partial signoff.\n");
        expect(seen.map(({ method, url: path, authorization }) => [method, path, authorization])).toEqual([
          ["GET", "/api/partials?page=2&limit=1", "Bearer kaizen_writer"],
          ["GET", "/api/partials/signoff", "Bearer kaizen_writer"],
          ["POST", "/api/partials", "Bearer kaizen_writer"],
          ["PATCH", "/api/partials/signoff", "Bearer kaizen_writer"],
          ["DELETE", "/api/partials/signoff", "Bearer kaizen_writer"],
        ]);
        expect(JSON.parse(seen[2]?.body ?? "")).toEqual({
          name: "signoff",
          content: "Signed, {{issueRef issue}}\n",
          description: "Sign-off",
        });
        expect(JSON.parse(seen[3]?.body ?? "")).toEqual({ content: "Bye" });
      },
    );
  });

  it("prints the API's 409 when a version still includes the partial, exit 1", async () => {
    const error =
      'Partial "signoff" is included by active version 1 of template bug-fix (ver_01J2ZQ5K8Y3M4N6P7R9S0T1V2W); retire those versions or change those partials first';
    await withStub(
      () => ({ status: 409, json: { error } }),
      async (url) => {
        const run = await kaizen(["partials", "delete", "signoff"], {
          KAIZEN_URL: url,
          KAIZEN_API_KEY: "kaizen_writer",
        });
        expect(run.status).toBe(1);
        expect(run.stderr).toContain(error);
      },
    );
  });

  it.each([
    [["partials", "create", "signoff"], "Missing required argument: content"],
    [["partials", "update", "signoff"], "partials update needs --content, --description or both"],
    [["partials"], "Which partials command? (list, show, create, update, delete)"],
    [["partials", "delete"], "Not enough non-option arguments"],
  ])("kaizen %j is a usage error before any request", async (args, message) => {
    await withStub(
      () => ({ status: 500, json: {} }),
      async (url, seen) => {
        const run = await kaizen(args, { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_writer" });
        expect(run.status).toBe(2);
        expect(run.stdout).toBe("");
        expect(run.stderr).toContain(message);
        expect(seen).toEqual([]);
      },
    );
  });
});
