import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { missingNodeArgs, PRODUCTION_NODE_ARGS } from "./node-args.js";

const root = path.resolve(import.meta.dirname, "..");
const command = `node ${PRODUCTION_NODE_ARGS.join(" ")} server.js`;

describe("the production node arguments (decision 0018)", () => {
  it("are what npm start, npm run serve and the systemd unit start node with", () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts.start).toBe(`react-router build && NODE_ENV=production ${command}`);
    expect(scripts.serve).toBe(`NODE_ENV=production ${command}`);
    const unit = fs.readFileSync(path.join(root, "deploy/systemd/harrow-kline.service"), "utf8");
    expect(unit).toMatch(new RegExp(`^ExecStart=/srv/harrow-kline/node_modules/.bin/${command}$`, "m"));
  });

  it("are missing when neither the command line nor NODE_OPTIONS gives their flag", () => {
    expect(missingNodeArgs([], "")).toEqual(PRODUCTION_NODE_ARGS);
    expect(missingNodeArgs(["--inspect"], "--max-old-space-size=512")).toEqual(PRODUCTION_NODE_ARGS);
    expect(missingNodeArgs(["--max-semi-space-size=32"], "")).toEqual([]);
    expect(missingNodeArgs([], "--enable-source-maps --max-semi-space-size=32")).toEqual([]);
    // V8 reads _ as -, and another value is someone's choice.
    expect(missingNodeArgs(["--max_semi_space_size=48"], "")).toEqual([]);
  });
});
