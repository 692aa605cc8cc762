/**
 * @module console/catalog — the projects, goals and labels several pages choose from (a project in
 * a form, a goal for a project, labels for an issue): the first 100 of each, which is as many as
 * the API answers in one page (docs/api.md#pagination).
 */
import type { Schema } from "../../client/client.js";
import { type Resource, useResource } from "./resource.js";

export type Project = Schema<"Project">;
export type Goal = Schema<"Goal">;
export type Label = Schema<"Label">;

export const PROJECT_STATUSES = ["backlog", "planned", "active", "paused", "completed", "canceled"] as const;
export const PROJECT_HEALTHS = ["on_track", "at_risk", "off_track"] as const;
export const GOAL_STATUSES = ["active", "achieved", "abandoned"] as const;
export const ISSUE_TYPES = ["signal", "hypothesis", "plan", "task", "monitor"] as const;
export const PRIORITIES = ["none", "urgent", "high", "medium", "low"] as const;

/** An enum value as words: `on_track` → "on track". */
export function words(value: string): string {
  return value.replaceAll("_", " ");
}

export function useProjects(key = "projects"): Resource<Project[]> {
  return useResource(
    async (kaizen) => (await kaizen.GET("/api/projects", { params: { query: { limit: 100 } } })).data?.data ?? [],
    key,
  );
}

export function useLabels(key = "labels"): Resource<Label[]> {
  return useResource(
    async (kaizen) => (await kaizen.GET("/api/labels", { params: { query: { limit: 100 } } })).data?.data ?? [],
    key,
  );
}

/** The goals, of one project when `projectId` is given. */
export function useGoals(projectId?: string): Resource<Goal[]> {
  return useResource(
    async (kaizen) =>
      (await kaizen.GET("/api/goals", { params: { query: { limit: 100, ...(projectId ? { projectId } : {}) } } })).data
        ?.data ?? [],
    `goals ${projectId ?? "all"}`,
  );
}
