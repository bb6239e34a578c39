import type { ActionItem } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { formatMs } from "../lib/segments.ts";
import "./summary-panel.css";

/**
 * The to-dos said in the recording, each with its owner and due date when they were said, and its moment: a
 * click plays from there. Those found without a model say so (they are sentences that sound like a to-do), and
 * so do those found offline because the model listed none (`fallback`).
 */
export function TodoList({
  todos,
  offline,
  fallback = false,
  onPlay,
}: {
  todos: readonly ActionItem[];
  offline: boolean;
  fallback?: boolean;
  onPlay: (segmentIndex: number) => void;
}) {
  const { t } = useTranslation();
  const source = fallback ? t("notes.todosFallback") : offline ? t("notes.todosOffline") : null;
  return (
    <section className="todos" data-testid="todos" aria-labelledby="todos-title">
      <h3 className="todos-title" id="todos-title">
        {t("notes.todos")}
        {source && <span className="muted todos-source"> · {source}</span>}
      </h3>
      {todos.length === 0 ? (
        <p className="muted">{t("notes.noTodos")}</p>
      ) : (
        <ul className="todos-list">
          {todos.map((todo) => (
            <li key={`${todo.segmentIndex}:${todo.text}`} className="todo" data-testid="todo">
              <button
                type="button"
                className="todo-time"
                onClick={() => onPlay(todo.segmentIndex)}
                aria-label={t("notes.todoPlay", { time: formatMs(todo.startTime) })}
              >
                {formatMs(todo.startTime)}
              </button>
              <div className="todo-body">
                <span className="todo-text">{todo.text}</span>
                {(todo.owner || todo.due) && (
                  <span className="muted todo-meta">
                    {[
                      todo.owner && t("notes.todoOwner", { owner: todo.owner }),
                      todo.due && t("notes.todoDue", { due: todo.due }),
                    ]
                      .filter(Boolean)
                      .join(" · ")}
                  </span>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
