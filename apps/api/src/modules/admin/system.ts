import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  ok,
  pageWindow,
  StatusCode,
  ZAdminEngines,
  ZAdminFailedJobPage,
  ZAdminFailedJobQuery,
  ZAdminFigures,
  ZAdminFiguresQuery,
  ZAdminJobAction,
  ZAdminJobParams,
  ZAdminQueues,
  ZAdminRetryFailedBody,
  ZAdminRetryFailedResult,
  ZAdminStoragePage,
  ZAdminStorageQuery,
  ZAdminVersion,
} from "@yuelu/contracts";
import { AppError, auditJobAction, dailyFigures, engineOverview, storageByUser } from "@yuelu/domain";
import {
  type FailedJob,
  failedJob,
  failedJobs,
  liveWorkers,
  probeLlm,
  queueDepths,
  removeFailedJob,
  retryAllFailed,
  retryFailedJob,
  toolReports,
} from "@yuelu/runtime";
import type { FastifyInstance } from "fastify";
import { requestLang } from "../../lib/lang.ts";
import { actorOf } from "./actor.ts";
import { APP_VERSION } from "./version.ts";

const tags = ["admin: system"];

const iso = (d: Date | null) => (d ? d.toISOString() : null);
function jobView(job: FailedJob) {
  return { ...job, createdAt: iso(job.createdAt), processedAt: iso(job.processedAt), failedAt: iso(job.failedAt) };
}

/**
 * /voice_yuelu/admin (system): engines and tools, queues and failed jobs, storage per user, version,
 * daily figures (docs/admin.md "System").
 */
export default async function adminSystemRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;
  const { config, queues } = app.deps;

  app.get("/admin/system/engines", { schema: { tags, response: { 200: envelopeOf(ZAdminEngines) } } }, async (req) =>
    // the API probes uploads itself (ffprobe, ffmpeg) and the notes' LLM; the workers report the rest.
    // What to do is worded in the console's language.
    ok(
      engineOverview(
        await liveWorkers(domain.db),
        toolReports(["ffprobe", "ffmpeg"], config),
        await probeLlm(config),
        requestLang(req),
      ),
    ),
  );

  app.get("/admin/system/queues", { schema: { tags, response: { 200: envelopeOf(ZAdminQueues) } } }, async () =>
    ok({ backend: queues.kind, queues: await queueDepths(queues) }),
  );

  app.get(
    "/admin/system/jobs/failed",
    { schema: { tags, querystring: ZAdminFailedJobQuery, response: { 200: envelopeOf(ZAdminFailedJobPage) } } },
    async (req) => {
      const q = req.query;
      const page = await failedJobs(queues, { queue: q.queue, order: q.order, ...pageWindow(q) });
      return ok({ items: page.items.map(jobView), total: page.total, page: q.page, pageSize: q.pageSize });
    },
  );

  app.post(
    "/admin/system/jobs/retry-failed",
    { schema: { tags, body: ZAdminRetryFailedBody, response: { 200: envelopeOf(ZAdminRetryFailedResult) } } },
    async (req) => {
      const retried = await retryAllFailed(queues, req.body.queue);
      await auditJobAction(domain.db, await actorOf(req), {
        action: "jobs.retry-failed",
        queue: req.body.queue ?? "*",
        after: { retried },
      });
      return ok({ retried });
    },
  );

  for (const action of ["retry", "remove"] as const) {
    app.post(
      `/admin/system/jobs/:queue/:jobId/${action}`,
      { schema: { tags, params: ZAdminJobParams, response: { 200: envelopeOf(ZAdminJobAction) } } },
      async (req) => {
        const { queue, jobId } = req.params;
        // only failed jobs: an unknown one, or one waiting or running, is 30001
        const job = await failedJob(queues, queue, jobId);
        if (!job) throw new AppError(StatusCode.RecordNotFound);
        const done =
          action === "retry" ? await retryFailedJob(queues, queue, jobId) : await removeFailedJob(queues, queue, jobId);
        if (!done) throw new AppError(StatusCode.RecordNotFound); // retried or removed meanwhile
        await auditJobAction(domain.db, await actorOf(req), {
          action: action === "retry" ? "job.retry" : "job.remove",
          queue,
          jobId,
          before: { name: job.name, failedReason: job.failedReason, attemptsMade: job.attemptsMade, data: job.data },
        });
        return ok({ queue, id: jobId, done: action === "retry" ? ("retried" as const) : ("removed" as const) });
      },
    );
  }

  app.get(
    "/admin/system/storage",
    { schema: { tags, querystring: ZAdminStorageQuery, response: { 200: envelopeOf(ZAdminStoragePage) } } },
    async (req) => ok(await storageByUser(domain.db, req.query)),
  );

  app.get("/admin/system/version", { schema: { tags, response: { 200: envelopeOf(ZAdminVersion) } } }, async () =>
    ok({
      version: APP_VERSION,
      node: process.version,
      uptimeSeconds: Math.floor(process.uptime()),
      queueBackend: queues.kind,
      fileStore: config.FILE_STORE,
      paymentProvider: app.payments.name,
      businessTimeZone: config.BUSINESS_TZ,
    }),
  );

  app.get(
    "/admin/system/figures",
    { schema: { tags, querystring: ZAdminFiguresQuery, response: { 200: envelopeOf(ZAdminFigures) } } },
    async (req) => ok(await dailyFigures(domain, req.query)),
  );
}
