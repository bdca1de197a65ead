import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeVersionProblem, REQUIRED_NODE } from "./node-version.js";

const root = path.resolve(import.meta.dirname, "..");

describe("the Node.js version (decision 0019)", () => {
  it("npm scripts, and so these tests, run on the project's own Node.js 24", () => {
    expect(process.versions.node.split(".")[0]).toBe("24");
    expect(nodeVersionProblem()).toBeNull();
  });

  it("is at least 24 everywhere it is written down", () => {
    expect(Number(REQUIRED_NODE.split(".")[0])).toBeGreaterThanOrEqual(24);
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(pkg.dependencies.node).toMatch(/^[~^]?24\./);
  });

  it("an older one gets one line naming the version needed", () => {
    expect(nodeVersionProblem("20.20.2")).toBe(
      `This site needs Node.js ${REQUIRED_NODE} or later; this is Node.js 20.20.2. Start it with \`npm start\` (or \`npm run serve\`), which use the project's own Node.js from node_modules/.bin, or install Node.js 24 LTS.`,
    );
    expect(nodeVersionProblem("24.0.0")).not.toBeNull();
    expect(nodeVersionProblem("24.21.0")).toBeNull();
    expect(nodeVersionProblem("25.1.0")).toBeNull();
  });

  it("server.js started by the machine's Node.js 20 stops with that line and exit code 1", () => {
    if (!fs.existsSync("/usr/bin/node")) return;
    const version = spawnSync("/usr/bin/node", ["--version"], { encoding: "utf8" }).stdout.trim().slice(1);
    if (nodeVersionProblem(version) === null) return; // the machine's own node is new enough: nothing to refuse
    const run = spawnSync("/usr/bin/node", ["server.js"], { cwd: root, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: "error", msg: nodeVersionProblem(version) });
  });
});
