/**
 * @module bench/issue-domain-costs — what the issue domain costs beyond the plain number-ordered
 * lists: the other orders and filters of `GET /api/issues` (page 1 against page 500, or the last
 * page where fewer exist), then single requests in an order where each finds what it needs:
 * issue detail, PATCH and DELETE under `If-Match`, relations, comments, the catalog, and
 * `POST /api/issues` with an `Idempotency-Key` and its replay.
 *
 * List answers are checked against the seeded issues (total and every number on the page), so a
 * cheap wrong answer shows up as one.
 */
import type { IssueSort } from "../core/src/issues/schemas.js";
import {
  type CostCase,
  type CostRow,
  lastPage,
  PAGE_LIMIT,
  type RatioPair,
  type ResponseBody,
  type ResponseCheck,
  topKey,
  walkedNote,
} from "./costs.js";
import { SEED_PARENTS, type SeededIssue, type SeedSummary, TITLE_WORD } from "./seed.js";

const FAR_PAGE = 500;

/** The conditions of a list the bench asks, as the API takes them. */
interface ListQuery {
  statuses?: string[];
  parentId?: string;
  fingerprint?: string;
  q?: string;
  sort: IssueSort;
}

/** One list costed at page 1 and at its far page. */
interface ListSpec {
  key: string;
  name: string;
  query: ListQuery;
  /** The listing a walked list reads in full, and its size; absent when bucket counts serve it. */
  walks?: { listing: string; entries: number };
}

/** The seeded issues a query matches, in the order the API gives them. */
function expectedOrder(issues: SeededIssue[], query: ListQuery): SeededIssue[] {
  const q = query.q?.toLowerCase();
  const matches = issues.filter(
    (issue) =>
      (query.statuses === undefined || query.statuses.includes(issue.status)) &&
      (query.parentId === undefined || issue.parentId === query.parentId) &&
      (query.fingerprint === undefined || issue.fingerprint === query.fingerprint) &&
      (q === undefined || issue.title.toLowerCase().includes(q)),
  );
  const rank = (issue: SeededIssue) => (issue.priority === 0 ? 5 : issue.priority);
  switch (query.sort) {
    case "priority":
      return matches.sort((a, b) => rank(a) - rank(b) || a.number - b.number);
    case "createdAt":
    case "number":
      return matches.sort((a, b) => a.number - b.number);
    default:
      // -createdAt, and -updatedAt too: a seeded issue was never updated, and createdAt grows with the number.
      return matches.sort((a, b) => b.number - a.number);
  }
}

function numbersOf(body: ResponseBody): (number | undefined)[] {
  return (Array.isArray(body.data) ? body.data : []).map((item) => (item as { number?: number }).number);
}

/** The page must hold exactly the expected issues, in order, and the total must count them all. */
function pageIs(expected: SeededIssue[], page: number): ResponseCheck {
  return (_status, body) => {
    if (body.total !== expected.length) return `total is ${body.total}, expected ${expected.length}`;
    const got = numbersOf(body);
    const want = expected.slice((page - 1) * PAGE_LIMIT, page * PAGE_LIMIT).map((issue) => issue.number);
    if (JSON.stringify(got) === JSON.stringify(want)) return undefined;
    return `page holds #${got.slice(0, 3).join(", #")}…, expected #${want.slice(0, 3).join(", #")}…`;
  };
}

function listPath(query: ListQuery, page: number): string {
  const params: string[] = [];
  if (query.statuses) params.push(`status=${query.statuses.join(",")}`);
  if (query.parentId) params.push(`parentId=${query.parentId}`);
  if (query.fingerprint) params.push(`fingerprint=${encodeURIComponent(query.fingerprint)}`);
  if (query.q) params.push(`q=${encodeURIComponent(query.q)}`);
  if (query.sort !== "-createdAt") params.push(`sort=${query.sort}`);
  params.push(`page=${page}`, `limit=${PAGE_LIMIT}`);
  return `/api/issues?${params.join("&")}`;
}

/** The lists to cost, chosen from what was seeded. */
function listSpecs(seed: SeedSummary): ListSpec[] {
  const n = seed.count;
  const todo = seed.byStatus.todo ?? 0;
  const specs: ListSpec[] = [
    { key: "priority", name: "sort=priority", query: { sort: "priority" } },
    { key: "updated", name: "sort=-updatedAt", query: { sort: "-updatedAt" } },
    { key: "number", name: "sort=number", query: { sort: "number" } },
    {
      key: "statuses",
      name: "status=todo,backlog",
      query: { statuses: ["todo", "backlog"], sort: "-createdAt" },
      walks: { listing: "all", entries: n },
    },
  ];
  const [parentId] = topKey(seed.byParent);
  const parent = seed.issues.find((issue) => issue.id === parentId);
  if (parent) {
    specs.push({
      key: "parent",
      name: `parentId=<id of KZN-${parent.number}>`,
      query: { parentId, sort: "-createdAt" },
    });
  }
  const [fingerprint] = topKey(seed.byFingerprint);
  if (fingerprint)
    specs.push({ key: "fingerprint", name: "fingerprint=<one>", query: { fingerprint, sort: "-createdAt" } });
  specs.push(
    {
      key: "q",
      name: `q=${TITLE_WORD}`,
      query: { q: TITLE_WORD, sort: "-createdAt" },
      walks: { listing: "all", entries: n },
    },
    {
      key: "todo.priority",
      name: "status=todo&sort=priority",
      query: { statuses: ["todo"], sort: "priority" },
      walks: { listing: "status=todo", entries: todo },
    },
    {
      key: "todo.updated",
      name: "status=todo&sort=-updatedAt",
      query: { statuses: ["todo"], sort: "-updatedAt" },
      walks: { listing: "-updatedAt", entries: n },
    },
  );
  return specs;
}

function farPage(seed: SeedSummary, spec: ListSpec): number {
  return Math.min(FAR_PAGE, lastPage(expectedOrder(seed.issues, spec.query).length));
}

function farLabel(page: number): string {
  return page < FAR_PAGE ? `last page ${page}` : `page ${page}`;
}

/** Page 1 and the far page of each list; run them before anything writes an issue. */
export function issueListCases(seed: SeedSummary): CostCase[] {
  return listSpecs(seed).flatMap((spec) => {
    const expected = expectedOrder(seed.issues, spec.query);
    const far = farPage(seed, spec);
    const exempt = spec.walks ? walkedNote(spec.walks.listing, spec.walks.entries) : undefined;
    const rows: CostCase[] = [
      {
        key: `${spec.key}.p1`,
        label: `${spec.name} (${expected.length}), page 1`,
        kind: "list",
        path: listPath(spec.query, 1),
        check: pageIs(expected, 1),
        ...(exempt ? { exempt } : {}),
      },
      {
        key: `${spec.key}.far`,
        label: `${spec.name}, ${farLabel(far)}`,
        kind: "list",
        path: listPath(spec.query, far),
        check: pageIs(expected, far),
        ...(exempt ? { exempt } : {}),
      },
    ];
    return rows;
  });
}

/** The capacity ratios of the lists above: held to ≤ 5 when bucket counts serve them. */
export function issueListRatios(seed: SeedSummary): RatioPair[] {
  return listSpecs(seed).map((spec) => ({
    what: `${spec.name} ${farLabel(farPage(seed, spec))} / page 1`,
    farKey: `${spec.key}.far`,
    firstKey: `${spec.key}.p1`,
    indexed: spec.walks === undefined,
  }));
}

/** The `data` of an item response. */
function dataOf(body: ResponseBody): Record<string, unknown> {
  return (body.data ?? {}) as Record<string, unknown>;
}

function answers(status: number, test: (data: Record<string, unknown>) => string | undefined): ResponseCheck {
  return (actual, body) => (actual === status ? test(dataOf(body)) : `answered ${actual}, expected ${status}`);
}

function issueDetail(id: string, children: number, parentId: string | null): ResponseCheck {
  return answers(200, (data) => {
    if (data.id !== id) return `answered issue ${String(data.id)}, expected ${id}`;
    const got = Array.isArray(data.children) ? data.children.length : -1;
    if (got !== children) return `${got} children, expected ${children}`;
    const parent = (data.parent as { id?: string } | null) ?? null;
    return (parent?.id ?? null) === parentId ? undefined : `parent ${parent?.id ?? null}, expected ${parentId}`;
  });
}

/** A live seeded issue that is neither a parent nor a child, from the middle of the numbers on. */
function plainIssue(seed: SeedSummary, status: string | undefined, skip: Set<string>): SeededIssue {
  const parents = new Set(seed.issues.slice(0, SEED_PARENTS).map((issue) => issue.id));
  const middle = Math.ceil(seed.count / 2);
  const found = [...seed.issues.slice(middle - 1), ...seed.issues].find(
    (issue) =>
      !parents.has(issue.id) &&
      issue.parentId === null &&
      !skip.has(issue.id) &&
      (status === undefined || issue.status === status),
  );
  if (!found) throw new Error(`no seeded issue without parent or children${status ? ` in ${status}` : ""}`);
  return found;
}

function ifMatch(row: CostRow): Record<string, string> {
  return row.etag ? { "If-Match": row.etag } : {};
}

/**
 * Costs single requests one after another, each built from what the ones before answered (the
 * `ETag` an `If-Match` repeats, the issue a `DELETE` removes). `measure` serves and costs one case.
 */
export async function measureIssueItemCosts(
  measure: (item: CostCase) => Promise<CostRow>,
  seed: SeedSummary,
): Promise<CostRow[]> {
  const rows: CostRow[] = [];
  const run = async (item: CostCase) => {
    const row = await measure(item);
    rows.push(row);
    return row;
  };
  const root = plainIssue(seed, "triage", new Set());
  const other = plainIssue(seed, undefined, new Set([root.id]));
  const [parentId, childCount] = topKey(seed.byParent);
  const child = seed.issues.find((issue) => issue.parentId !== null && issue.number > seed.count / 2);
  const [projectId, projectIssues] = topKey(seed.byProject);
  const [label] = topKey(seed.byLabel);

  // Issue detail: one query of the issue's partition; a parent and a number cost one read each.
  const got = await run({
    key: "get.root",
    label: "get by id, root issue (no children)",
    kind: "get",
    path: `/api/issues/${root.id}`,
    check: issueDetail(root.id, 0, null),
  });
  if (parentId) {
    await run({
      key: "get.parent",
      label: `get by id, root issue with ${childCount} children`,
      kind: "get",
      path: `/api/issues/${parentId}`,
      check: issueDetail(parentId, childCount, null),
    });
  }
  if (child) {
    await run({
      key: "get.child",
      label: "get by id, child issue",
      kind: "get",
      path: `/api/issues/${child.id}`,
      check: issueDetail(child.id, 0, child.parentId),
      exempt: "a child's detail also reads its parent's summary: one more call by design",
    });
  }
  await run({
    key: "get.ref",
    label: `get by KZN-${root.number}`,
    kind: "get",
    path: `/api/issues/KZN-${root.number}`,
    check: issueDetail(root.id, 0, null),
    exempt: "KZN-<n> is resolved by number first: one more call by design",
  });

  // PATCH under If-Match, each with the ETag the previous answer carried.
  const title = `${root.title} (retitled by the bench)`;
  const retitled = await run({
    key: "patch.title",
    label: "PATCH title, If-Match",
    kind: "write",
    method: "PATCH",
    path: `/api/issues/${root.id}`,
    headers: ifMatch(got),
    body: { title },
    check: answers(200, (data) => (data.title === title ? undefined : "title unchanged")),
  });
  await run({
    key: "patch.status",
    label: "PATCH status triage → todo, If-Match",
    kind: "write",
    method: "PATCH",
    path: `/api/issues/${root.id}`,
    headers: ifMatch(retitled),
    body: { status: "todo" },
    check: answers(200, (data) => (data.status === "todo" ? undefined : `status is ${String(data.status)}`)),
  });
  await run({
    key: "relation",
    label: "POST relation (blocks)",
    kind: "write",
    method: "POST",
    path: `/api/issues/${root.id}/relations`,
    body: { type: "blocks", relatedIssueId: other.id },
    check: answers(201, (data) => (data.type === "blocks" ? undefined : `relation is ${String(data.type)}`)),
  });
  await run({
    key: "comment.post",
    label: "POST comment",
    kind: "write",
    method: "POST",
    path: `/api/issues/${root.id}/comments`,
    body: { body: "Reproduced on staging; the pricing service times out.", authorName: "bench", authorType: "agent" },
    check: answers(201, (data) => (data.issueId === root.id ? undefined : `comment on ${String(data.issueId)}`)),
  });
  await run({
    key: "comment.list",
    label: "GET comments, page 1",
    kind: "list",
    path: `/api/issues/${root.id}/comments?page=1&limit=${PAGE_LIMIT}`,
    check: (_status, body) => (body.total === 1 ? undefined : `total is ${body.total}, expected 1`),
    exempt: "the issue is looked up before the comments page is read",
  });

  // The catalog.
  await run({
    key: "projects.list",
    label: "GET projects, page 1",
    kind: "list",
    path: `/api/projects?page=1&limit=${PAGE_LIMIT}`,
    exempt: "catalog list page: reported",
  });
  await run({
    key: "projects.create",
    label: "POST project",
    kind: "write",
    method: "POST",
    path: "/api/projects",
    body: { name: "Bench-created project", status: "planned" },
    check: answers(201, () => undefined),
  });
  if (projectId) {
    await run({
      key: "projects.get",
      label: `GET project (${projectIssues} issues)`,
      kind: "get",
      path: `/api/projects/${projectId}`,
      check: answers(200, (data) => {
        const counts = Object.values((data.issueCounts ?? {}) as Record<string, number>);
        const sum = counts.reduce((a, b) => a + b, 0);
        return sum === projectIssues ? undefined : `issueCounts sum to ${sum}, expected ${projectIssues}`;
      }),
      exempt: "the project and its issue counts per status, read side by side from the project listing's entries",
    });
  }
  await run({
    key: "labels.list",
    label: "GET labels, page 1",
    kind: "list",
    path: `/api/labels?page=1&limit=${PAGE_LIMIT}`,
    exempt: "catalog list page: reported",
  });

  // Creates: plain, with every reference checked, and with an Idempotency-Key then its replay.
  const plainBody = {
    title: "Benchmark-created issue",
    type: "task",
    status: "todo",
    priority: 2,
    description: "Created by the bench to cost one POST /api/issues.",
  };
  const created = await run({
    key: "create",
    label: "POST issue",
    kind: "write",
    method: "POST",
    path: "/api/issues",
    body: plainBody,
    check: answers(201, () => undefined),
  });
  if (parentId && projectId && label) {
    await run({
      key: "create.refs",
      label: "POST issue with parentId, projectId and a label",
      kind: "write",
      method: "POST",
      path: "/api/issues",
      body: { ...plainBody, parentId, projectId, labels: [label] },
      check: answers(201, (data) => (data.parentId === parentId ? undefined : "parent not set")),
    });
  }
  const keyed = { ...plainBody, title: "Benchmark-created issue, with an Idempotency-Key" };
  const first = await run({
    key: "create.idempotent",
    label: "POST issue, Idempotency-Key",
    kind: "write",
    method: "POST",
    path: "/api/issues",
    headers: { "Idempotency-Key": "bench-create-1" },
    body: keyed,
    check: answers(201, () => undefined),
  });
  await run({
    key: "create.replay",
    label: "same POST again (replay)",
    kind: "write",
    method: "POST",
    path: "/api/issues",
    headers: { "Idempotency-Key": "bench-create-1" },
    body: keyed,
    check: (status, body, headers) => {
      if (status !== 201) return `answered ${status}, expected the first answer's 201`;
      if (headers.get("Idempotent-Replayed") !== "true") return "not marked Idempotent-Replayed";
      return dataOf(body).id === dataOf(first.body).id ? undefined : "a different issue than the first answer";
    },
  });

  const createdId = String(dataOf(created.body).id ?? "");
  await run({
    key: "delete",
    label: "DELETE issue, If-Match",
    kind: "write",
    method: "DELETE",
    path: `/api/issues/${createdId}`,
    headers: ifMatch(created),
    check: (status) => (status === 204 ? undefined : `answered ${status}, expected 204`),
  });
  return rows;
}
