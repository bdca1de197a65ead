/** Pictures inside article bodies: the src pattern, names in text, the alt check and the public page's <picture>. */
import { describe, expect, it } from "vitest";
import { BODY_PICTURE_SRC, bodyPictureNames, checkAlt, isBodyPictureName, MAX_ALT, responsiveBodyPictures } from "./body-pictures";

const NAME = "body-0b1c2d3e-4f50-4a6b-8c7d-123456789012.png";
const SRC = `/images/articles/${NAME}`;

describe("body pictures", () => {
  it("accepts only the fixed src of a stored body picture", () => {
    expect(BODY_PICTURE_SRC.exec(SRC)?.[1]).toBe(NAME);
    for (const bad of [
      `${SRC}?x`,
      `https://x.example${SRC}`,
      SRC.replace("articles", "team"),
      SRC.replace(".png", ".svg"),
      SRC.replace("body-", ""),
      SRC.toUpperCase(),
      `${SRC}/`,
    ]) {
      expect(BODY_PICTURE_SRC.test(bad), bad).toBe(false);
    }
    expect(isBodyPictureName(NAME)).toBe(true);
    expect(isBodyPictureName(`../${NAME}`)).toBe(false);
  });

  it("finds each named picture once, in HTML or JSON", () => {
    expect(bodyPictureNames(`<img src="${SRC}" alt="a"><img src="${SRC}" alt="b">`)).toEqual([NAME]);
    expect(bodyPictureNames(JSON.stringify({ copy: `<p>x</p><img src="${SRC}" alt="c">` }))).toEqual([NAME]);
    expect(bodyPictureNames(null)).toEqual([]);
  });

  it("checks the alt text: trimmed, required, at most MAX_ALT characters", () => {
    expect(checkAlt("  Two   words ")).toEqual({ ok: true, alt: "Two words" });
    expect(checkAlt(" ").ok).toBe(false);
    expect(checkAlt(undefined).ok).toBe(false);
    expect(checkAlt("x".repeat(MAX_ALT)).ok).toBe(true);
    expect(checkAlt("x".repeat(MAX_ALT + 1)).ok).toBe(false);
  });

  it("turns a sanitised body picture into a responsive, lazy <picture>; leaves anything else alone", () => {
    const html = responsiveBodyPictures(`<p>a</p><img src="${SRC}" alt="A &amp; B" width="600" height="400" /><p>b</p>`);
    expect(html).toBe(
      `<p>a</p><picture><source type="image/avif" srcset="/images/articles/${NAME.replace(".png", "")}-480.avif 480w, /images/articles/${NAME.replace(".png", "")}-960.avif 600w" sizes="(min-width: 768px) 600px, 100vw" />` +
        `<img src="/images/articles/${NAME.replace(".png", "")}-960.webp" srcset="/images/articles/${NAME.replace(".png", "")}-480.webp 480w, /images/articles/${NAME.replace(".png", "")}-960.webp 600w" sizes="(min-width: 768px) 600px, 100vw" alt="A &amp; B" width="600" height="400" loading="lazy" decoding="async" /></picture><p>b</p>`,
    );
    expect(responsiveBodyPictures("<p>no pictures</p>")).toBe("<p>no pictures</p>");
    const other = `<img src="/images/articles/x.png" alt="x" />`;
    expect(responsiveBodyPictures(other)).toBe(other);
    // The base is only ever a URL; a quote in it cannot end the attribute.
    expect(responsiveBodyPictures(`<img src="${SRC}" alt="x" />`, 'https://cdn.example/"x')).not.toContain('"x/');
  });
});
