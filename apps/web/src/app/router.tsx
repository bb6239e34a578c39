import { createBrowserRouter, Navigate, type RouteObject, useLocation } from "react-router-dom";
import { Spinner } from "@/components/ui/states.tsx";
import { paths, type RouteHandle, redirects } from "@/config/paths.ts";
import { RootShell } from "./root-shell.tsx";

const page = (title: string): { handle: RouteHandle } => ({ handle: { title } });

/** Lazily loaded route modules: the landing page does not pay for the app behind it. */
const lazyPage = (load: () => Promise<{ default: React.ComponentType }>) => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/** A redirect that keeps the query and hash (a link into /text-to-speech?… lands on /textToVoice?…). */
function Redirect({ to }: { to: string }) {
  const { search, hash } = useLocation();
  return <Navigate to={{ pathname: to, search, hash }} replace />;
}

const redirectRoutes: RouteObject[] = Object.entries(redirects).map(([from, to]) => ({
  path: from,
  element: <Redirect to={to} />,
}));

export const routes: RouteObject[] = [
  {
    element: <RootShell />,
    hydrateFallbackElement: <Spinner />,
    children: [
      { path: paths.landing, ...page("landing"), ...lazyPage(() => import("./routes/landing.tsx")) },
      { path: paths.detail, ...page("detail"), ...lazyPage(() => import("./routes/detail.tsx")) },
      { path: paths.tranSatis, ...page("tranSatis"), ...lazyPage(() => import("./routes/tran-satis.tsx")) },
      { path: paths.notFound, ...page("notFound"), ...lazyPage(() => import("./routes/not-found.tsx")) },
      // The operator console: one lazy module with its own routes, so no page of it is in the others' chunks.
      { path: `${paths.admin}/*`, ...page("admin"), ...lazyPage(() => import("./routes/admin/admin-console.tsx")) },
      ...redirectRoutes,
      {
        ...lazyPage(() => import("@/features/layout/components/home-layout.tsx")),
        children: [
          { path: paths.transaudio, ...page("transaudio"), ...lazyPage(() => import("./routes/transaudio.tsx")) },
          {
            ...lazyPage(() => import("./routes/audio-layout.tsx")),
            children: [
              { path: paths.audioList, ...page("audioList"), ...lazyPage(() => import("./routes/audio-list.tsx")) },
              { path: paths.recycleBin, ...page("recycleBin"), ...lazyPage(() => import("./routes/recycle-bin.tsx")) },
              { path: paths.search, ...page("search"), ...lazyPage(() => import("./routes/search.tsx")) },
            ],
          },
          {
            path: paths.personalInfo,
            ...page("personalInfo"),
            ...lazyPage(() => import("./routes/personal-info.tsx")),
          },
          { path: paths.people, ...page("people"), ...lazyPage(() => import("./routes/people.tsx")) },
          {
            path: paths.helpDocument,
            ...page("helpDocument"),
            ...lazyPage(() => import("./routes/help-document.tsx")),
          },
          {
            ...lazyPage(() => import("./routes/voice-layout.tsx")),
            children: [
              {
                path: paths.textToVoice,
                ...page("textToVoice"),
                ...lazyPage(() => import("./routes/text-to-voice.tsx")),
              },
              { path: paths.myVoice, ...page("myVoice"), ...lazyPage(() => import("./routes/my-voice.tsx")) },
              {
                path: paths.songConversion,
                ...page("songConversion"),
                ...lazyPage(() => import("./routes/song-conversion.tsx")),
              },
              {
                path: paths.songVoiceConversion,
                ...page("songVoiceConversion"),
                ...lazyPage(() => import("./routes/song-voice-conversion.tsx")),
              },
              {
                path: paths.voiceLibrary,
                ...page("voiceLibrary"),
                ...lazyPage(() => import("./routes/voice-library.tsx")),
              },
            ],
          },
          { path: paths.order, ...page("order"), ...lazyPage(() => import("./routes/order.tsx")) },
          { path: paths.vip, ...page("vip"), ...lazyPage(() => import("./routes/vip.tsx")) },
        ],
      },
      { path: "*", element: <Navigate to={paths.notFound} replace /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
