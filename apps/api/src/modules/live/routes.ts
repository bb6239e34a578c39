import { LIVE_PATH, LiveCloseCode, StatusCode, statusMessage } from "@yuelu/contracts";
import { liveTokenOf, loadLiveConfig } from "@yuelu/runtime";
import type { FastifyInstance } from "fastify";
import { requestLang } from "../../lib/lang.ts";
import { LiveRelays } from "./relay.ts";

/**
 * `GET /voice_yuelu/live` (WebSocket): live captions while recording (docs/live.md). Signed in by
 * the session cookie; an anonymous or deleting account's socket gets an error message and is closed
 * with 4401, not refused at the handshake, so the page can say why.
 */
export default async function liveRoutes(app: FastifyInstance) {
  const live = loadLiveConfig();
  const relays = new LiveRelays({
    db: app.deps.db,
    // the workers refuse a socket without it; unset, both sides derive it from the cookie secret
    token: live.LIVE_TOKEN ?? liveTokenOf(app.deps.cookieSecret),
    log: app.log,
  });
  app.get(
    LIVE_PATH.replace(/^\/voice_yuelu/, ""),
    // writes: a socket opened by another site's page (it would carry this site's cookie) is refused at
    // the handshake (403), as any state-changing request from another site is (plugins/security.ts)
    { websocket: true, config: { auth: "public", writes: true }, schema: { hide: true } },
    (socket, request) => {
      const lang = requestLang(request);
      const session = request.session;
      if (!session || session.deleteRequestedAt) {
        const code = session ? StatusCode.UserDeleted : StatusCode.NotLoggedIn;
        socket.send(JSON.stringify({ type: "error", code, message: statusMessage(code, lang) }));
        socket.close(LiveCloseCode.NotLoggedIn, String(code));
        return;
      }
      relays.handle(socket, session.userId, lang);
    },
  );
}
