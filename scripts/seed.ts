/**
 * `npm run db:seed`: replaces all content (team, articles, headers, hours and
 * their pictures) with the demo content. Staff accounts are kept.
 * Refused while the server holds the embedded database.
 */
import { clearContent, seedDemoContent } from "~/.server/db/seed";
import { runScript } from "./cli";

await runScript(async () => {
  console.log("Removing existing content…");
  await clearContent();
  await seedDemoContent((message) => console.log(message));
});
