/**
 * @module bench/seed — fills a table with a reproducible spread of issues through the store's own
 * create path (one at a time, so numbers follow the seed's order and parents exist before their
 * children). The projects and
 * labels the issues name are created first through the catalog, so they exist as they would in use.
 *
 * Parents, fingerprints and title words come from a generator of their own, so the other fields'
 * draws do not depend on them.
 */
import type { CatalogService } from "../core/src/catalog/service.js";
import { ISSUE_STATUSES, ISSUE_TYPES, type IssueStatus, type IssueType } from "../core/src/issues/schemas.js";
import { newIssue } from "../core/src/issues/service.js";
import type { IssueStore, NewIssue } from "../core/src/issues/store.js";

export const SEED_LABELS = ["bug", "performance", "ux", "infra", "security"] as const;
const SEED_PROJECTS = 5;
/** The first issues created; later ones become their children (one level deep, so these have no parent). */
export const SEED_PARENTS = 5;
/** Share of the later issues that are children of one of the parents. */
const CHILD_SHARE = 0.05;
/** Share of issues that carry a fingerprint, drawn from this many distinct ones. */
const FINGERPRINT_SHARE = 0.08;
const FINGERPRINTS = 25;
/** A word some titles carry instead of "checkout" (capitalised: `q` matches case-insensitively). */
export const TITLE_WORD = "webhook";
const TITLE_WORD_SHARE = 0.04;

/** What the bench needs to know of each seeded issue to predict list answers. */
export interface SeededIssue {
  id: string;
  number: number;
  title: string;
  status: IssueStatus;
  type: IssueType;
  priority: number;
  projectId: string | null;
  labels: string[];
  parentId: string | null;
  fingerprint: string | null;
}

export interface SeedSummary {
  count: number;
  durationMs: number;
  lastNumber: number;
  byStatus: Record<string, number>;
  byStatusType: Record<string, number>;
  byLabel: Record<string, number>;
  byProject: Record<string, number>;
  /** Children per parent id. */
  byParent: Record<string, number>;
  byFingerprint: Record<string, number>;
  /** Issues whose title holds {@link TITLE_WORD}. */
  withTitleWord: number;
  /** Every seeded issue, in number order. */
  issues: SeededIssue[];
}

/** Mulberry32: a tiny seeded generator, so every run seeds the same issues. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(items: readonly T[], next: () => number): T {
  const item = items[Math.floor(next() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

/** Where the `i`-th issue sits beyond its fields: parent, fingerprint, title word. */
interface Placement {
  parentId: string | null;
  fingerprint: string | null;
  titleWord: boolean;
}

function placement(i: number, extra: () => number, parents: string[]): Placement {
  const childRoll = extra();
  const fingerprintRoll = extra();
  const fingerprint = Math.floor(extra() * FINGERPRINTS);
  const wordRoll = extra();
  const parentIndex = Math.floor(extra() * SEED_PARENTS);
  return {
    parentId: i > SEED_PARENTS && childRoll < CHILD_SHARE ? (parents[parentIndex] ?? null) : null,
    fingerprint: fingerprintRoll < FINGERPRINT_SHARE ? `errortracker:issue:bench-${100 + fingerprint}` : null,
    titleWord: wordRoll < TITLE_WORD_SHARE,
  };
}

/** The fields of the `i`-th seeded issue. */
function seededIssue(i: number, next: () => number, projects: string[], place: Placement): NewIssue {
  const type: IssueType = pick(ISSUE_TYPES, next);
  const status: IssueStatus = pick(ISSUE_STATUSES, next);
  const labels: string[] = [];
  const labelRoll = next();
  if (labelRoll < 0.2) labels.push(pick(SEED_LABELS, next));
  if (labelRoll < 0.05) {
    const second = pick(SEED_LABELS, next);
    if (!labels.includes(second)) labels.push(second);
  }
  const area = place.titleWord ? "Webhook delivery" : "checkout";
  return newIssue({
    title: `Seeded ${type} ${i}: p95 latency regression on ${area} step ${i % 17}`,
    description:
      "Synthetic issue for the benchmark. Users report the checkout page stalls after the payment step; " +
      "error tracker shows a burst of timeouts from the pricing service between 09:00 and 09:20 UTC. " +
      `Sequence ${i}.`,
    type,
    status,
    priority: Math.floor(next() * 5),
    projectId: next() < 0.1 ? pick(projects, next) : null,
    labels,
    parentId: place.parentId,
    fingerprint: place.fingerprint,
  });
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** The catalog records the issues name: five projects and the seed labels. */
async function seedCatalog(catalog: CatalogService): Promise<string[]> {
  const projects: string[] = [];
  for (let p = 1; p <= SEED_PROJECTS; p++) {
    const { record } = await catalog.createProject({ name: `Bench project ${p}`, status: "active" });
    projects.push(record.id);
  }
  for (const [index, name] of SEED_LABELS.entries()) {
    await catalog.createLabel({ name, color: `#${(0x336699 + index * 0x202020).toString(16).padStart(6, "0")}` });
  }
  return projects;
}

/** Creates the catalog records, then `count` issues one after another, calling `progress` every `every` issues. */
export async function seedIssues(
  store: IssueStore,
  catalog: CatalogService,
  count: number,
  progress: (done: number, elapsedMs: number) => void,
  every = 1_000,
): Promise<SeedSummary> {
  const next = random(0x6b61697a);
  const extra = random(0x70617265);
  const projects = await seedCatalog(catalog);
  const parents: string[] = [];
  const summary: SeedSummary = {
    count,
    durationMs: 0,
    lastNumber: 0,
    byStatus: {},
    byStatusType: {},
    byLabel: {},
    byProject: {},
    byParent: {},
    byFingerprint: {},
    withTitleWord: 0,
    issues: [],
  };
  const started = performance.now();
  for (let i = 1; i <= count; i++) {
    const place = placement(i, extra, parents);
    const { issue } = await store.create(seededIssue(i, next, projects, place));
    if (i <= SEED_PARENTS) parents.push(issue.id);
    summary.lastNumber = issue.number;
    bump(summary.byStatus, issue.status);
    bump(summary.byStatusType, `${issue.status}+${issue.type}`);
    for (const label of issue.labels) bump(summary.byLabel, label);
    if (issue.projectId) bump(summary.byProject, issue.projectId);
    if (issue.parentId) bump(summary.byParent, issue.parentId);
    if (issue.fingerprint) bump(summary.byFingerprint, issue.fingerprint);
    if (place.titleWord) summary.withTitleWord += 1;
    const { id, number, title, status, type, priority, projectId, labels, parentId, fingerprint } = issue;
    summary.issues.push({ id, number, title, status, type, priority, projectId, labels, parentId, fingerprint });
    if (i % every === 0 || i === count) progress(i, performance.now() - started);
  }
  summary.durationMs = performance.now() - started;
  return summary;
}
