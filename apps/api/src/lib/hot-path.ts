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
    if (error)
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, "request errored");
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, "request completed");
  }
}

const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
type Level = (typeof LEVELS)[number];

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
  const encoded = new WeakMap<object, string>();
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
    let json = encoded.get(inner);
    if (json === undefined) {
      json = data(inner);
      encoded.set(inner, json);
    }
    return `{"status_code":${envelope.status_code},"status_msg":${JSON.stringify(envelope.status_msg)},"data":${json}}`;
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
