/**
 * @module console/pages/goals — `/app/goals`: every goal with its status and progress, each
 * editable, and a form for a new one. A project's issues score the goal bonus while one of its
 * goals is active (docs/api.md#score).
 */
import { useGoals, useProjects } from "../catalog.js";
import { Goals } from "../goals.js";

export function GoalsPage() {
  const projects = useProjects();
  const goals = useGoals();
  return (
    <section>
      <h1>Goals</h1>
      <p class="muted">
        What a project works towards. While one of a project's goals is active, its issues move up the queue.
      </p>
      <Goals goals={goals} projects={projects.data ?? []} />
    </section>
  );
}
