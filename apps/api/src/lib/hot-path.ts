import { serializerCompiler as zodSerializerCompiler } from "@fastify/type-provider-zod";
import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchema,
  type FastifySerializerCompiler,
  LogController,
} from "fastify";
import type { Bindings, ChildLoggerOptions } from "fastify/types/logger.js";
import { z } from "zod";
import { ACCESS_LINE } from "./request-log.ts";

/**
 * What every request pays for, kept small (bench/README.md "user/info against hello-world"): the
 * request log, the per-request logger, and the response serializer.
 */

/**
 * The request log: one line per request, when it is answered ("request completed", with the request
 * as `loggedRequest` writes it, the status and the time taken) — not two (Fastify's "incoming request"
 * and "request completed"): at LOG_LEVEL=info the second line cost a third of user/info's throughput.
 * Errors are logged as Fastify logs them.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, "request errored");
      return;
    }
    const log = reply.log as unknown;
    // the line is only built when it is written (below LOG_LEVEL=info it is not)
    if (log instanceof LazyChildLogger) {
      if (log.isLevelEnabled("info")) log.accessLine(request, reply, reply.elapsedTime);
    } else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, ACCESS_MESSAGE);
  }
}

const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
type Level = (typeof LEVELS)[number];
const ACCESS_MESSAGE = "request completed";

/** The request id of a request logger's bindings when it is all they hold (Fastify's `{ reqId }`). */
function onlyRequestId(bindings: Bindings): string | undefined {
  let count = 0;
  for (const _ in bindings) count++;
  const id = (bindings as { reqId?: unknown }).reqId;
  return count === 1 && typeof id === "string" ? id : undefined;
}

/**
 * Fastify's `childLoggerFactory`: each request's logger (`request.log`, bound to its id) is made the
 * first time something is logged through it at an enabled level — most requests log nothing below
 * the configured level, and making a pino child for each cost ~1.5 µs of user/info's ~25.
 */
export function lazyChildLogger(
  this: unknown,
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}

class LazyChildLogger {
  private made?: FastifyBaseLogger;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  /** Whether `level` would be written (unknown for a logger that is not pino's: then yes). */
  private enabled(level: Level): boolean {
    if (this.made) return true;
    const values = (this.parent as { levels?: { values?: Record<string, number> } }).levels?.values;
    const threshold = values?.[this.options.level ?? this.parent.level];
    const wanted = values?.[level];
    return threshold === undefined || wanted === undefined || wanted >= threshold;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    const made = this.made as { isLevelEnabled?: (level: string) => boolean } | undefined;
    return made?.isLevelEnabled ? made.isLevelEnabled(level) : this.enabled(level as Level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  /**
   * The request's access line ("request completed", at info), written as this request's logger would
   * write it — its one binding, the request id, first — without making that logger: a pino child
   * made for the one line of a request costs as much as the line. It goes through the API logger's
   * access writer where there is one (lib/request-log.ts: the same line, less a redaction with
   * nothing to redact), else through the parent when the parent writes it too.
   */
  accessLine(req: FastifyRequest, res: FastifyReply, responseTime: number): void {
    const parent = this.parent as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
    const reqId = onlyRequestId(this.bindings);
    if (!this.made && !this.options.serializers && reqId !== undefined) {
      const writer = (parent as { [ACCESS_LINE]?: FastifyBaseLogger })[ACCESS_LINE];
      const through = writer ?? (parent.isLevelEnabled?.("info") ? parent : undefined);
      if (through) {
        through.info({ reqId, req, res, responseTime }, ACCESS_MESSAGE);
        return;
      }
    }
    this.logger.info({ req, res, responseTime }, ACCESS_MESSAGE);
  }

  silent(): void {}
}
for (const level of LEVELS) {
  Object.defineProperty(LazyChildLogger.prototype, level, {
    value(this: LazyChildLogger, ...args: unknown[]) {
      // biome-ignore lint/suspicious/noExplicitAny: pino's overloaded log methods
      if ((this as any).enabled(level)) (this as any).logger[level](...args);
    },
  });
}

/**
 * The response serializer: type-provider-zod's (each answer encoded by its schema — unknown fields
 * dropped, a wrong answer refused — then JSON), with one saving for the hot paths. An envelope's
 * `data` that is a frozen object — what the read caches hand out (lib/read-cache.ts), which nobody can
 * change — is encoded once and its JSON reused while that object lives: a cached user/info answer
 * costs a string join instead of a schema walk.
 */
export const serializerCompiler: FastifySerializerCompiler<FastifySchema> = ((route: {
  schema: unknown;
  method: string;
  url: string;
}) => {
  const full = zodSerializerCompiler(route as never) as (data: unknown) => string;
  const dataSchema = envelopeData(route.schema);
  if (!dataSchema) return full;
  const data = zodSerializerCompiler({ ...route, schema: dataSchema } as never) as (data: unknown) => string;
  // per frozen `data`: its JSON, and the last whole envelope written around it (the same on every call)
  const encoded = new WeakMap<object, { json: string; code?: number; msg?: string; envelope?: string }>();
  return (payload: unknown) => {
    const envelope = payload as { status_code?: unknown; status_msg?: unknown; data?: unknown } | null;
    const inner = envelope?.data;
    if (
      inner === null ||
      typeof inner !== "object" ||
      !Object.isFrozen(inner) ||
      !Number.isInteger(envelope?.status_code) ||
      typeof envelope?.status_msg !== "string" ||
      Object.keys(envelope).length !== 3
    ) {
      return full(payload);
    }
    const code = envelope.status_code as number;
    const msg = envelope.status_msg;
    let known = encoded.get(inner);
    if (known === undefined) {
      known = { json: data(inner) };
      encoded.set(inner, known);
    }
    if (known.code !== code || known.msg !== msg || known.envelope === undefined) {
      known.envelope = `{"status_code":${code},"status_msg":${JSON.stringify(msg)},"data":${known.json}}`;
      known.code = code;
      known.msg = msg;
    }
    return known.envelope;
  };
}) as never;

/** The `data` schema of an envelope schema (contracts' envelopeOf: status_code, status_msg, data), else undefined. */
function envelopeData(schema: unknown): z.ZodType | undefined {
  if (!(schema instanceof z.ZodObject)) return undefined;
  const shape = schema.shape as Record<string, z.ZodType>;
  const keys = Object.keys(shape);
  if (keys.length !== 3 || keys[0] !== "status_code" || keys[1] !== "status_msg" || keys[2] !== "data")
    return undefined;
  if (!(shape.status_code instanceof z.ZodNumber) || !(shape.status_msg instanceof z.ZodString)) return undefined;
  // a strict or loose envelope changes what the join would write: leave those to the full serializer
  const catchall = (schema as unknown as { _zod: { def: { catchall?: unknown } } })._zod.def.catchall;
  return catchall === undefined ? shape.data : undefined;
}
