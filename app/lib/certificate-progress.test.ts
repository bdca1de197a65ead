import { describe, expect, it } from "vitest";
import { certificateProgressText, certificateSending, type CertificateProgress } from "./certificate-progress";

const p = (over: Partial<CertificateProgress>): CertificateProgress => ({
  jobId: "j",
  status: "running",
  sent: 12,
  total: 40,
  deferred: 0,
  error: "",
  ...over,
});

describe("the sending of certificates in words", () => {
  it("says where it is, what failed and what to do", () => {
    expect(certificateProgressText(p({ status: "queued", sent: 0 }))).toBe("Sending certificates: waiting to start (40 to send).");
    expect(certificateProgressText(p({}))).toBe("Sending certificates: 12 of 40.");
    expect(certificateProgressText(p({ status: "retrying", error: "the server stopped while sending." }))).toBe(
      "Sending certificates: 12 of 40. A try failed: the server stopped while sending. It is tried again automatically in a minute or so; nobody receives theirs twice.",
    );
    expect(certificateProgressText(p({ status: "failed", error: "an error occurred." }))).toBe(
      "Sending certificates stopped after 12 of 40: an error occurred. Press Send certificates to send the rest; nobody receives theirs twice.",
    );
    expect(certificateProgressText(p({ status: "done", sent: 1, total: 1 }))).toBe("Certificates of attendance sent to 1 person.");
    expect(certificateProgressText(p({ status: "done", sent: 40, deferred: 2 }))).toBe(
      "Certificates of attendance sent to 38 people. The e-mail server did not take 2 more yet: the Outbox tries again, and each goes once.",
    );
  });

  it("is under way while queued, running or waiting for its next try", () => {
    expect(["queued", "running", "retrying", "done", "failed"].map((status) => certificateSending(p({ status } as never)))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(certificateSending(null)).toBe(false);
  });
});
