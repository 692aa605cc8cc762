/** @module bench/format — number formatters, quantiles and a plain-text table printer. */

/** The `q` quantile (0..1) by linear interpolation; the median is `quantile(values, 0.5)`. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = sorted[Math.floor(position)] ?? 0;
  const high = sorted[Math.ceil(position)] ?? 0;
  return low + (high - low) * (position - Math.floor(position));
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export function ms(value: number, digits = 1): string {
  return Number.isFinite(value) ? `${value.toFixed(digits)} ms` : "—";
}

export function times(ratio: number): string {
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : "—";
}

export function percent(fraction: number): string {
  return Number.isFinite(fraction) ? `${(fraction * 100).toFixed(0)}%` : "—";
}

export function num(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return "—";
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

/** A section heading. */
export function heading(title: string): string {
  return `\n== ${title} ${"=".repeat(Math.max(0, 96 - title.length))}`;
}

/**
 * Columns padded to their widest cell; numeric-looking cells align right.
 * @example console.log(table(["what", "value"], [["bundle", "512 KB"]]));
 */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? "").length)));
  const numeric = headers.map(
    (_, i) => rows.length > 0 && rows.every((row) => /^[-+]?[\d.,]*\d(×|%| ms| KB)?$/.test(row[i] ?? "")),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

/** `201×1234 200×5`, most frequent first. */
export function statusCounts(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .sort((a, b) => b[1] - a[1])
    .map(([status, count]) => `${status}×${count}`)
    .join(" ");
}
