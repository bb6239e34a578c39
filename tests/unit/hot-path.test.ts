import { envelopeOf, ok } from "@yuelu/contracts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { serializerCompiler } from "../../apps/api/src/lib/hot-path.ts";

/**
 * The response serializer reuses the JSON of a frozen envelope `data` (what the read caches hand out)
 * — and writes exactly what the schema's own serializer writes, refusing what it refuses.
 */
const Info = z.object({ userId: z.number().int(), nickName: z.string(), vip: z.boolean().optional() });
const serialize = (serializerCompiler as unknown as (route: object) => (data: unknown) => string)({
  schema: envelopeOf(Info),
  method: "GET",
  url: "/test",
});

describe("the response serializer", () => {
  it("writes a frozen data object as the schema does, unknown fields dropped, and again from memory", () => {
    const data = Object.freeze({ userId: 7, nickName: '用户"7"', secret: "never sent" });
    const first = serialize(ok(data));
    expect(JSON.parse(first)).toEqual({
      status_code: 1,
      status_msg: "success",
      data: { userId: 7, nickName: '用户"7"' },
    });
    expect(serialize(ok(data))).toBe(first);
    expect(serialize({ status_code: 1, status_msg: "success", data: { ...data } })).toBe(first);
  });

  it("refuses a frozen object the schema refuses", () => {
    expect(() => serialize(ok(Object.freeze({ userId: 1.5, nickName: "x" })))).toThrow();
    expect(() =>
      serialize({ status_code: 1.5, status_msg: "x", data: Object.freeze({ userId: 1, nickName: "x" }) }),
    ).toThrow();
  });
});
