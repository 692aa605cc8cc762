/**
 * Deletes that count references kept elsewhere (issues in a project, issues carrying a label)
 * fence the item first; issue writes that carry `projectExistsCheck`/`labelExistsCheck` in their
 * transaction then either are counted or fail, so no issue is left pointing at a deleted record.
 */
import { describe, expect, it } from "vitest";
import { referenceCheck } from "../../core/src/catalog/fence.js";
import { labelNameKey } from "../../core/src/catalog/keys.js";
import { labelExistsCheck, projectExistsCheck } from "../../core/src/catalog/label-store.js";
import type { TransactItem } from "../../core/src/db/db.js";
import { ConditionFailedError } from "../../core/src/db/db.js";
import { retryRaces } from "../../core/src/db/retry.js";
import { spreadShardKey } from "../../core/src/db/spread.js";
import type { NewIssue } from "../../core/src/issues/issue-item.js";
import { newIssue } from "../../core/src/issues/issue-item.js";
import { catalogService, issueQueries, issueStore } from "../../core/src/services.js";
import { AUTH, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";

/** Creates an issue as a careful issue service would: its writes plus the catalog's checks, in one transaction. */
async function createCheckedIssue(t: TestApp, fields: NewIssue, checks: TransactItem[]): Promise<boolean> {
  const store = issueStore({ db: t.db });
  try {
    const { writes } = store.prepareCreate(fields, await store.takeNumber(new Date()));
    // A failed catalog check is an answer, not a race; transaction conflicts are retried.
    await retryRaces(() => t.db.transactWrite([...writes, ...checks]), { isRace: () => false });
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

const remove = (t: TestApp, path: string) => t.app.request(path, { method: "DELETE", headers: AUTH });

/** Whether the reference check on `name`, made on shard `shard` of its guard, passes now. */
async function shardCheckPasses(t: TestApp, name: string, shard: number): Promise<boolean> {
  const check = referenceCheck(labelNameKey(name), new Date()).SpreadCheck;
  if (!check) throw new Error("a reference check is a spread check");
  try {
    await t.db.transactWrite([
      {
        ConditionCheck: {
          Key: spreadShardKey(check.Key, shard),
          ConditionExpression: check.shard.expression,
          ExpressionAttributeNames: check.shard.names,
          ExpressionAttributeValues: check.shard.values,
        },
      },
    ]);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

describe("deletion fences on spread checks", () => {
  it("leave every shard of a label's check passing after a refused delete, and tombstoned after a delete until the name is reused", async () => {
    const t = await testApp();
    const catalog = catalogService({ db: t.db });
    const label = (await catalog.createLabel({ name: "Bug", color: "#ff0000" })).record;
    expect(await shardCheckPasses(t, "bug", 7)).toBe(true);
    await t.app.request("/api/issues", {
      method: "POST",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "uses it", type: "task", labels: ["bug"] }),
    });
    // A refused delete (the label is in use) fences every shard, then lifts the fence.
    expect((await remove(t, `/api/labels/${label.id}`)).status).toBe(409);
    expect(await shardCheckPasses(t, "bug", 7)).toBe(true);
    const stored = await issueQueries({ db: t.db }).list({ sort: "-createdAt", offset: 0, limit: 1 });
    const issue = stored.issues[0];
    if (!issue) throw new Error("no issue");
    await t.app.request(`/api/issues/${issue.issue.id}`, { method: "DELETE", headers: AUTH });
    expect((await remove(t, `/api/labels/${label.id}`)).status).toBe(204);
    for (const shard of [1, 7, 63]) expect(await shardCheckPasses(t, "bug", shard)).toBe(false);
    await catalog.createLabel({ name: "BUG", color: "#00ff00" });
    for (const shard of [1, 7, 63]) expect(await shardCheckPasses(t, "bug", shard)).toBe(true);
  });
});

describe("deletion fences", () => {
  it("the reference checks pass for live records and fail for missing ones", async () => {
    const t = await testApp();
    const catalog = catalogService({ db: t.db });
    const project = (await catalog.createProject({ name: "p" })).record;
    await catalog.createLabel({ name: "Bug", color: "#ff0000" });
    const issue = (projectId: string | null, labels: string[]) =>
      newIssue({ title: "checked", type: "task", projectId, labels });
    expect(
      await createCheckedIssue(t, issue(project.id, ["Bug"]), [
        projectExistsCheck(project.id),
        labelExistsCheck("bug"),
      ]),
    ).toBe(true);
    const missingProject = "prj_01ARZ3NDEKTSV4RRFFQ69G5FAV";
    expect(await createCheckedIssue(t, issue(missingProject, []), [projectExistsCheck(missingProject)])).toBe(false);
    expect(await createCheckedIssue(t, issue(null, ["nope"]), [labelExistsCheck("nope")])).toBe(false);
  });

  it("a refused delete lifts its fence at once", async () => {
    const t = await testApp();
    const catalog = catalogService({ db: t.db });
    const project = (await catalog.createProject({ name: "p" })).record;
    const label = (await catalog.createLabel({ name: "bug", color: "#ff0000" })).record;
    await issueStore({ db: t.db }).create(
      newIssue({ title: "x", type: "task", projectId: project.id, labels: ["bug"] }),
    );
    expect((await remove(t, `/api/projects/${project.id}`)).status).toBe(409);
    expect((await remove(t, `/api/labels/${label.id}`)).status).toBe(409);
    const checks = [projectExistsCheck(project.id), labelExistsCheck("bug")];
    expect(
      await createCheckedIssue(
        t,
        newIssue({ title: "y", type: "task", projectId: project.id, labels: ["bug"] }),
        checks,
      ),
    ).toBe(true);
    const read = await t.app.request(`/api/projects/${project.id}`, { headers: AUTH });
    expect(((await read.json()) as { data: { issueCounts: { triage: number } } }).data.issueCounts.triage).toBe(2);
  });

  describe.each(CONFLICT_MODES)("$mode", ({ emulateConflicts }) => {
    it("a project deleted while issues are being added to it never ends up with issues", async () => {
      const t = await testApp({}, { emulateConflicts });
      const catalog = catalogService({ db: t.db });
      const issues = issueQueries({ db: t.db });
      for (let round = 0; round < 8; round++) {
        const project = (await catalog.createProject({ name: `p${round}` })).record;
        const fields = newIssue({ title: `i${round}`, type: "task", projectId: project.id });
        const [deleted, ...created] = await Promise.all([
          remove(t, `/api/projects/${project.id}`),
          createCheckedIssue(t, fields, [projectExistsCheck(project.id)]),
          createCheckedIssue(t, fields, [projectExistsCheck(project.id)]),
        ]);
        const inProject = Object.values(await issues.statusCountsOfProject(project.id)).reduce((a, b) => a + b, 0);
        expect(inProject).toBe(created.filter(Boolean).length);
        if (deleted.status === 204) expect(inProject).toBe(0);
        else expect(deleted.status).toBe(409);
      }
    });

    it("a label deleted while issues are being labelled with it never ends up in use", async () => {
      const t = await testApp({}, { emulateConflicts });
      const catalog = catalogService({ db: t.db });
      const issues = issueQueries({ db: t.db });
      for (let round = 0; round < 8; round++) {
        const name = `race-${round}`;
        const label = (await catalog.createLabel({ name, color: "#000000" })).record;
        const fields = newIssue({ title: name, type: "task", labels: [name] });
        const [deleted, created] = await Promise.all([
          remove(t, `/api/labels/${label.id}`),
          createCheckedIssue(t, fields, [labelExistsCheck(name)]),
        ]);
        const used = await issues.countWithLabel(name);
        expect(used).toBe(created ? 1 : 0);
        if (deleted.status === 204) expect(used).toBe(0);
        else expect(deleted.status).toBe(409);
      }
    });
  });
});
