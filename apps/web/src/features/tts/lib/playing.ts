/**
 * Spec §4: setting the current audio of the voice library clears the playing flag on all items;
 * then only the current one (if any) plays.
 */
export function setCurrentAudio<T extends { promptId: number; playing: boolean }>(
  items: readonly T[],
  promptId: number | null,
): T[] {
  return items
    .map((item) => ({ ...item, playing: false }))
    .map((item) => (item.promptId === promptId ? { ...item, playing: true } : item));
}
