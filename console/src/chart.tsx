/**
 * @module console/chart — line charts drawn by uPlot (a few tens of KB, canvas, no dependencies).
 * A chart is an image to assistive technology, so each one carries a text summary of what it shows.
 */
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** Colours with enough contrast on white, one per series in order. */
const COLOURS = ["#1f5fbf", "#b3261e", "#1b7a3d", "#7a4fb0", "#8a5a00"];

export interface Series {
  label: string;
  values: (number | null)[];
}

/**
 * @param x the x values: epoch seconds when `time`, else plain numbers (a version number, say)
 * @param summary what the chart shows, in words (its accessible name)
 */
export function LineChart({
  x,
  series,
  summary,
  time = true,
  height = 220,
}: {
  x: number[];
  series: Series[];
  summary: string;
  time?: boolean;
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const plot = new uPlot(
      {
        width: Math.max(320, element.clientWidth),
        height,
        scales: { x: { time } },
        series: [
          {},
          ...series.map((one, index) => ({
            label: one.label,
            stroke: COLOURS[index % COLOURS.length],
            width: 2,
            points: { show: x.length < 40 },
          })),
        ],
        axes: [{}, { size: 50 }],
      },
      [x, ...series.map((one) => one.values)],
      element,
    );
    const resize = () => plot.setSize({ width: Math.max(320, element.clientWidth), height });
    window.addEventListener("resize", resize);
    return () => {
      window.removeEventListener("resize", resize);
      plot.destroy();
    };
  }, [x, series, time, height]);
  return <div class="chart" role="img" aria-label={summary} ref={box} />;
}
