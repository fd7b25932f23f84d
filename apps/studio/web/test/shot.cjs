// Draws fixtures (test/fixture.mjs) with the built renderer in headless Chromium and
// takes screenshots: node test/shot.cjs OUTDIR FIXTURE.json... (the bundles in
// $STUDIO_OUT, /tmp/studio-out by default). Prints each page's counts and errors.
const { chromium } = require("playwright-core");
const fs = require("fs"), path = require("path");
const built = process.env.STUDIO_OUT || "/tmp/studio-out";
const page_css = fs.readFileSync(path.join(__dirname, "../../../page/page.css"), "utf8");
const css = fs.readFileSync(path.join(__dirname, "../schematic.css"), "utf8");
const [outdir, ...fixtures] = process.argv.slice(2);
const launch = () => chromium.launch({ executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"] });
(async () => {
  const browser = await launch();
  for (const f of fixtures) {
    const data = fs.readFileSync(f, "utf8");
    const level = process.env.LEVEL || "";
    const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${page_css}\n${css}\nsvg.jourdain-schematic{height:680px}</style></head>
<body><main><section class="card"><div id="s"></div></section></main>
<script>${fs.readFileSync(path.join(built, "elk.js"), "utf8")}</script>
<script>${fs.readFileSync(path.join(built, "schematic.js"), "utf8")}</script>
<script>
window.onerror = (m, s, l) => { document.body.dataset.error = m + " line " + l; };
const S = ${data.replace(/</g, "\\u003c")};
const t0 = performance.now();
const v = JourdainSchematic.mount(document.getElementById("s"), S, { level: ${JSON.stringify(level)}, onSelect: (n, l) => { document.body.dataset.selected = l + ":" + n; } });
v.ready.then(() => { document.body.dataset.ms = String(performance.now() - t0); document.body.dataset.ready = "1"; },
             e => { document.body.dataset.error = String(e && e.stack || e); });
window.view = v;
</script></body></html>`;
    const page = await browser.newPage({ viewport: { width: 1300, height: 800 } });
    const errors = [];
    page.on("pageerror", e => errors.push(String(e)));
    page.on("console", m => { if (m.type() === "error") errors.push(m.text()); });
    await page.setContent(html);
    await page.waitForFunction(() => document.body.dataset.ready || document.body.dataset.error, null, { timeout: 60000 });
    const info = await page.evaluate(() => ({ error: document.body.dataset.error, ms: document.body.dataset.ms,
      components: document.querySelectorAll("g.component").length, wires: document.querySelectorAll("path.wire").length,
      ports: document.querySelectorAll("circle.port").length }));
    const name = path.basename(f, ".json") + (level ? "_" + level.replace(/\//g, "_") : "");
    await page.screenshot({ path: path.join(outdir, name + ".png"), fullPage: true });
    console.log(name, JSON.stringify(info), errors.join(" | "));
    await page.close();
  }
  await browser.close();
})().catch(e => { console.error(e); process.exit(1); });
