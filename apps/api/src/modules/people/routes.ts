import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  localSpeakerName,
  ok,
  toEpochSeconds,
  ZPeopleConfirmBody,
  ZPeopleConfirmResult,
  ZPeopleDeleteBody,
  ZPeopleDeleteResult,
  ZPeopleList,
  ZPeopleRenameBody,
  ZPeopleRenameResult,
  ZPeopleSettings,
  ZPeopleSettingsBody,
} from "@yuelu/contracts";
import { confirmSuggestion, forgetPerson, listPeople, renamePerson, setRemembering } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { requestLang } from "../../lib/lang.ts";
import { userIdOf } from "../../plugins/auth.ts";

const tags = ["people"];

/**
 * People (docs/people.md): speakers recognised across recordings, exactly at these paths. Thin: every rule and
 * write is domain/people/people.ts. No answer carries a voiceprint.
 */
export default async function peopleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;

  app.get("/api/v1/people/list", { schema: { tags, response: { 200: envelopeOf(ZPeopleList) } } }, async (req) => {
    const { remember, list } = await listPeople(app.deps.db, userIdOf(req));
    return ok({
      remember,
      total: list.length,
      list: list.map((p) => ({
        personId: p.personId,
        name: p.name,
        recordings: p.recordings,
        suggested: p.suggested,
        createTime: toEpochSeconds(p.createdAt),
        updateTime: toEpochSeconds(p.updatedAt),
      })),
    });
  });

  app.post(
    "/api/v1/people/delete",
    { schema: { tags, body: ZPeopleDeleteBody, response: { 200: envelopeOf(ZPeopleDeleteResult) } } },
    async (req) => ok(await forgetPerson(domain, userIdOf(req), req.body.personId)),
  );

  app.post(
    "/api/v1/people/settings",
    { schema: { tags, body: ZPeopleSettingsBody, response: { 200: envelopeOf(ZPeopleSettings) } } },
    async (req) => ok(await setRemembering(domain, userIdOf(req), req.body.remember)),
  );

  app.post(
    "/api/v1/people/rename",
    { schema: { tags, body: ZPeopleRenameBody, response: { 200: envelopeOf(ZPeopleRenameResult) } } },
    async (req) => ok(await renamePerson(domain, userIdOf(req), req.body.personId, req.body.name)),
  );

  app.post(
    "/api/v1/people/confirm",
    { schema: { tags, body: ZPeopleConfirmBody, response: { 200: envelopeOf(ZPeopleConfirmResult) } } },
    async (req) => {
      const { fileId, speaker, accept } = req.body;
      const done = await confirmSuggestion(domain, userIdOf(req), { fileId, speaker, accept });
      return ok({
        fileId,
        speaker,
        accepted: accept,
        spkName: localSpeakerName(done.spkName, requestLang(req)),
        ...(done.personId !== undefined ? { personId: done.personId } : {}),
        segments: done.segments,
        version: done.version,
      });
    },
  );
}
