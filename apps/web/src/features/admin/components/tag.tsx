import { clsx } from "clsx";
import type { ReactNode } from "react";

/** A short status word in a table cell: green for good, red for off, blue for notable. */
export function Tag({
  tone,
  children,
  testId,
}: {
  tone?: "ok" | "off" | "brand";
  children: ReactNode;
  testId?: string;
}) {
  return (
    <span className={clsx("admin-tag", tone)} data-testid={testId}>
      {children}
    </span>
  );
}
