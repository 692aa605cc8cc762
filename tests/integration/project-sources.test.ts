/**
 * Projects own their sources (docs/api.md#project-sources): a source belongs to one project whatever
 * the concurrency, and a signal from it carries the project to the issue it opens
 * (docs/api.md#what-a-signal-does, step 0), with the real providers' payloads.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";
import {
  analyticsDelivery,
  codehostDelivery,
  errortrackerDelivery,
  issueEvent,
  type SignedDelivery,
} from "../helpers/deliveries.js";
import { loadFixture } from "../helpers/fixtures.js";

vi.setConfig({ maxConcurrency: 4 });

type Sources = { codehost: string[]; errortracker: string[]; analytics: string[] };
type Project = { id: string; name: string; sources: Sources; automation: Record<string, unknown> };
type Ingested = {
  signal: { id: string; projectId: string | null; sourceKey: string | null; action: string; issueId: string | null };
  issue: { id: string; projectId: string | null } | null;
};

const NONE: Sources = { codehost: [], errortracker: [], analytics: [] };

function patch(body: unknown): RequestInit {
  return { method: "PATCH", headers: { ...AUTH, "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

async function createProject(t: Pick<TestApp, "app">, name: string, sources: Partial<Sources> = {}) {
  return dataOf<Project>(t.app.request("/api/projects", jsonPost({ name, sources })), 201);
}

async function deliver(t: TestApp, delivery: SignedDelivery): Promise<Ingested> {
  return dataOf<Ingested>(t.app.request(delivery.path, delivery.init), 201);
}

async function errorOf(response: Response | Promise<Response>) {
  const answered = await response;
  return { status: answered.status, body: (await answered.json()) as { error: string } };
}

describe("a project's sources", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("are empty by default, kept as spelled, and replaced whole by a PATCH", async () => {
    const plain = await createProject(t, "Plain");
    expect(plain.sources).toEqual(NONE);
    expect(plain.automation).toEqual({ acceptAtPriority: null, acceptAtSignals: null });
    const owning = await createProject(t, "Owning", { codehost: ["Acme/Web"], analytics: ["1001"] });
    expect(owning.sources).toEqual({ codehost: ["Acme/Web"], errortracker: [], analytics: ["1001"] });
    const changed = await dataOf<Project>(
      t.app.request(`/api/projects/${owning.id}`, patch({ sources: { errortracker: ["web"] } })),
    );
    expect(changed.sources).toEqual({ codehost: [], errortracker: ["web"], analytics: [] });
    const read = await dataOf<Project>(t.app.request(`/api/projects/${owning.id}`, { headers: AUTH }));
    expect(read.sources).toEqual(changed.sources);
  });

  it("belong to one project: another listing one, in any case, is a 409 naming the owner", async () => {
    const owner = await createProject(t, "Checkout", { codehost: ["acme/checkout"] });
    const other = await createProject(t, "Payments");
    const refused = await errorOf(
      t.app.request(`/api/projects/${other.id}`, patch({ sources: { codehost: ["ACME/Checkout"] } })),
    );
    expect(refused).toEqual({
      status: 409,
      body: { error: `Source codehost "ACME/Checkout" already belongs to project "Checkout" (${owner.id})` },
    });
    const created = await errorOf(
      t.app.request("/api/projects", jsonPost({ name: "Copy", sources: { codehost: ["acme/checkout"] } })),
    );
    expect(created.status).toBe(409);
    // Nothing of the refused change was written: the other project still owns nothing.
    expect((await dataOf<Project>(t.app.request(`/api/projects/${other.id}`, { headers: AUTH }))).sources).toEqual(
      NONE,
    );
    // The same source under another kind is another source.
    const tracker = await createProject(t, "Tracker", { errortracker: ["acme/checkout"] });
    expect(tracker.sources.errortracker).toEqual(["acme/checkout"]);
  });

  it("are free again once their project gives them up or is deleted", async () => {
    const first = await createProject(t, "First", { codehost: ["acme/freed"], errortracker: ["freed"] });
    await dataOf(t.app.request(`/api/projects/${first.id}`, patch({ sources: { errortracker: ["freed"] } })));
    const second = await createProject(t, "Second", { codehost: ["acme/freed"] });
    expect(second.sources.codehost).toEqual(["acme/freed"]);
    const deleted = await t.app.request(`/api/projects/${first.id}`, { method: "DELETE", headers: AUTH });
    expect(deleted.status).toBe(204);
    const third = await createProject(t, "Third", { errortracker: ["FREED"] });
    expect(third.sources.errortracker).toEqual(["FREED"]);
  });

  it("a project may respell its own source, and list it again unchanged", async () => {
    const project = await createProject(t, "Respelled", { codehost: ["acme/respell"] });
    const respelled = await dataOf<Project>(
      t.app.request(`/api/projects/${project.id}`, patch({ sources: { codehost: ["Acme/Respell"] } })),
    );
    expect(respelled.sources.codehost).toEqual(["Acme/Respell"]);
    const again = await t.app.request(
      `/api/projects/${project.id}`,
      patch({ sources: { codehost: ["Acme/Respell"] } }),
    );
    expect(again.status).toBe(200);
  });

  it("are refused with a 400 naming the field when malformed", async () => {
    const cases: [unknown, string][] = [
      [{ codehost: "acme/web" }, "sources.codehost"],
      [{ codehost: ["acme/web", "ACME/web"] }, "sources.codehost"],
      [{ codehost: ["has space"] }, "sources.codehost"],
      [{ codehost: Array.from({ length: 51 }, (_, i) => `acme/r${i}`) }, "sources.codehost"],
      [{ gitlab: ["acme/web"] }, "sources"],
    ];
    for (const [sources, field] of cases) {
      const refused = await errorOf(t.app.request("/api/projects", jsonPost({ name: "Bad", sources })));
      expect(refused.status, JSON.stringify(sources)).toBe(400);
      expect(refused.body.error, JSON.stringify(sources)).toContain(field);
    }
  });

  it("take at most 90 changes in one request, so one transaction holds them", async () => {
    const many = (kind: string) => Array.from({ length: 50 }, (_, i) => `${kind}-${i}`);
    const refused = await errorOf(
      t.app.request(
        "/api/projects",
        jsonPost({ name: "Huge", sources: { codehost: many("c"), errortracker: many("e") } }),
      ),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^sources: must add or remove at most 90 sources in one request/);
    const project = await createProject(t, "Large", { codehost: many("c"), errortracker: many("e").slice(0, 40) });
    expect(project.sources.codehost).toHaveLength(50);
    const full = await dataOf<Project>(
      t.app.request(
        `/api/projects/${project.id}`,
        patch({ sources: { ...project.sources, analytics: many("a").slice(0, 10) } }),
      ),
    );
    expect(full.sources.analytics).toHaveLength(10);
    // Its automation reaches every claim, more than ride in the project's transaction.
    const automated = await dataOf<Project>(
      t.app.request(`/api/projects/${project.id}`, patch({ automation: { acceptAtSignals: 3 } })),
    );
    expect(automated.automation).toEqual({ acceptAtPriority: null, acceptAtSignals: 3 });
  });
});

describe("two projects claiming one source at once", () => {
  describe.each(CONFLICT_MODES)("$mode", ({ emulateConflicts }) => {
    it("give it to exactly one of them; the others get a 409 naming it", async () => {
      const t = await testApp({}, { emulateConflicts });
      const projects = await Promise.all(Array.from({ length: 6 }, (_, i) => createProject(t, `P${i}`)));
      const answers = await Promise.all(
        projects.map((project, i) =>
          errorOf(
            t.app.request(
              `/api/projects/${project.id}`,
              patch({ sources: { codehost: [i % 2 ? "Acme/Race" : "acme/race"] } }),
            ),
          ),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(5);
      const winner = projects[statuses.indexOf(200)] as Project;
      for (const answer of answers.filter((a) => a.status === 409)) {
        expect(answer.body.error).toContain(`"${winner.name}" (${winner.id})`);
      }
      const owners = await Promise.all(
        projects.map((project) => dataOf<Project>(t.app.request(`/api/projects/${project.id}`, { headers: AUTH }))),
      );
      expect(owners.filter((project) => project.sources.codehost.length > 0).map((p) => p.id)).toEqual([winner.id]);
    });
  });
});

describe("signals from a project's sources", () => {
  let t: TestApp;
  let project: Project;
  beforeAll(async () => {
    t = await testApp();
    project = await createProject(t, "Checkout", {
      codehost: ["Octo-Org/Checkout"],
      errortracker: ["checkout-web", "4505891"],
      analytics: ["2071"],
    });
  });

  it("a code-host delivery from the repository opens an issue of the project; the signal records both", async () => {
    const { signal, issue } = await deliver(
      t,
      codehostDelivery("issues", issueEvent("opened", 1, "Cart empties", "octo-org/checkout")),
    );
    expect(signal).toMatchObject({ action: "opened", projectId: project.id, sourceKey: "octo-org/checkout" });
    expect(issue?.projectId).toBe(project.id);
    const listed = await dataOf<{ signal: unknown }[]>(t.app.request(`/api/signals/${signal.id}`, { headers: AUTH }));
    expect(listed).toMatchObject({ projectId: project.id, sourceKey: "octo-org/checkout" });
  });

  it("the error tracker's issue, error, issue-alert and metric-alert payloads route by their project", async () => {
    const cases = [
      { file: "issue.created.json", resource: "issue", key: "checkout-web", routed: true },
      { file: "error.created.json", resource: "error", key: "4505891", routed: true },
      { file: "event_alert.triggered.json", resource: "event_alert", key: "4505872", routed: false },
      { file: "metric_alert.critical.json", resource: "metric_alert", key: "checkout-web", routed: true },
    ];
    for (const { file, resource, key, routed } of cases) {
      const { signal, issue } = await deliver(t, errortrackerDelivery(resource, loadFixture(`errortracker/${file}`)));
      expect(signal.sourceKey, file).toBe(key);
      expect(signal.projectId, file).toBe(routed ? project.id : null);
      expect(issue?.projectId ?? null, file).toBe(routed ? project.id : null);
    }
  });

  it("an analytics delivery routes by its project id", async () => {
    const { signal, issue } = await deliver(
      t,
      analyticsDelivery(loadFixture("analytics/posthog.project_conversion_drop.json")),
    );
    expect(signal).toMatchObject({ projectId: project.id, sourceKey: "2071" });
    expect(issue?.projectId).toBe(project.id);
  });

  it("a delivery from a source no project owns belongs to no project", async () => {
    const { signal, issue } = await deliver(
      t,
      codehostDelivery("issues", issueEvent("opened", 2, "Other", "octo-org/elsewhere")),
    );
    expect(signal).toMatchObject({ projectId: null, sourceKey: "octo-org/elsewhere" });
    expect(issue?.projectId).toBeNull();
  });

  it("a change of sources applies to later signals only", async () => {
    const t2 = await testApp();
    const early = await deliver(t2, codehostDelivery("issues", issueEvent("opened", 3, "Early", "acme/late")));
    const late = await createProject(t2, "Late", { codehost: ["acme/late"] });
    // The issue opened before stays where it was; a later signal of it records the project.
    const grouped = await deliver(t2, codehostDelivery("issues", issueEvent("edited", 3, "Early", "acme/late")));
    expect(grouped.signal).toMatchObject({ action: "grouped", projectId: late.id, issueId: early.issue?.id });
    expect(grouped.issue?.projectId).toBeNull();
    const fresh = await deliver(t2, codehostDelivery("issues", issueEvent("opened", 4, "Fresh", "acme/late")));
    expect(fresh.issue?.projectId).toBe(late.id);
    await dataOf(t2.app.request(`/api/projects/${late.id}`, patch({ sources: {} })));
    const after = await deliver(t2, codehostDelivery("issues", issueEvent("opened", 5, "After", "acme/late")));
    expect(after.signal.projectId).toBeNull();
    expect(after.issue?.projectId).toBeNull();
  });

  it("an issue opened from a source counts in its project's detail", async () => {
    const detail = await dataOf<{ issueCounts: Record<string, number> }>(
      t.app.request(`/api/projects/${project.id}`, { headers: AUTH }),
    );
    expect(detail.issueCounts.triage).toBeGreaterThanOrEqual(4);
  });
});
