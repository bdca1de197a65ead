/**
 * `npm run redirects:nginx -- [file]`: writes the redirects as an nginx map
 * file (app/.server/redirects/nginx-map.ts) to `file` (default
 * harrow-kline-redirects.map here), for the reference configuration's
 * `include` (deploy/nginx/harrow-kline.conf; docs/deployment.md). Run it
 * after an import or a batch of changes, copy the file over
 * /etc/nginx/harrow-kline-redirects.map and `nginx -t && systemctl reload nginx`.
 */
import fs from "node:fs";
import path from "node:path";
import { allRedirects } from "~/.server/db/redirects";
import { nginxRedirectMap } from "~/.server/redirects/nginx-map";
import { runScript } from "./cli";

const file = path.resolve(process.argv[2] ?? "harrow-kline-redirects.map");

await runScript(async () => {
  const text = nginxRedirectMap(await allRedirects({ enabledOnly: true }));
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
  console.log(`${text.split("\n")[0].replace(/^# /, "")}\nWritten to ${file}.`);
});
