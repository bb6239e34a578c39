// The baseline: a bare Fastify hello-world, the best any Fastify route can do on this machine.
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));
await app.listen({ port: Number(process.env.PORT ?? 8091), host: "127.0.0.1" });
console.log("ready");
