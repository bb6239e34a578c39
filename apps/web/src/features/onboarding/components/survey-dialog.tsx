import { SURVEY_SKIP } from "@yuelu/contracts/constants";
import { clsx } from "clsx";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { ErrorState, Spinner } from "@/components/ui/states.tsx";
import { useSurveyOptions } from "../api/get-survey-options.ts";
import { useSaveSurvey } from "../api/save-survey.ts";
import "./survey-dialog.css";

interface SurveyDialogProps {
  startStep: 1 | 2;
  onDone: () => void;
}

/**
 * Spec §4/§5 identity survey: step 1 identity, step 2 source. 'Next' and 'Submit' stay disabled
 * until a choice is made; closing early submits 'Skip' for whatever is still missing. What is sent
 * is the option's `value` — the same in every language — never the name shown.
 */
export function SurveyDialog({ startStep, onDone }: SurveyDialogProps) {
  const { t } = useTranslation();
  const options = useSurveyOptions();
  const save = useSaveSurvey();
  const [step, setStep] = useState<1 | 2>(startStep);
  const [identity, setIdentity] = useState<string>();
  const [channel, setChannel] = useState<string>();
  const [identitySaved, setIdentitySaved] = useState(startStep === 2);

  const next = async () => {
    if (!identity) return;
    await save.mutateAsync({ identity });
    setIdentitySaved(true);
    setStep(2);
  };
  const submit = async () => {
    if (!channel) return;
    await save.mutateAsync({ channel });
    onDone();
  };
  const closeEarly = async () => {
    const missing = { ...(identitySaved ? {} : { identity: SURVEY_SKIP }), channel: SURVEY_SKIP };
    await save.mutateAsync(missing).catch(() => {});
    onDone();
  };

  const list = step === 1 ? options.data?.identityList : options.data?.channelList;
  const selected = step === 1 ? identity : channel;
  const choose = step === 1 ? setIdentity : setChannel;

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && void closeEarly()}
      title={t("survey.title")}
      description={t(step === 1 ? "survey.step1" : "survey.step2")}
    >
      <p className="survey-step muted">{t("survey.stepOf", { step })}</p>
      <h3 className="survey-question">{t(step === 1 ? "survey.step1" : "survey.step2")}</h3>
      {options.isPending ? (
        <Spinner />
      ) : options.isError ? (
        <ErrorState onRetry={() => void options.refetch()} />
      ) : (
        <fieldset className="survey-options">
          <legend className="sr-only">{t(step === 1 ? "survey.step1" : "survey.step2")}</legend>
          {list?.map((o) => (
            <label key={o.id} className={clsx("survey-option", selected === o.value && "selected")}>
              <input
                type="radio"
                className="sr-only"
                name={`survey-step-${step}`}
                value={o.value}
                checked={selected === o.value}
                onChange={() => choose(o.value)}
              />
              {o.name}
            </label>
          ))}
        </fieldset>
      )}
      <div className="dialog-actions">
        {step === 1 ? (
          <Button disabled={!identity || save.isPending} onClick={() => void next()} block>
            {t("common.next")}
          </Button>
        ) : (
          <Button disabled={!channel || save.isPending} onClick={() => void submit()} block>
            {t("common.submit")}
          </Button>
        )}
      </div>
    </Dialog>
  );
}
