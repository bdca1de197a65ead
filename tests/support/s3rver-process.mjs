// s3rver in its own process: `node --openssl-legacy-provider tests/support/s3rver-process.mjs DIR BUCKET [PORT]`.
// s3rver makes ListObjectsV2 continuation tokens with DES, which OpenSSL 3 only
// offers through its legacy provider: without the flag every paged listing is a 500.
// Prints {"port":N} once listening; stops on SIGTERM/SIGINT.
import S3rver from "s3rver";

const [directory, bucket, port = "0"] = process.argv.slice(2);
const server = new S3rver({
  port: Number(port),
  address: "127.0.0.1",
  directory,
  silent: true,
  configureBuckets: [{ name: bucket, configs: [] }],
});
const address = await server.run();
process.stdout.write(JSON.stringify({ port: address.port }) + "\n");
const stop = () => server.close().finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
// The parent holds our stdin: when it goes (even killed), so do we.
process.stdin.on("close", stop);
process.stdin.resume();
