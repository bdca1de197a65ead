/** A mailing's progress as the dashboard shows it (db/mailings.ts counts it; components/admin/mailing-progress.tsx words it). */
export type MailingProgress = {
  status: string;
  topics: string[];
  total: number;
  sent: number;
  failed: number;
  skipped: number;
  waiting: number;
};
