import type { ReactNode } from "react";
import type { TaskPhase } from "@/lib/task-phase.ts";
import "./phase-chip.css";

/** Where a task stands, as a coloured word: queued and running blue, done green, failed red. */
export function PhaseChip({ phase, children, testId }: { phase: TaskPhase; children: ReactNode; testId?: string }) {
  return (
    <span className={`phase-chip phase-chip-${phase}`} data-testid={testId}>
      {children}
    </span>
  );
}
