import { describe, expect, it } from "vitest";
import { imageSrcSet, imageUrl, parseVariantKey } from "./images";

describe("picture URLs", () => {
  it("point at this site's /images by default, and at PICTURE_BASE_URL when given", () => {
    expect(imageUrl("team", "ab12.jpg")).toBe("/images/team/ab12.jpg");
    expect(imageUrl("team", "ab12.jpg", "https://pictures.example.com")).toBe("https://pictures.example.com/team/ab12.jpg");
    expect(imageSrcSet("articles", "cd34.png", "avif", "https://cdn.example.com/firm")).toBe(
      "https://cdn.example.com/firm/articles/cd34-480.avif 480w, https://cdn.example.com/firm/articles/cd34-960.avif 960w",
    );
    expect(imageSrcSet("team", "ab12.jpg")).toBe("/images/team/ab12-320.webp 320w, /images/team/ab12-640.webp 640w");
  });

  it("uses the placeholder (never the base) when there is no picture", () => {
    expect(imageUrl("team", "", "https://pictures.example.com")).toBe("/placeholder-portrait.svg");
    expect(imageUrl("articles", "none", "https://pictures.example.com")).toBe("/placeholder-article.svg");
    expect(imageSrcSet("team", "none", "webp", "https://pictures.example.com")).toBeUndefined();
  });

  it("knows the widths a key may name", () => {
    expect(parseVariantKey("team/ab12-640.avif")).toEqual({ kind: "team", stem: "ab12", width: 640, format: "avif" });
    expect(parseVariantKey("team/ab12-961.avif")).toBeUndefined();
  });
});
