// A report.html with a schematic: the data of a report jourdain wrote, plus a schematic
// object (test/fixture.mjs), rendered with the page toolkit's files as report.html
// inlines them. node test/report.cjs REPORT.html SCHEMATIC.json OUT.png [CLICK_NAME] [LEVEL]
const { chromium } = require("playwright-core");
const fs = require("fs"), path = require("path");
const [report, schematic, out, click, level] = process.argv.slice(2);
const page_dir = path.join(__dirname, "../../../page"), built = process.env.STUDIO_OUT || "/tmp/studio-out";
const m = /<script id="report-data" type="application\/json">([\s\S]*?)<\/script>/.exec(fs.readFileSync(report, "utf8"));
const data = JSON.parse(m[1]);
data.schematic = JSON.parse(fs.readFileSync(schematic, "utf8"));
const read = f => fs.readFileSync(f, "utf8");
const html = read(path.join(page_dir, "page.html")).replace("{{title}}", "report")
  .replace("{{style}}", () => [read(path.join(page_dir, "page.css")), read(path.join(page_dir, "report.css")), read(path.join(__dirname, "../schematic.css"))].join("\n"))
  .replace("{{data}}", () => JSON.stringify(data).replace(/</g, "\\u003c"))
  .replace("{{script}}", () => [read(path.join(page_dir, "plot.js")), read(path.join(built, "elk.js")), read(path.join(built, "schematic.js")), read(path.join(page_dir, "report.js"))].join("\n;\n"));
fs.writeFileSync(out.replace(/\.png$/, ".html"), html);
(async () => {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = [];
  page.on("pageerror", e => errors.push(String(e)));
  await page.goto("file://" + path.resolve(out.replace(/\.png$/, ".html")));
  await page.waitForFunction(() => document.body.dataset.reportReady || document.body.dataset.reportError, null, { timeout: 30000 });
  await page.waitForTimeout(1500);
  if (level) { await page.dblclick(`g.component[data-name="${level}"]`); await page.waitForTimeout(800); }
  if (click) { await page.click(`g.component[data-name="${click}"] .body`); await page.waitForTimeout(300); }
  const info = await page.evaluate(() => ({ error: document.body.dataset.reportError, first: document.querySelector("main > section.card") && document.querySelector("main > section.card").id,
    components: document.querySelectorAll("#schematic g.component").length, wires: document.querySelectorAll("#schematic path.wire").length,
    linked: document.querySelectorAll(".plot.linked").length, info: document.getElementById("schematic-info") && document.getElementById("schematic-info").innerText.slice(0, 300) }));
  console.log(JSON.stringify(info), errors.join(" | "));
  await page.screenshot({ path: out, fullPage: false });
  await browser.close();
})().catch(e => { console.error(e); process.exit(1); });
