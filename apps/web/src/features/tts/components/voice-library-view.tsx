import { useNavigate } from "react-router-dom";
import { paths } from "@/config/paths.ts";
import { storeMyVoiceChoice, storeVoiceBank } from "../lib/voice-bank.ts";
import { VoiceLibraryBrowser } from "./voice-library-browser.tsx";

/**
 * /voice-library: 'use this voice' keeps the voice (a library one, or one of mine) in the voice bank
 * and opens text to speech (/textToVoice, which preselects it).
 */
export function VoiceLibraryView() {
  const navigate = useNavigate();
  return (
    <VoiceLibraryBrowser
      action="use"
      onChoose={(voice) => {
        storeVoiceBank(voice);
        navigate(paths.textToVoice);
      }}
      onChooseMine={(voice) => {
        storeMyVoiceChoice(voice.voiceId);
        navigate(paths.textToVoice);
      }}
    />
  );
}
