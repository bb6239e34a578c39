import { StatusCode } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { transact } from "../transaction.ts";
import { type AdminActor, audit } from "./audit.ts";

export type Role = "user" | "admin";

type Ctx = Pick<DomainContext, "db" | "events">;

/**
 * Grants or revokes the admin role of the account with this phone. The session cache of every
 * replica drops the user's sessions (user.changed), so a revoked admin is refused on the next call.
 * Unknown phone → 30001 (no such user). Answers whether anything changed.
 */
export async function setRole(
  ctx: Ctx,
  actor: AdminActor,
  phone: string,
  role: Role,
): Promise<{ userId: number; changed: boolean }> {
  return transact(ctx, async (tx, after) => {
    const user = await tx.user.findFirst({ where: { phone, deletedAt: null } });
    if (!user) throw new AppError(StatusCode.RecordNotFound);
    if (user.role === role) return { userId: user.id, changed: false };
    await tx.user.update({ where: { id: user.id }, data: { role } });
    await audit(tx, actor, {
      action: role === "admin" ? "admin.grant" : "admin.revoke",
      target: `user:${user.id}`,
      before: { role: user.role },
      after: { role },
    });
    after.publish({ type: "user.changed", userId: user.id });
    return { userId: user.id, changed: true };
  });
}
