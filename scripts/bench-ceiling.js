// The ceiling for one Node process: node:http answering stored bytes from memory.
// With a third file (path -> length of the app's own header lines), it also sends one padding
// header, so that its head is as long as the app's (the "same-size head" ceiling of the bench).
import fs from "node:fs";
import http from "node:http";

const bodies = Object.fromEntries(
  Object.entries(JSON.parse(fs.readFileSync(process.argv[2], "utf8"))).map(([k, v]) => [k, Buffer.from(v, "base64")]),
);
const headLengths = process.argv[4] ? JSON.parse(fs.readFileSync(process.argv[4], "utf8")) : {};
const pads = Object.fromEntries(
  Object.entries(headLengths).map(([k, length]) => {
    const own = `Content-Type: text/html; charset=utf-8\r\nContent-Length: ${bodies[k].length}\r\nX-Pad: \r\n`.length;
    return [k, "x".repeat(Math.max(0, length - own))];
  }),
);
const server = http.createServer((req, res) => {
  const body = bodies[req.url];
  if (!body) {
    res.statusCode = 404;
    return res.end();
  }
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Content-Length", body.length);
  const pad = pads[req.url];
  if (pad !== undefined) res.setHeader("X-Pad", pad);
  res.end(body);
});
server.keepAliveTimeout = 5000;
// The port: the third argument, or any free one, sent to the parent (fork) when there is one.
server.listen(Number(process.argv[3] || 0), "127.0.0.1", () => process.send?.(server.address().port));
// A normal exit on a signal, so `node --cpu-prof` writes its profile (scripts/profile-hit.ts).
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
