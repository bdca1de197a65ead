/**
 * A mailing ready to go out on a site's PostgreSQL database: `subscribers`
 * confirmed subscribers of one topic and a published article of it, set to be
 * sent to them ("Send to subscribers"). Used by tests/e2e/mailing-kill.test.ts
 * and `npm run bench:mail`; the instances running on that database send it.
 */
import { sql } from "drizzle-orm";
import { systemActor } from "~/.server/db/audit";
import { createArticle } from "~/.server/db/articles";
import { openDatabase, setDatabase } from "~/.server/db/client";
import { scheduleMailing } from "~/.server/db/mailings";
import { subscribers } from "~/.server/db/schema";
import type { SubscriptionTopic } from "~/lib/forms/subscribe";

export async function mailingReady(
  databaseUrl: string,
  /** `people`: the subscribers' addresses are `${people}${n}@example.com` (default "reader"); `title`: the article's. */
  options: { subscribers: number; topic: SubscriptionTopic; people?: string; title?: string },
): Promise<{ articleId: number; mailingTopics: string[]; recipients: string[] }> {
  const database = await openDatabase({ url: databaseUrl });
  setDatabase(database);
  try {
    const actor = systemActor("mailing test");
    // Confirmed subscribers (the form and the confirmation link are tested elsewhere; here only their number matters).
    await database.db.execute(sql`
      insert into ${subscribers} (email, status, topics, source, confirmed_at)
      select ${options.people ?? "reader"} || g || '@example.com', 'confirmed', array[${options.topic}]::text[], 'web', now()
      from generate_series(1, ${options.subscribers}) g
      on conflict do nothing`);
    const article = await createArticle(
      {
        title: options.title ?? "Ransomware: the first 72 hours",
        img: "",
        category: options.topic,
        news: false,
        priority: false,
        copy: "<p>What to do, and in what order, when the files are encrypted.</p>",
        state: { status: "published" },
      },
      actor,
    );
    await scheduleMailing(article.id, [options.topic], actor, article.title);
    const rows = await database.db
      .select({ email: subscribers.email })
      .from(subscribers)
      .where(sql`${subscribers.status} = 'confirmed' and ${subscribers.topics} && array[${options.topic}]::text[]`);
    return { articleId: article.id, mailingTopics: [options.topic], recipients: rows.map((r) => r.email.toLowerCase()) };
  } finally {
    setDatabase(undefined);
    await database.close();
  }
}
