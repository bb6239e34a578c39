import { networkInterfaces } from "node:os";
import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { publicOrigin } from "../../apps/api/src/modules/payments/origin.ts";

const request = (host: string) =>
  ({
    hostname: host.split(":")[0],
    host,
    port: Number(host.split(":")[1]) || undefined,
    protocol: "http",
  }) as unknown as FastifyRequest;

const lan = Object.values(networkInterfaces())
  .flat()
  .find((a) => a?.family === "IPv4" && !a.internal)?.address;

describe("the origin a QR points at", () => {
  it("is PUBLIC_URL when set", () => {
    expect(publicOrigin(request("localhost:8080"), { PUBLIC_URL: "https://yuelu.example.com/", HOST: "0.0.0.0" })).toBe(
      "https://yuelu.example.com",
    );
  });

  it("is the origin the browser used, unless that is localhost on an install a phone can reach", () => {
    expect(publicOrigin(request("192.168.1.20:8080"), { PUBLIC_URL: undefined, HOST: "0.0.0.0" })).toBe(
      "http://192.168.1.20:8080",
    );
    expect(publicOrigin(request("localhost:8080"), { PUBLIC_URL: undefined, HOST: "127.0.0.1" })).toBe(
      "http://localhost:8080",
    );
    const laptop = publicOrigin(request("localhost:8080"), { PUBLIC_URL: undefined, HOST: "0.0.0.0" });
    expect(laptop).toBe(lan ? `http://${lan}:8080` : "http://localhost:8080");
  });
});
