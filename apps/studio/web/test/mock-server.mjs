// A stand-in for `jourdain studio` while the C++ server is being written: the same API
// (apps/studio/README.md) over the CLI (describe, check, run), for trying the page in a
// browser. node test/mock-server.mjs FOLDER [PORT] (bundles from $STUDIO_OUT).
import http from "node:http";
import { execFile, spawn } from "node:child_process";
import { readFileSync, writeFileSync, readdirSync, statSync, existsSync, unlinkSync, mkdirSync } from "node:fs";
import { join, dirname, resolve, relative, basename } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSchematic, describe, portsOf, strip } from "./fixture.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const JOURDAIN = process.env.JOURDAIN || "/work/main/build/apps/cli/jourdain";
const OUT = process.env.STUDIO_OUT || "/tmp/studio-out";
const root = resolve(process.argv[2] || ".");
const port = Number(process.argv[3] || 0);
const TOKEN = "t0k3n";
const page = () => {
  const tpl = readFileSync(join(here, "../../../page/page.html"), "utf8");
  const css = ["../../../page/page.css", "../schematic.css", "../studio.css"].map(f => readFileSync(join(here, f), "utf8")).join("\n");
  const js = [join(here, "../../../page/plot.js"), join(OUT, "elk.js"), join(OUT, "schematic.js"), join(OUT, "studio.js")].map(f => readFileSync(f, "utf8")).join("\n;\n");
  return tpl.replace("{{title}}", "Jourdain Studio").replace("{{style}}", () => css).replace("{{data}}", "{}").replace("{{script}}", () => js);
};
const types = () => {
  const names = execFileSyncText([JOURDAIN, "list"]).split("\n").map(l => l.split(/\s+/)[0]).filter(Boolean);
  return names.map(t => ({ ...describe(t), library: t.split(".")[0] }));
};
function execFileSyncText(argv) { return require_exec(argv); }
import { execFileSync } from "node:child_process";
function require_exec(argv) { return execFileSync(argv[0], argv.slice(1), { encoding: "utf8" }); }
let typesCache = null;
const files = (dir, out = []) => {
  for (const f of readdirSync(dir)) {
    if (f.startsWith(".") || f === "results" || f === "node_modules") continue;
    const p = join(dir, f);
    if (statSync(p).isDirectory()) { if (relative(root, p).split("/").length < 3) files(p, out); }
    else if (f.endsWith(".json")) out.push(relative(root, p));
  }
  return out;
};
const inside = p => { const a = resolve(root, p); if (!a.startsWith(root + "/")) throw Object.assign(new Error("outside the workspace"), { status: 403 }); return a; };
const schematicOf = (text, path) => { try { return buildSchematic(JSON.parse(strip(text)), path); } catch (e) { throw Object.assign(new Error(String(e.message).split("\n")[0]), { status: 400 }); } };
const runs = new Map();
let runId = 0;
const body = req => new Promise(ok => { let b = ""; req.on("data", c => (b += c)); req.on("end", () => ok(b ? JSON.parse(b) : null)); });
const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, "http://x");
  const send = (status, data, type = "application/json") => {
    res.writeHead(status, { "Content-Type": type });
    res.end(type === "application/json" ? JSON.stringify(data) : data);
  };
  try {
    if ((req.headers["x-jourdain-token"] || url.searchParams.get("token")) !== TOKEN) return send(403, { error: "token" });
    if (url.pathname === "/") return send(200, page(), "text/html; charset=utf-8");
    if (url.pathname === "/api/workspace") return send(200, { root, files: files(root).sort(), initial: process.env.INITIAL || null });
    if (url.pathname === "/api/types") return send(200, { types: (typesCache = typesCache || types()), domains: [] });
    if (url.pathname === "/api/configure") {
      const b = await body(req);
      const d = describe(b.type);
      return send(200, { ...d, ports: portsOf(b.type, b.params) });
    }
    if (url.pathname === "/api/netlist") {
      const p = url.searchParams.get("path");
      const text = readFileSync(inside(p), "utf8");
      return send(200, { path: p, text, schematic: schematicOf(text, p) });
    }
    if (url.pathname === "/api/schematic") { const b = await body(req); return send(200, { schematic: schematicOf(b.text, b.path) }); }
    if (url.pathname === "/api/check") {
      const b = await body(req);
      const tmp = join(dirname(inside(b.path)), ".studio-check-" + process.pid + ".json");
      writeFileSync(tmp, b.text);
      execFile(JOURDAIN, ["check", tmp, "--json"], { encoding: "utf8" }, (err, out) => {
        try { unlinkSync(tmp); } catch {}
        try { send(200, JSON.parse(out)); } catch { send(500, { error: out }); }
      });
      return;
    }
    if (url.pathname === "/api/save") {
      const b = await body(req);
      const p = inside(b.path);
      const now = existsSync(p) ? readFileSync(p, "utf8") : null;
      if (now !== b.base) return send(409, { error: "the file changed on disk since it was opened" });
      if (now !== null && JSON.stringify(JSON.parse(strip(now))) === JSON.stringify(JSON.parse(b.text))) return send(200, { written: false, text: now });
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, b.text + "\n");
      return send(200, { written: true, text: b.text + "\n" });
    }
    if (url.pathname === "/api/run") {
      const b = await body(req);
      const id = String(++runId);
      const name = basename(b.path, ".json");
      const outDir = "results/" + name;
      const child = spawn(JOURDAIN, [b.analysis === "linearize" ? "linearize" : "run", inside(b.path), "-o", join(root, outDir), "--progress-lines"], { cwd: root });
      const r = { id, state: "running", progress: 0, t: 0, t_end: null, log: "", exit_code: null, report: null };
      runs.set(id, { r, child });
      child.stderr.on("data", d => {
        for (const line of String(d).split("\n")) {
          const m = /^progress (\S+) (\S+)/.exec(line);
          if (m) { r.t = Number(m[1]); r.t_end = Number(m[2]); r.progress = r.t_end ? r.t / r.t_end : 0; }
          else if (line.trim()) r.log = (r.log + line + "\n").split("\n").slice(-20).join("\n");
        }
      });
      child.stdout.on("data", d => { r.log = (r.log + d).split("\n").slice(-20).join("\n"); });
      child.on("close", code => {
        r.exit_code = code;
        if (r.state === "running") r.state = code === 0 ? "finished" : "failed";
        if (existsSync(join(root, outDir, "report.html"))) r.report = outDir + "/report.html";
        if (code === 0) r.progress = 1;
      });
      return send(200, { id });
    }
    const m = /^\/api\/runs\/(\w+)(\/cancel)?$/.exec(url.pathname);
    if (m) {
      const run = runs.get(m[1]);
      if (!run) return send(404, { error: "no such run" });
      if (m[2]) { run.r.state = "cancelled"; run.child.kill(); }
      return send(200, run.r);
    }
    if (url.pathname.startsWith("/files/")) {
      const p = inside(decodeURIComponent(url.pathname.slice(7)));
      return send(200, readFileSync(p), p.endsWith(".html") ? "text/html; charset=utf-8" : "text/plain");
    }
    send(404, { error: "not found" });
  } catch (e) {
    send(e.status || 500, { error: String(e.message || e) });
  }
});
server.listen(port, "127.0.0.1", () => console.log("http://127.0.0.1:" + server.address().port + "/?token=" + TOKEN));
