import { MAX_HOT_WORD_LENGTH, MAX_HOT_WORDS } from "@yuelu/contracts/constants";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { useHotWords } from "../api/get-hot-words.ts";
import { useUpdateHotWords } from "../api/update-hot-words.ts";
import { addHotWords, type HotWordProblem } from "../lib/hot-words.ts";
import "./hot-words-editor.css";

/** The user's hot words (GET/PUT /api/v1/hotWords): add with Enter, remove, save. */
export function HotWordsEditor() {
  const { t } = useTranslation();
  const saved = useHotWords();
  const update = useUpdateHotWords();
  const [words, setWords] = useState<string[] | null>(null);
  const [input, setInput] = useState("");
  const [problem, setProblem] = useState<HotWordProblem | null>(null);
  const current = words ?? saved.data ?? [];
  const dirty = words !== null && words.join("\n") !== (saved.data ?? []).join("\n");

  useEffect(() => {
    if (update.isSuccess) setWords(null);
  }, [update.isSuccess]);

  const add = (e?: FormEvent) => {
    e?.preventDefault();
    const result = addHotWords(current, input);
    if ("problem" in result) {
      setProblem(result.problem);
      return;
    }
    setProblem(null);
    setWords(result.list);
    setInput("");
  };

  const save = () =>
    update.mutate(current, {
      onSuccess: () => toast.success(t("hotWords.saved")),
    });

  return (
    <div className="hot-words" data-testid="hot-words">
      <div className="hot-words-head">
        <strong>{t("hotWords.title")}</strong>
        <span className="muted">{t("hotWords.count", { count: current.length, max: MAX_HOT_WORDS })}</span>
      </div>
      <p className="muted hot-words-hint">{t("hotWords.hint")}</p>
      <form className="hot-words-form" onSubmit={add}>
        <input
          className="input"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          placeholder={t("hotWords.placeholder")}
          aria-label={t("hotWords.placeholder")}
          maxLength={2000}
        />
        <Button type="submit" variant="secondary" disabled={!input.trim() || current.length >= MAX_HOT_WORDS}>
          {t("hotWords.add")}
        </Button>
      </form>
      {problem && (
        <p className="error-text" role="alert">
          {t(`hotWords.${problem}`, { max: problem === "tooLong" ? MAX_HOT_WORD_LENGTH : MAX_HOT_WORDS })}
        </p>
      )}
      {current.length === 0 ? (
        <p className="muted">{t("hotWords.empty")}</p>
      ) : (
        <ul className="chips">
          {current.map((w) => (
            <li key={w} className="chip">
              <span>{w}</span>
              <button
                type="button"
                className="chip-x"
                aria-label={t("hotWords.remove", { word: w })}
                onClick={() => setWords(current.filter((x) => x !== w))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {dirty && (
        <Button size="sm" onClick={save} disabled={update.isPending} data-testid="hot-words-save">
          {t("hotWords.save")}
        </Button>
      )}
    </div>
  );
}
