/** @module templates/selection — which template an issue's prompt is rendered from (docs/api.md#templates-and-versions), as pure functions. */
import type { IssueType } from "../issues/schemas.js";
import type { TemplateConditions } from "./schemas.js";

// One definition of a template's conditions: the request schema's output, re-exported here so the
// selection rules and the API cannot drift apart.
export type { TemplateConditions };

/** What selection needs of a template: its conditions, its rank and whether it has an active version. */
export interface TemplateCandidate {
  id: string;
  slug: string;
  conditions: TemplateConditions;
  specificity: number;
  projectId: string | null;
  activeVersionId: string | null;
  createdAt: string;
}

/** What selection checks of an issue. */
export interface SelectionFacts {
  type: IssueType;
  signalSource: string | null;
  labels: string[];
  projectId: string | null;
  /** Dispatches of this issue that ended `failed`. */
  failedDispatches: number;
  /** The hypothesis's confidence, or null when the issue has no hypothesis. */
  hypothesisConfidence: number | null;
}

/** Label names compare as people read them: the same letters in any case or Unicode composition. */
function labelKey(name: string): string {
  return name.normalize("NFC").toLowerCase();
}

/**
 * Whether every condition given holds for the issue; an empty conditions object matches every issue.
 * @example conditionsMatch({ type: "signal", labels: ["Bug"] }, { ...facts, type: "signal", labels: ["bug", "ui"] }) // true
 */
export function conditionsMatch(conditions: TemplateConditions, facts: SelectionFacts): boolean {
  const { type, signalSource, labels, projectId, hasFailedDispatches, minHypothesisConfidence } = conditions;
  if (type !== undefined && type !== facts.type) return false;
  if (signalSource !== undefined && signalSource !== facts.signalSource) return false;
  if (projectId !== undefined && projectId !== facts.projectId) return false;
  if (hasFailedDispatches !== undefined && hasFailedDispatches !== facts.failedDispatches > 0) return false;
  if (minHypothesisConfidence !== undefined) {
    if (facts.hypothesisConfidence === null || facts.hypothesisConfidence < minHypothesisConfidence) return false;
  }
  if (labels !== undefined && labels.length > 0) {
    const present = new Set(facts.labels.map(labelKey));
    if (!labels.every((label) => present.has(labelKey(label)))) return false;
  }
  return true;
}

/**
 * Negative when `a` wins: a template scoped to the issue's project first, then higher
 * specificity, then the older template; the id settles the rest so the choice never depends on
 * the order templates were read in. Timestamps are the service's own `toISOString()` values, so
 * string order is time order.
 */
function rank(a: TemplateCandidate, b: TemplateCandidate): number {
  const scoped = Number(b.projectId !== null) - Number(a.projectId !== null);
  if (scoped !== 0) return scoped;
  if (a.specificity !== b.specificity) return b.specificity - a.specificity;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/**
 * The template an issue's prompt uses: among templates with an active version whose conditions all
 * match (and, when scoped to a project, only for that project's issues), the best by project scope,
 * specificity, age and id. Null when none applies.
 * @example selectTemplate(templates, { type: "task", signalSource: null, labels: [], projectId: null, failedDispatches: 0, hypothesisConfidence: null })?.slug // "task-execution"
 */
export function selectTemplate<T extends TemplateCandidate>(candidates: readonly T[], facts: SelectionFacts): T | null {
  let best: T | null = null;
  for (const candidate of candidates) {
    if (candidate.activeVersionId === null) continue;
    if (candidate.projectId !== null && candidate.projectId !== facts.projectId) continue;
    if (!conditionsMatch(candidate.conditions, facts)) continue;
    if (best === null || rank(candidate, best) < 0) best = candidate;
  }
  return best;
}
