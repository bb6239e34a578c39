import type { ReactNode } from "react";
import "./page.css";

/** A page inside the home layout: its title and a card for its content. */
export function Page({ title, actions, children }: { title: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="page">
      <div className="page-head">
        <h1 className="page-title">{title}</h1>
        {actions}
      </div>
      <div className="card">{children}</div>
    </section>
  );
}
