// Drives the studio page in headless Chromium: node test/studio.cjs URL OUTDIR
// (against the mock server or `jourdain studio`). Each step prints what it saw.
const { chromium } = require("playwright-core");
const path = require("path");
const [url, outdir] = process.argv.slice(2);
const shot = (page, name) => page.screenshot({ path: path.join(outdir, name + ".png") });
(async () => {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"] });
  const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  const errors = [];
  page.on("pageerror", e => errors.push(String(e)));
  page.on("console", m => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === "1", null, { timeout: 30000 });
  const idle = () => page.waitForFunction(() => !document.body.dataset.busy, null, { timeout: 30000 }).then(() => page.waitForTimeout(500))
    .then(() => page.waitForFunction(() => !document.body.dataset.busy, null, { timeout: 30000 }));
  await idle();
  const counts = () => page.evaluate(() => ({ components: document.querySelectorAll("g.component").length,
    wires: document.querySelectorAll("path.wire").length, diagnostics: [...document.querySelectorAll("#diagnostics li")].map(l => l.dataset.path + " " + l.textContent).slice(0, 6),
    message: document.getElementById("message").textContent, errors: document.querySelectorAll("g.component.has-error").length,
    editMs: document.body.dataset.editMs, moveMs: document.body.dataset.moveMs }));
  console.log("loaded", JSON.stringify(await counts()));
  await shot(page, "studio-1-loaded");
  // Add a mass by dragging it from the palette onto the canvas.
  await page.fill("#palette-search", "mass");
  await page.dragAndDrop('[data-palette-type="mechanical1d.mass"]', "svg.jourdain-schematic", { targetPosition: { x: 600, y: 420 } });
  await idle();
  console.log("added mass", JSON.stringify(await counts()));
  // A wire from the new mass's port to the spring's a (a state side to a response side already taken: refused or not).
  const port = (c, p) => page.locator(`g.component[data-name="${c}"] circle.port[data-port="${p}"]`);
  const drag = async (from, to) => {
    const a = await from.boundingBox(), b = await to.boundingBox();
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
    await page.mouse.up();
  };
  await drag(port("mass2", "p"), port("mass", "p"));
  await idle();
  console.log("wire state-state", JSON.stringify(await counts()));
  // Select the spring and set its stiffness in kN/m.
  await page.locator('g.component[data-name="spring"]').click();
  await page.fill('input[data-param="stiffness"]', "2");
  await page.selectOption('select[data-unit-for="stiffness"]', "kN/m");
  await idle();
  console.log("stiffness", await page.evaluate(() => JSON.stringify(window.studio.netlist.components.spring.params)));
  await page.fill('input[data-param="stiffness"]', "-5");
  await page.press('input[data-param="stiffness"]', "Tab");
  await idle();
  console.log("bad stiffness", JSON.stringify(await counts()), await page.evaluate(() => [...document.querySelectorAll("#params .panel-msg")].map(e => e.textContent).join(" | ")));
  await shot(page, "studio-2-bad-value");
  // Move the mass: drag its body.
  const m = await page.locator('g.component[data-name="mass"] .body').boundingBox();
  await page.mouse.move(m.x + m.width / 2, m.y + m.height / 2);
  await page.mouse.down();
  await page.mouse.move(m.x + m.width / 2 + 60, m.y + m.height / 2 + 40, { steps: 5 });
  await page.mouse.up();
  console.log("moved", await page.evaluate(() => JSON.stringify(window.studio.netlist.layout.components.mass)), JSON.stringify(await counts()));
  // Undo back to the file.
  for (let k = 0; k < 10; ++k) await page.keyboard.press("Control+z");
  await idle();
  console.log("undone", await page.evaluate(() => JSON.stringify(window.studio.undoStack.length) + " " + (window.studio.text() === JSON.stringify(JSON.parse(window.studio.base), null, 2))));
  await page.keyboard.press("Control+y");
  await idle();
  console.log("redo", JSON.stringify(await counts()));
  await shot(page, "studio-3");
  // A subsystem from the spring and the damper, opened and left.
  await page.evaluate(() => window.studio.select(["spring", "damper"]));
  await page.click("#subsystem");
  await idle();
  console.log("subsystem", JSON.stringify(await counts()), await page.evaluate(() => JSON.stringify(window.studio.netlist.connections)));
  await page.dblclick('g.component[data-name="subsystem"] .body');
  await page.waitForTimeout(800);
  console.log("inside", JSON.stringify(await counts()), await page.evaluate(() => document.querySelector(".schematic-crumbs").innerText));
  await shot(page, "studio-4-inside");
  await page.click('.schematic-crumbs a.crumb');
  await page.waitForTimeout(500);
  // Save and run; the report shows in the iframe.
  await page.click("#run");
  await page.waitForFunction(() => document.getElementById("report").getAttribute("src") || /failed|refused|Not saved/i.test(document.getElementById("message").textContent), null, { timeout: 60000 });
  console.log("run", await page.evaluate(() => document.getElementById("message").textContent + " | " + document.getElementById("report").getAttribute("src")));
  await page.waitForTimeout(1500);
  await shot(page, "studio-5-run");
  console.log("errors", errors.join(" | "));
  await browser.close();
})().catch(e => { console.error(e); process.exit(1); });
