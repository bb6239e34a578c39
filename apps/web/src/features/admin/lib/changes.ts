/** The fields of `next` whose value differs from `current`'s: what a PATCH sends. */
export function changedOnly<T extends object, N extends object>(current: T, next: N): Partial<N> {
  const out: Partial<N> = {};
  for (const key of Object.keys(next) as (keyof N)[]) {
    if ((current as Record<PropertyKey, unknown>)[key as PropertyKey] !== next[key]) out[key] = next[key];
  }
  return out;
}
