import type { FastifyReply, FastifyRequest } from "fastify";
import pino, { type Logger, type LoggerOptions } from "pino";
import { TUS_PATH } from "../modules/records/tus.ts";
import { decodedPath, routePath } from "./route-path.ts";

/**
 * The API's logger options, for every process that serves it (apps/api/src/main.ts, launcher/main.ts).
 * The request log is read by whoever reads the server's logs (an operator, a log service), so it must not
 * carry what would let them in: credentials in headers, and secrets that travel in the URL itself —
 * share tokens (`/s/<token>`: the token IS the link), share passwords (`generate_url?password=`), tus
 * upload ids (`…/audio/uploads/<id>`: the upload's only name) and sign-in codes (`tempCode`).
 */
export function apiLoggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
    serializers: { req: loggedRequest },
  };
}

/**
 * The API's logger (apps/api/src/main.ts, launcher/main.ts): the options above, writing to stdout
 * through a buffer (pino's asynchronous destination, flushed at exit) rather than one blocking write
 * per line — the request log writes a line per request (bench/README.md "user/info"). A test passes
 * its own destination.
 */
export function apiLogger(
  level: string,
  destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false }),
): Logger {
  const logger = pino(apiLoggerOptions(level), destination);
  // The access line's writer (lib/hot-path.ts), found by this logger's children through the prototype
  // chain: the same options and destination, less the redaction — the line's `req` and `res` are what
  // the serializers make of them (`loggedRequest`; Fastify's `{ statusCode }`), which holds no header,
  // so it has nothing to redact, and redacting cost half of the line. Whether the line is written was
  // decided by the request's own logger, hence the lowest level here.
  Object.defineProperty(logger, ACCESS_LINE, {
    value: pino(
      { ...apiLoggerOptions("trace"), redact: undefined, serializers: { req: loggedRequest, res: loggedResponse } },
      destination,
    ),
  });
  return logger;
}

/** Where an API logger keeps its access-line writer (see `apiLogger`). */
export const ACCESS_LINE = Symbol("yuelu.accessLine");

/** What the log says of a response: its status, as Fastify's own serializer writes it. */
function loggedResponse(reply: FastifyReply) {
  return { statusCode: reply.statusCode };
}

/** Paths whose next segment is a secret. */
const SECRET_PATH_PREFIXES = ["/s/", `${TUS_PATH}/`];

/** Query parameters that carry a secret: passwords (password, pwd, passcode), codes, tokens, keys. */
const SECRET_PARAM = /pass|pwd|secret|token|code$|key$/i;

const REDACTED = "[redacted]";

/** What the log says of a request: Fastify's default fields, with the URL's secrets taken out. */
export function loggedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggedUrl(request),
    version: request.headers?.["accept-version"],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The URL without its secrets: a secret path as its route (`/s/:token/audio`), secret parameters' values redacted. */
export function loggedUrl(request: FastifyRequest): string {
  const url = request.url ?? "";
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? "" : `?${redactedQuery(url.slice(queryAt + 1))}`;
  return `${loggedPath(request, path)}${query}`;
}

function loggedPath(request: FastifyRequest, path: string): string {
  // decoded, as the router reads it: `/%73/<token>` reaches the share page too
  const decoded = decodedPath(path);
  const secret = SECRET_PATH_PREFIXES.find((prefix) => decoded.startsWith(prefix));
  if (!secret) return path;
  // (a request logged before routing, or Node's own request object, has no route)
  const pattern = request.routeOptions ? routePath(request) : decoded;
  // one of the server's own routes answered: its pattern names the route and holds no value
  return pattern !== decoded && pattern.startsWith(secret) ? pattern : `${secret}${REDACTED}`;
}

function redactedQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return SECRET_PARAM.test(decodedName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join("&");
}

/** A parameter's name as the query parser reads it (`pass%77ord` is `password`). */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, " "));
  } catch {
    return name;
  }
}
