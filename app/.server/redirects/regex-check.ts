/**
 * A redirect's regular expression is checked before it is saved, so that no
 * address can make the server spend seconds matching it (catastrophic
 * backtracking, "ReDoS"). Two checks, either refuses:
 *
 * 1. `safe-regex2` (fastify's, small and maintained): a repetition inside a
 *    repetition (star height above one, such as `(a+)+`) is refused;
 * 2. a trial under a time limit: the expression is run (in a `vm` context,
 *    which V8 interrupts) against long strings made of the characters the
 *    pattern itself names, each followed by one that cannot match, the
 *    input that makes overlapping alternatives such as `(a|a)*$` explode.
 *    More than TRIAL_MS for all of them refuses the pattern.
 *
 * Requests are at most 1,024 characters long (paths.ts MAX_PATH); the trial
 * strings are longer, so a pattern that passes is fast on any request.
 */
import vm from "node:vm";
import safeRegex from "safe-regex2";

export const MAX_PATTERN = 500;
const TRIAL_MS = 150;
const TRIAL_LENGTH = 4000;

export type RegexCheck = { ok: true; regex: RegExp } | { ok: false; message: string };

/** Characters worth repeating for a pattern: its literal characters and one example of each class it uses. */
function trialCharacters(pattern: string): string[] {
  const chars = new Set<string>(["a", "0", "/", "-", ".", "_", " "]);
  for (const ch of pattern.replace(/\\[a-zA-Z]/g, ""))
    if (/[\p{L}\p{N}\p{P}\p{S}]/u.test(ch) && !"()[]{}|*+?^$\\".includes(ch)) chars.add(ch);
  if (/\\d/.test(pattern)) chars.add("7");
  if (/\\s/.test(pattern)) chars.add("\t");
  return [...chars].slice(0, 40);
}

/** The pattern compiled, or a refusal in words. */
export function checkRegex(pattern: string): RegexCheck {
  if (!pattern.trim()) return { ok: false, message: "Enter a regular expression, for example ^/blog/(.*)$." };
  if (pattern.length > MAX_PATTERN) return { ok: false, message: `The regular expression is longer than ${MAX_PATTERN} characters.` };
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, "i");
  } catch (error) {
    return {
      ok: false,
      message: `This is not a valid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, "")}.`,
    };
  }
  if (!safeRegex(regex)) {
    return {
      ok: false,
      message:
        "This regular expression repeats a group that itself repeats (such as (a+)+): some addresses would make it run for minutes. Rewrite it without the nested repetition.",
    };
  }
  const trials = trialCharacters(pattern).flatMap((ch) => [ch.repeat(TRIAL_LENGTH) + "\u0001", `/${ch.repeat(TRIAL_LENGTH)}/\u0001`]);
  try {
    vm.runInNewContext("for (const s of trials) regex.test(s);", { regex, trials }, { timeout: TRIAL_MS });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      return {
        ok: false,
        message:
          "This regular expression takes too long on some addresses (its alternatives or repetitions overlap, such as (a|a)*). Rewrite it so that each part can match in only one way.",
      };
    }
    throw error;
  }
  return { ok: true, regex };
}
