/** The geometry of the overview's small bar charts (components/bar-chart.tsx), kept apart to be tested. */

export interface ChartScale {
  /** the lowest and highest values the axis shows (0 always included) */
  min: number;
  max: number;
  /** y of a value within a plot `height` high (0 at the top) */
  y: (value: number) => number;
}

export function chartScale(values: number[], height: number): ChartScale {
  const min = Math.min(0, ...values);
  const max = Math.max(0, ...values);
  const span = max - min || 1;
  return { min, max, y: (value) => height - ((value - min) / span) * height };
}

/** The day and value of the highest point of a series (the first one on a tie); null when empty. */
export function peakOf(days: string[], values: number[]): { day: string; value: number } | null {
  let best = -1;
  values.forEach((v, i) => {
    if (best < 0 || v > (values[best] ?? 0)) best = i;
  });
  return best < 0 ? null : { day: days[best] ?? "", value: values[best] ?? 0 };
}

export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
