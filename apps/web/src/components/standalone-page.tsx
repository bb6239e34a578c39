import type { ReactNode } from "react";
import "./standalone-page.css";

/** A page outside the home layout (404, the satisfaction page): centred, full height. */
export function StandalonePage({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <main className="standalone" data-testid={testId}>
      {children}
    </main>
  );
}

/** The big mark above a standalone page's title ("404", "✓"). */
export function StandaloneMark({ children }: { children: ReactNode }) {
  return (
    <div className="standalone-code" aria-hidden>
      {children}
    </div>
  );
}
