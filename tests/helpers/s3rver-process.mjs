// A real S3-compatible server (s3rver) in its own process, as production's would be: args are
// the data folder, the bucket and optionally the port (0: a free one); prints {"port":…} once it
// listens, stops on SIGTERM (its objects stay in the folder for the next start).
import S3rver from "s3rver";
import { completeMultipart } from "./s3rver-multipart.mjs";

const [directory, bucket, wantedPort = "0"] = process.argv.slice(2);
const server = new S3rver({
  address: "127.0.0.1",
  port: Number(wantedPort),
  directory,
  silent: true,
  configureBuckets: [{ name: bucket, configs: [] }],
});
// ListParts, AbortMultipartUpload and ListMultipartUploads, which s3rver lacks (resumable uploads)
completeMultipart(server, directory);
const { port } = await server.run();
console.log(JSON.stringify({ port }));
process.on("SIGTERM", () => server.close().finally(() => process.exit(0)));
