/** The ids with the one at `index` moved one place up (-1) or down (+1); unchanged at an end. */
export function moveId(ids: number[], index: number, step: -1 | 1): number[] {
  const to = index + step;
  if (index < 0 || index >= ids.length || to < 0 || to >= ids.length) return ids;
  const next = [...ids];
  [next[index], next[to]] = [next[to] as number, next[index] as number];
  return next;
}
