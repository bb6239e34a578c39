/**
 * The idempotency key of an action that gives something (a grant, a message): made once when its
 * dialog or form opens, so a double click or a retried request does it once (contracts: 8–64 of
 * [A-Za-z0-9_-]). A new key only for a new action.
 */
export function newRequestId(): string {
  return `a${crypto.randomUUID().replaceAll("-", "")}`;
}
