import { clsx } from "clsx";
import type { ReactNode } from "react";
import "./tag.css";

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
    <span className={clsx("status-tag", tone)} data-testid={testId}>
      {children}
    </span>
  );
}
