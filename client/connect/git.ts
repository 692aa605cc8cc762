/**
 * @module client/connect/git — asks git itself whether a file stays out of the repository:
 * `git check-ignore` (ignored) and `git ls-files --error-unmatch` (tracked), so the key file is
 * only written where no `git add` would pick it up.
 */
import { spawnSync } from "node:child_process";

/** Where a path stands with git; `repository: false` when `dir` is not in a work tree (or git is missing). */
export interface GitStanding {
  repository: boolean;
  ignored: boolean;
  tracked: boolean;
}

function git(dir: string, args: string[]): number | null {
  return spawnSync("git", ["-C", dir, ...args], { stdio: "ignore" }).status;
}

/**
 * The `owner/name` of the repository `dir`'s `origin` remote points at (an `https://`, `ssh://` or
 * `git@host:` URL, with or without `.git`), or undefined without one.
 * @example originRepository("/src/shop") // "acme/shop"
 */
export function originRepository(dir: string): string | undefined {
  const url = originUrl(dir);
  return url === undefined ? undefined : repositoryOfUrl(url);
}

/**
 * The URL of `dir`'s `origin` remote, or undefined without one.
 * @example originUrl("/src/shop") // "git@github.com:acme/shop.git"
 */
export function originUrl(dir: string): string | undefined {
  const out = spawnSync("git", ["-C", dir, "remote", "get-url", "origin"], { encoding: "utf8" });
  return out.status === 0 ? out.stdout.trim() : undefined;
}

/**
 * The `owner/name` a remote URL names (its last two path segments), or undefined.
 * @example repositoryOfUrl("git@github.com:acme/shop.git") // "acme/shop"
 */
export function repositoryOfUrl(url: string): string | undefined {
  const path = url.replace(/^[a-z+]+:\/\/[^/]+\//i, "").replace(/^[^@/]+@[^:]+:/, "");
  const match = /^(?:.*\/)?([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/.exec(path);
  return match ? `${match[1]}/${match[2]}` : undefined;
}

/**
 * Whether `path` (relative to `dir`) is ignored and whether it is tracked.
 * @example gitStanding("/src/shop", ".kaizen/env") // { repository: true, ignored: true, tracked: false }
 */
export function gitStanding(dir: string, path: string): GitStanding {
  if (git(dir, ["rev-parse", "--is-inside-work-tree"]) !== 0)
    return { repository: false, ignored: false, tracked: false };
  return {
    repository: true,
    ignored: git(dir, ["check-ignore", "-q", "--", path]) === 0,
    tracked: git(dir, ["ls-files", "--error-unmatch", "--", path]) === 0,
  };
}
