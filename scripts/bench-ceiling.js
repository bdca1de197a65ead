// The ceiling for one Node process: node:http answering stored bytes from memory.
// With a third file (path -> the app's own header lines, [name, value] pairs), it sends those
// headers too: "the same bytes with the same headers" (issue 29's ceiling, "same-headers ratio").
import fs from "node:fs";
import http from "node:http";

const bodies = Object.fromEntries(
  Object.entries(JSON.parse(fs.readFileSync(process.argv[2], "utf8"))).map(([k, v]) => [k, Buffer.from(v, "base64")]),
);
const heads = process.argv[4] ? JSON.parse(fs.readFileSync(process.argv[4], "utf8")) : {};
const server = http.createServer((req, res) => {
  const body = bodies[req.url];
  if (!body) {
    res.statusCode = 404;
    return res.end();
  }
  const head = heads[req.url];
  if (head) {
    res.writeHead(200, [...head.flat(), "Content-Length", String(body.length)]);
  } else {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Content-Length", body.length);
  }
  res.end(body);
});
server.keepAliveTimeout = 5000;
// The port: the third argument, or any free one, sent to the parent (fork) when there is one.
server.listen(Number(process.argv[3] || 0), "127.0.0.1", () => process.send?.(server.address().port));
// A normal exit on a signal, so `node --cpu-prof` writes its profile (scripts/profile-hit.ts).
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
