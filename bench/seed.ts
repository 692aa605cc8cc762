/**
 * @module bench/seed — fills a table with a reproducible spread of issues through the store's own
 * gap-free create transaction (one at a time, as numbering is serial by design).
 */
import { ISSUE_STATUSES, ISSUE_TYPES, type IssueStatus, type IssueType } from "../core/src/issues/schemas.js";
import { newIssue } from "../core/src/issues/service.js";
import type { IssueStore, NewIssue } from "../core/src/issues/store.js";

export const SEED_LABELS = ["bug", "performance", "ux", "infra", "security"] as const;
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export interface SeedSummary {
  count: number;
  durationMs: number;
  firstId: string;
  lastNumber: number;
  byStatus: Record<string, number>;
  byStatusType: Record<string, number>;
  byLabel: Record<string, number>;
  byProject: Record<string, number>;
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

function projectId(next: () => number): string {
  let body = "";
  for (let i = 0; i < 26; i++) body += CROCKFORD[Math.floor(next() * 32)];
  return `prj_${body}`;
}

function pick<T>(items: readonly T[], next: () => number): T {
  const item = items[Math.floor(next() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

/** The fields of the `i`-th seeded issue. */
function seededIssue(i: number, next: () => number, projects: string[]): NewIssue {
  const type: IssueType = pick(ISSUE_TYPES, next);
  const status: IssueStatus = pick(ISSUE_STATUSES, next);
  const labels: string[] = [];
  const labelRoll = next();
  if (labelRoll < 0.2) labels.push(pick(SEED_LABELS, next));
  if (labelRoll < 0.05) {
    const second = pick(SEED_LABELS, next);
    if (!labels.includes(second)) labels.push(second);
  }
  return newIssue({
    title: `Seeded ${type} ${i}: p95 latency regression on checkout step ${i % 17}`,
    description:
      "Synthetic issue for the benchmark. Users report the checkout page stalls after the payment step; " +
      "error tracker shows a burst of timeouts from the pricing service between 09:00 and 09:20 UTC. " +
      `Sequence ${i}.`,
    type,
    status,
    priority: Math.floor(next() * 5),
    projectId: next() < 0.1 ? pick(projects, next) : null,
    labels,
  });
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** Creates `count` issues one after another, calling `progress` every `every` issues. */
export async function seedIssues(
  store: IssueStore,
  count: number,
  progress: (done: number, elapsedMs: number) => void,
  every = 1_000,
): Promise<SeedSummary> {
  const next = random(0x6b61697a);
  const projects = Array.from({ length: 5 }, () => projectId(next));
  const summary: SeedSummary = {
    count,
    durationMs: 0,
    firstId: "",
    lastNumber: 0,
    byStatus: {},
    byStatusType: {},
    byLabel: {},
    byProject: {},
  };
  const started = performance.now();
  for (let i = 1; i <= count; i++) {
    const fields = seededIssue(i, next, projects);
    const { issue } = await store.create(fields);
    if (i === 1) summary.firstId = issue.id;
    summary.lastNumber = issue.number;
    bump(summary.byStatus, issue.status);
    bump(summary.byStatusType, `${issue.status}+${issue.type}`);
    for (const label of issue.labels) bump(summary.byLabel, label);
    if (issue.projectId) bump(summary.byProject, issue.projectId);
    if (i % every === 0 || i === count) progress(i, performance.now() - started);
  }
  summary.durationMs = performance.now() - started;
  return summary;
}
