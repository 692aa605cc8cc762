/**
 * @module tests/unit/docs/links — what the repository's text points at, as pure functions: GitHub's
 * heading anchors, citations of docs by path and heading, relative markdown links, repository paths
 * named in comments and docs, and names of the contract's files kept outside the repository.
 */
import { dirname, posix } from "node:path";

/** Names of files that live outside the repository and must never be cited; built here, so this file holds neither. */
export const OUTSIDE_FILES = ["API", "ARCHITECTURE"].map((name) => `${name}.md`);

/** Top-level folders whose files a mention by path must name. */
export const CHECKED_ROOTS = [
  "core",
  "functions",
  "infra",
  "tests",
  "bench",
  "client",
  "console",
  "scripts",
  "bin",
  "docs",
];

/** File endings a mention by path must carry to be checked (longest first, so `.tsx` is not read as `.ts`). */
export const CHECKED_EXTENSIONS = ["tsx", "ts", "md", "json", "cjs", "mjs", "js", "css", "html", "png"];

/**
 * The anchor GitHub gives a heading: lower case, markup and punctuation dropped, spaces as hyphens.
 * @example githubSlug("Service, health, dashboard and docs") // "service-health-dashboard-and-docs"
 */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link or image: its text
    .replace(/[`*]/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The lines of a markdown text outside fenced code blocks, with their numbers (from 1). */
function proseLines(markdown: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fence: string | undefined;
  markdown.split(/\r?\n/).forEach((text, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) lines.push({ text, line: index + 1 });
  });
  return lines;
}

/**
 * Every anchor a markdown file's headings make, a repeated one numbered as GitHub numbers it.
 * @example headingAnchors("# A\n## B\n## B") // Set {"a", "b", "b-1"}
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return anchors;
}

/**
 * Each mention of a file kept outside the repository, by name and case.
 * @example outsideFileMentions(`see ${OUTSIDE_FILES[0]}`) // [OUTSIDE_FILES[0]]
 */
export function outsideFileMentions(text: string): string[] {
  const names = OUTSIDE_FILES.map((name) => name.replace(".", "\\.")).join("|");
  return [...text.matchAll(new RegExp(`(?<![\\w./-])(?:${names})(?![\\w-])`, "g"))].map((match) => match[0]);
}

/**
 * Each citation of a doc by path and heading (`docs/<file>.md#<anchor>`).
 * @example docCitations("see docs/api.md#dispatch.") // [{ path: "docs/api.md", anchor: "dispatch" }]
 */
export function docCitations(text: string): { path: string; anchor: string }[] {
  return [...text.matchAll(/(?<![\w./-])(docs\/[\w./-]+?\.md)#([\w-]+)/g)].map((match) => ({
    path: match[1] as string,
    anchor: match[2] as string,
  }));
}

/**
 * The relative targets of a markdown file's links and images (outside code), with their lines;
 * links to another site or scheme (`https:`, `mailto:`) are not relative and are left out.
 * @example relativeLinks("[API](docs/api.md#dispatch) and [site](https://x.y)") // [{ target: "docs/api.md#dispatch", line: 1 }]
 */
export function relativeLinks(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  for (const { text, line } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1] as string;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ target, line });
    }
  }
  return links;
}

/**
 * Each repository path named in a text: it starts at one of {@link CHECKED_ROOTS}, ends in one of
 * {@link CHECKED_EXTENSIONS}, and stands on its own (not the tail of a longer path). Mentions of a
 * pattern (`*`, `<name>`, `{name}`, a regular expression's `\\.`) are left out.
 * @example repositoryPathMentions("see core/src/routes.ts and tests/*.test.ts") // ["core/src/routes.ts"]
 */
export function repositoryPathMentions(text: string): string[] {
  const roots = CHECKED_ROOTS.join("|");
  const extensions = CHECKED_EXTENSIONS.join("|");
  const pattern = new RegExp(
    `(?<![\\w./<{*-])(?:${roots})/[^\\s\`'"()\\[\\],;:]*?\\.(?:${extensions})(?![\\w*<>{}/-])`,
    "g",
  );
  return [...text.matchAll(pattern)].map((match) => match[0]).filter((path) => !/[*<>{}\\]/.test(path));
}

/** Source files whose comments, not their code, are read for path mentions. */
const CODE_FILE = /\.(?:tsx?|[cm]?js)$/;

/**
 * The parts of a file that speak to readers: a code file's comments (whole `//` and `/* … *\/` lines,
 * and a `// …` after code), any other file whole. Strings in code name what the code uses (temporary
 * trees in tests, URL paths), which the typecheck and the tests already hold to account.
 * @example proseOf("a.ts", "const p = \"x/y.ts\"; // see core/src/routes.ts") // "see core/src/routes.ts"
 */
export function proseOf(path: string, text: string): string {
  if (!CODE_FILE.test(path)) return text;
  const comments: string[] = [];
  let inBlock = false;
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (inBlock || trimmed.startsWith("/*")) {
      comments.push(trimmed);
      inBlock = trimmed.indexOf("*/", inBlock ? 0 : 2) < 0;
      continue;
    }
    const trailing = /(?:^|\s)\/\/\s?(.*)$/.exec(line);
    if (trailing) comments.push(trailing[1] as string);
  }
  return comments.join("\n");
}

/** The repository as the checks see it: every tracked path, and the text of the files read. */
export interface RepositoryText {
  paths: ReadonlySet<string>;
  texts: ReadonlyMap<string, string>;
}

/** Where a relative link of `from` points, as a repository path and an anchor (`undefined`: none given). */
export function resolveLink(from: string, target: string): { path: string; anchor: string | undefined } {
  const hash = target.indexOf("#");
  const file = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const path = file === "" ? from : posix.normalize(posix.join(dirname(from), decodeURIComponent(file)));
  return { path: path.replace(/\/$/, ""), anchor };
}

/** Whether `path` is a tracked file or a folder holding one. */
function exists(repo: RepositoryText, path: string): boolean {
  if (repo.paths.has(path)) return true;
  const folder = `${path}/`;
  for (const tracked of repo.paths) if (tracked.startsWith(folder)) return true;
  return false;
}

/**
 * Whether a mentioned path names a file of the repository: the file itself, or the JavaScript a
 * TypeScript source compiles to (`index.js` in an import, `functions/service.mjs` in a bundle).
 */
function namesAFile(repo: RepositoryText, path: string): boolean {
  if (exists(repo, path)) return true;
  const source = path.replace(/\.[cm]?js$/, "");
  return source !== path && (repo.paths.has(`${source}.ts`) || repo.paths.has(`${source}.tsx`));
}

/** Why `anchor` of markdown file `path` does not resolve, or undefined when it does. */
function anchorProblem(repo: RepositoryText, path: string, anchor: string): string | undefined {
  const markdown = repo.texts.get(path);
  if (markdown === undefined) return `${path} is not a file whose headings can be read`;
  return headingAnchors(markdown).has(anchor.toLowerCase()) ? undefined : `${path} has no heading #${anchor}`;
}

/** Whether a file is documentation whose markdown links must resolve: the README and everything under docs/. */
export function isCheckedMarkdown(path: string): boolean {
  return path === "README.md" || (path.startsWith("docs/") && path.endsWith(".md"));
}

/**
 * Every broken reference in the repository, one line each (`file: what is wrong`): names of the
 * outside files, `docs/<file>.md#<anchor>` citations, relative links of the README and docs, and
 * repository paths named anywhere.
 * @example checkRepository({ paths, texts }) // [] when everything resolves
 */
export function checkRepository(repo: RepositoryText): string[] {
  const problems: string[] = [];
  for (const [file, text] of repo.texts) {
    for (const name of outsideFileMentions(text))
      problems.push(`${file}: names ${name}, a file outside the repository`);
    for (const { path, anchor } of docCitations(text)) {
      const problem = exists(repo, path) ? anchorProblem(repo, path, anchor) : `${path} does not exist`;
      if (problem) problems.push(`${file}: cites ${path}#${anchor}, but ${problem}`);
    }
    if (isCheckedMarkdown(file)) {
      for (const { target, line } of relativeLinks(text)) {
        const { path, anchor } = resolveLink(file, target);
        const problem = !exists(repo, path)
          ? `${path} does not exist`
          : anchor !== undefined && path.endsWith(".md")
            ? anchorProblem(repo, path, anchor)
            : undefined;
        if (problem) problems.push(`${file}:${line}: links ${target}, but ${problem}`);
      }
    }
    const cited = new Set(docCitations(text).map(({ path }) => path));
    for (const path of repositoryPathMentions(proseOf(file, text))) {
      if (!cited.has(path) && !namesAFile(repo, path)) problems.push(`${file}: names ${path}, which does not exist`);
    }
  }
  return problems;
}
