import { Prisma } from "@yuelu/db";
import { describe, expect, it } from "vitest";
import { backendUnavailable } from "../../apps/api/src/lib/unavailable.ts";

describe("backendUnavailable: a database or Redis that cannot be reached right now", () => {
  it("recognises Prisma's, pg's, ioredis' and the socket's ways of saying so, also as a cause", () => {
    expect(
      backendUnavailable(
        new Prisma.PrismaClientKnownRequestError("Can't reach", { code: "P1001", clientVersion: "x" }),
      ),
    ).toBe(true);
    expect(
      backendUnavailable(
        Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
      ),
    ).toBe(true);
    expect(
      backendUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
    ).toBe(true);
    expect(backendUnavailable(new Error("Connection is closed."))).toBe(true);
    expect(
      backendUnavailable(new Error("query failed", { cause: new Error("Connection terminated unexpectedly") })),
    ).toBe(true);
  });

  it("leaves real bugs and bad requests alone (they stay 500 / catalogue errors)", () => {
    expect(backendUnavailable(new TypeError("cannot read properties of undefined"))).toBe(false);
    expect(
      backendUnavailable(new Prisma.PrismaClientKnownRequestError("unique", { code: "P2002", clientVersion: "x" })),
    ).toBe(false);
    expect(backendUnavailable(undefined)).toBe(false);
  });
});
