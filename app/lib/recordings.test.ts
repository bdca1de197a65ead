import { describe, expect, it } from "vitest";
import { captionsFileProblem, CAPTIONS_MAX_BYTES, isCaptionsKey, isRecordingKey, vttTranscript } from "./recordings";

describe("captions of an uploaded recording", () => {
  it("a captions key is a .vtt beside the recordings, and is not a recording", () => {
    const key = "recordings/0f8c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b.vtt";
    expect(isCaptionsKey(key)).toBe(true);
    expect(isRecordingKey(key)).toBe(false);
    expect(isCaptionsKey("recordings/0f8c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b.mp4")).toBe(false);
    expect(isCaptionsKey("recordings/../secret.vtt")).toBe(false);
    expect(isCaptionsKey("https://video.example.com/talk.vtt")).toBe(false);
  });

  it("the form's check before sending says what is wrong in words", () => {
    expect(captionsFileProblem({ name: "talk.vtt", size: 100 })).toBeUndefined();
    expect(captionsFileProblem({ name: "TALK.VTT", size: 100 })).toBeUndefined();
    expect(captionsFileProblem({ name: "talk.srt", size: 100 })).toBe(
      "“talk.srt” is not a captions file this site can use. Choose a WebVTT file (its name ends in .vtt and its first line is WEBVTT); most captioning services and video editors can save one.",
    );
    expect(captionsFileProblem({ name: "talk.vtt", size: 0 })).toBe("The captions file is empty. Choose the file again.");
    expect(captionsFileProblem({ name: "talk.vtt", size: CAPTIONS_MAX_BYTES + 1 })).toBe(
      "The captions file is larger than 2 MB, the most this site takes. Check that you chose the captions and not the recording.",
    );
  });

  it("a transcript is the cues' words: no timings, identifiers, notes or tags; a speaker named; markup left as text", () => {
    const vtt = [
      "\uFEFFWEBVTT - Coverage review",
      "",
      "NOTE recorded at the firm's offices",
      "",
      "1",
      "00:00:01.000 --> 00:00:04.000 align:start",
      "<v Ana Rossi>Good morning, <i>everyone</i>.",
      "",
      "00:00:04.500 --> 00:00:08.000",
      "Today: duty to defend",
      "and duty to indemnify.",
      "",
      "00:00:08.000 --> 00:00:09.000",
      "<script>alert(1)</script> &lt;b&gt; &amp; more",
      "",
    ].join("\r\n");
    expect(vttTranscript(vtt)).toEqual([
      "Ana Rossi: Good morning, everyone.",
      "Today: duty to defend and duty to indemnify.",
      "alert(1) <b> & more",
    ]);
    expect(vttTranscript("WEBVTT\n")).toEqual([]);
  });
});
