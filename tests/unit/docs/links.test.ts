/**
 * The repository explains itself without pointing nowhere: no file names the contract's files kept
 * outside it, every `docs/<file>.md#<anchor>` citation and every relative link of the README and docs
 * resolves to a file and a heading, and every repository path named in code and docs exists. The
 * checks are pure (tests/unit/docs/links.ts); each is shown to catch a broken case before the
 * repository is held to it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  checkRepository,
  docCitations,
  githubSlug,
  headingAnchors,
  OUTSIDE_FILES,
  proseOf,
  type RepositoryText,
  relativeLinks,
  repositoryPathMentions,
} from "./links.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/**
 * Files whose text is not read: binaries, the lock file (no prose, and large), and this file, whose
 * examples of broken references are broken on purpose.
 */
const UNREAD = /\.(png|jpe?g|gif|ico|woff2?|ttf|zip|gz)$|^package-lock\.json$|^tests\/unit\/docs\/links\.test\.ts$/;

/** A path from segments, so this file's own text names no broken path or citation. */
const at = (...segments: string[]) => segments.join("/");

/** A small repository: the given files' texts, every one of them tracked. */
function repoOf(files: Record<string, string>, alsoTracked: string[] = []): RepositoryText {
  return { paths: new Set([...Object.keys(files), ...alsoTracked]), texts: new Map(Object.entries(files)) };
}

const API_DOC = "# The API\n\n## Dispatch\n\n### Score\n\n## Service, health, dashboard and docs\n";

describe("the checks", () => {
  it("slug headings as GitHub does", () => {
    expect(githubSlug("Service, health, dashboard and docs")).toBe("service-health-dashboard-and-docs");
    expect(githubSlug("Connecting a repository: `kaizen connect`")).toBe("connecting-a-repository-kaizen-connect");
    expect(githubSlug("Files — [the guide](x.md)")).toBe("files--the-guide");
    expect([...headingAnchors("# A\n```\n## Not a heading\n```\n## B\n## B")]).toEqual(["a", "b", "b-1"]);
  });

  it("find citations, links and path mentions, and leave patterns and other sites alone", () => {
    expect(docCitations(`see ${at("docs", "api.md#dispatch")}.`)).toEqual([
      { path: "docs/api.md", anchor: "dispatch" },
    ]);
    expect(relativeLinks("[a](api.md#score) [b](https://example.com) `[c](nope.md)`\n```\n[d](e.md)\n```")).toEqual([
      { target: "api.md#score", line: 1 },
    ]);
    const mentions = `${at("core", "src", "routes.ts")}, ${at("tests", "*.test.ts")}, ${at("functions", "<family>.ts")}, ../../${at("core", "x.ts")}, ${at("client", "cli")}`;
    expect(repositoryPathMentions(mentions)).toEqual(["core/src/routes.ts"]);
  });

  it("read a code file's comments, not its strings", () => {
    const code = [
      `/**`,
      ` * the table, ${at("core", "src", "routes.ts")}`,
      ` */`,
      `const tree = { "${at("core", "src", "a.ts")}": "" }; // beside ${at("core", "src", "b.ts")}`,
      `const url = "https://example.com/${at("docs", "c.md")}";`,
    ].join("\n");
    expect(repositoryPathMentions(proseOf("x.ts", code))).toEqual(["core/src/routes.ts", "core/src/b.ts"]);
    expect(repositoryPathMentions(proseOf("x.md", code))).toContain("core/src/a.ts");
  });

  it("pass a repository whose references all resolve", () => {
    const repo = repoOf(
      {
        "docs/api.md": API_DOC,
        "README.md": "[API](docs/api.md#score), [shot](docs/shot.png)",
        "core/src/a.ts": `// ${at("docs", "api.md#service-health-dashboard-and-docs")}, ${at("core", "src", "a.ts")}, ${at("core", "src", "a.js")}`,
      },
      ["docs/shot.png"],
    );
    expect(checkRepository(repo)).toEqual([]);
  });

  it("catch a name of a file outside the repository", () => {
    const repo = repoOf({ "core/src/a.ts": `// as the contract's ${OUTSIDE_FILES[1]} says` });
    expect(checkRepository(repo)).toEqual([`core/src/a.ts: names ${OUTSIDE_FILES[1]}, a file outside the repository`]);
  });

  it("catch a citation of a missing doc, and of a heading a doc does not have", () => {
    const repo = repoOf({
      "docs/api.md": API_DOC,
      "core/src/a.ts": `// ${at("docs", "gone.md#dispatch")} and ${at("docs", "api.md#claims")}`,
    });
    expect(checkRepository(repo)).toEqual([
      "core/src/a.ts: cites docs/gone.md#dispatch, but docs/gone.md does not exist",
      "core/src/a.ts: cites docs/api.md#claims, but docs/api.md has no heading #claims",
    ]);
  });

  it("catch a markdown link to a missing file, and to a missing heading", () => {
    const repo = repoOf({
      "docs/api.md": API_DOC,
      "docs/guide.md": "Read [the API](api.md#scores).\n\nThen [the rest](more.md).",
    });
    expect(checkRepository(repo)).toEqual([
      "docs/guide.md:1: links api.md#scores, but docs/api.md has no heading #scores",
      "docs/guide.md:3: links more.md, but docs/more.md does not exist",
    ]);
  });

  it("catch a repository path that names no file", () => {
    const repo = repoOf({ "tests/a.test.ts": `// the helper in ${at("tests", "helpers", "gone.ts")}` });
    expect(checkRepository(repo)).toEqual(["tests/a.test.ts: names tests/helpers/gone.ts, which does not exist"]);
  });
});

describe("the repository", () => {
  it("has no broken citation, link or path, and names no file outside it", () => {
    const tracked = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: root,
      encoding: "utf8",
    })
      .split("\0")
      .filter((path) => path !== "" && !path.startsWith("node_modules/") && existsSync(join(root, path)));
    const texts = new Map(
      tracked.filter((path) => !UNREAD.test(path)).map((path) => [path, readFileSync(join(root, path), "utf8")]),
    );
    expect(texts.size).toBeGreaterThan(100);
    expect(checkRepository({ paths: new Set(tracked), texts })).toEqual([]);
  });
});
