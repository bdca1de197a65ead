/**
 * Writes React Router's answer (a Fetch Response) to a Node response in ONE
 * piece: the body is read whole, compressed at once and sent with its head
 * and a Content-Length in a single write.
 *
 * Why: a response streamed in parts leaves a window where the head has gone
 * out and the rest has not. If the instance dies in that window (a crash, a
 * SIGKILL, an OOM kill), a proxy in front cannot retry the request on another
 * instance — it has already started answering — and the visitor gets a
 * cut-off page (tests/e2e/multi-instance.test.ts). Written whole, a response
 * has either not started (nginx retries a GET elsewhere: `proxy_next_upstream`)
 * or has been handed to the kernel complete. These responses are small (tens
 * of KB: the dashboard, sign-in pages, uncached public pages, actions) and
 * have no streamed parts, so nothing is shown later.
 *
 * A response without Cache-Control is never stored by a browser or proxy
 * (`private, no-store`); a route that wants caching says so itself.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import { pickEncoding } from "~/.server/page-cache/page-cache-writer";

const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|rss\+xml|atom\+xml|manifest\+json|ld\+json)|image\/svg\+xml)/i;
/** Below this, compressing costs more than it saves. */
const MIN_COMPRESS = 1024;

/** The body as the client accepts it: brotli, gzip or as it is (setting Content-Encoding and Vary). */
export function encodeBody(req: IncomingMessage, res: ServerResponse, body: Buffer): Buffer {
  if (req.method === "HEAD" || body.length < MIN_COMPRESS) return body;
  if (res.statusCode === 204 || res.statusCode === 304 || res.hasHeader("Content-Encoding")) return body;
  const type = String(res.getHeader("Content-Type") ?? "");
  if (!COMPRESSIBLE.test(type) || /\bno-transform\b/.test(String(res.getHeader("Cache-Control") ?? ""))) return body;
  const vary = String(res.getHeader("Vary") ?? "");
  if (!/\baccept-encoding\b|\*/i.test(vary)) res.setHeader("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  const encoding = pickEncoding(req.headers["accept-encoding"]);
  if (encoding === "br") {
    res.setHeader("Content-Encoding", "br");
    return zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
  }
  if (encoding === "gzip") {
    res.setHeader("Content-Encoding", "gzip");
    return zlib.gzipSync(body, { level: 6 });
  }
  return body;
}

/** Sends `response` whole (see above), after the headers already set on `res` (security headers, request id). */
export async function sendWhole(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie" && name !== "content-length" && name !== "transfer-encoding") {
      res.setHeader(name, value);
    }
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  if (!res.hasHeader("Cache-Control")) res.setHeader("Cache-Control", "private, no-store");
  const encoded = encodeBody(req, res, body);
  res.setHeader("Content-Length", encoded.length);
  res.end(req.method === "HEAD" ? undefined : encoded);
}

/** A short plain-text answer (health checks, refusals, errors). */
export function sendText(res: ServerResponse, status: number, text: string, cacheControl = "no-store") {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", cacheControl);
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}
