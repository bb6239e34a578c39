import { createRequire } from "node:module";
import type { AlipaySdk } from "alipay-sdk";

/**
 * The official Alipay SDK, loaded by its first use rather than at start: with its HTTP client it costs
 * ~0.2 s and ~25 MB (bench/README.md "Start-up"), which a server that takes no payment before its first
 * order need not spend. (Its CommonJS build, so that a first use may be synchronous: verifying a
 * notification.)
 */
export function newAlipaySdk(config: ConstructorParameters<typeof AlipaySdk>[0]): AlipaySdk {
  const { AlipaySdk: Sdk } = createRequire(import.meta.url)("alipay-sdk") as typeof import("alipay-sdk");
  return new Sdk(config);
}
