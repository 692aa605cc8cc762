import { describe, expect, it } from "vitest";
import { changedSources } from "../../../client/cli/commands/projects.js";
import { repositoryOfUrl } from "../../../client/connect/git.js";

describe("repositoryOfUrl", () => {
  it.each([
    ["git@github.com:acme/shop.git", "acme/shop"],
    ["https://github.com/acme/shop.git", "acme/shop"],
    ["https://github.com/acme/shop", "acme/shop"],
    ["ssh://git@github.com/acme/shop.git", "acme/shop"],
    ["https://user@git.example.com/team/sub/shop.git", "sub/shop"],
    ["https://github.com/acme/shop/", "acme/shop"],
  ])("%s names %s", (url, repository) => {
    expect(repositoryOfUrl(url)).toBe(repository);
  });

  it("takes the last two segments of a local path, and names nothing without two", () => {
    expect(repositoryOfUrl("/srv/git/shop.git")).toBe("git/shop");
    expect(repositoryOfUrl("shop")).toBeUndefined();
    expect(repositoryOfUrl("")).toBeUndefined();
  });
});

describe("changedSources", () => {
  const sources = { codehost: ["Acme/Shop"], errortracker: ["web"], analytics: [] };

  it("adds names the project does not list yet, once, keeping the others as spelled", () => {
    expect(changedSources(sources, "codehost", ["acme/shop", "acme/api", "ACME/api"], "add")).toEqual({
      ...sources,
      codehost: ["Acme/Shop", "acme/api"],
    });
  });

  it("removes names in any case, and refuses one it does not list", () => {
    expect(changedSources(sources, "codehost", ["ACME/SHOP"], "remove").codehost).toEqual([]);
    expect(() => changedSources(sources, "errortracker", ["api"], "remove")).toThrow(
      "The project does not list errortracker api",
    );
  });
});
