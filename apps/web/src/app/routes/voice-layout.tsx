import { Outlet } from "react-router-dom";
import { TabLinks } from "@/components/tab-links.tsx";
import { paths } from "@/config/paths.ts";

/**
 * /voiceClone: text to audio, my voice, AI sings, song conversion, and the voice library (whose 'use
 * this voice' opens text to audio: /text-to-speech redirects there).
 */
export default function VoiceLayout() {
  return (
    <>
      <TabLinks
        tabs={[
          { to: paths.textToVoice, title: "textToVoice" },
          { to: paths.myVoice, title: "myVoice" },
          { to: paths.songConversion, title: "songConversion" },
          { to: paths.songVoiceConversion, title: "songVoiceConversion" },
          { to: paths.voiceLibrary, title: "voiceLibrary" },
        ]}
      />
      <Outlet />
    </>
  );
}
