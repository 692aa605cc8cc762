/**
 * @module console/outcomes — what became of agents' work (docs/api.md#outcomes) as the prompts, template and
 * agents pages show it: the counts after a completion, the verified rate, and the rates and costs beside them.
 */
import type { ComponentChildren } from "preact";

/** A rate (0..1) as whole percents; a dash before there is one. */
export function percent(rate: number | null): string {
  return rate === null ? "—" : `${Math.round(rate * 100)} %`;
}

/** A cost in US dollars as reported by agents; a dash when none was. */
export function dollars(amount: number | null): string {
  return amount === null ? "—" : `$${amount.toFixed(amount < 1 ? 3 : 2)}`;
}

/** What became of completed work after the agent said done, in the API's order, with its column label. */
export const WORK_OUTCOMES = {
  merged: "Merged",
  reworked: "Reworked",
  regressed: "Regressed",
  verified: "Verified",
} as const;

export type WorkOutcome = keyof typeof WORK_OUTCOMES;
export type WorkOutcomes = Record<WorkOutcome, number>;
export const WORK_OUTCOME_KEYS = Object.keys(WORK_OUTCOMES) as WorkOutcome[];

/** The column labels of `WorkOutcomeCells`: one per work outcome, then the verified rate. */
export const WORK_OUTCOME_COLUMNS = [...Object.values(WORK_OUTCOMES), "Verified rate"] as const;

/** A cell per work outcome, then the verified rate with the fixes it is of on hover. */
export function WorkOutcomeCells({ counts, verifiedRate }: { counts: WorkOutcomes; verifiedRate: number | null }) {
  const watched = counts.verified + counts.regressed;
  return (
    <>
      {WORK_OUTCOME_KEYS.map((key) => (
        <td key={key} class="num">
          {counts[key]}
        </td>
      ))}
      <td class="num" title={`${counts.verified} of ${watched} watched fixes held`}>
        {percent(verifiedRate)}
      </td>
    </>
  );
}

/** What the outcome columns count, said once below a table of them; `completed` when it has that column too. */
export function OutcomesLegend({ completed = false, children }: { completed?: boolean; children?: ComponentChildren }) {
  return (
    <p class="muted small">
      {completed ? "Completed: the agent said done. " : ""}Merged: its pull request merged. Reworked: review sent it
      back at least once. Regressed: the problem came back while its merged fix was watched. Verified: the watch ended
      quiet. Verified rate: verified ÷ (verified + regressed).{children ? " " : ""}
      {children}
    </p>
  );
}
