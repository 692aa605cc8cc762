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
