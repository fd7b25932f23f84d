// Bundles the page's TypeScript for the page toolkit (apps/studio/README.md):
//   node build.mjs OUTDIR
// writes OUTDIR/schematic.js (global JourdainSchematic), OUTDIR/studio.js (the editor)
// and OUTDIR/elk.js (elkjs' bundled build, global ELK). esbuild only strips the types:
// `npm run typecheck` is what checks them.
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2];
if (!out) {
  console.error("usage: node build.mjs OUTDIR");
  process.exit(2);
}
const outdir = resolve(out);
mkdirSync(outdir, { recursive: true });

const common = {
  bundle: true,
  format: "iife",
  target: "es2020",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  // The bundles are inlined into one <script> of a page: no source map files beside them.
  sourcemap: false,
};
await Promise.all([
  build({ ...common, entryPoints: [join(here, "src/schematic/index.ts")], outfile: join(outdir, "schematic.js"),
          globalName: "JourdainSchematic" }),
  build({ ...common, entryPoints: [join(here, "src/studio/index.ts")], outfile: join(outdir, "studio.js") }),
]);
copyFileSync(join(here, "node_modules/elkjs/lib/elk.bundled.js"), join(outdir, "elk.js"));
