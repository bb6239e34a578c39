/**
 * A create call's requestId (contracts' zRequestId: 8–64 of [A-Za-z0-9_-]): a fresh one per user
 * action, so the same action sent twice (a double click, a retry of a lost answer) makes one thing.
 */
export function newRequestId(): string {
  return `r${crypto.randomUUID().replaceAll("-", "")}`;
}
