import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Static assets are served from the site root (spec section 9). Pages, layouts and status pages are
// split by lazy route imports (src/routes/tree.ts), so antd components land in the chunk of the route
// that uses them.
export default defineConfig({
  base: "/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    // dist/.vite/manifest.json: used by scripts/route-size.mjs to sum the chunks a route loads.
    manifest: true,
  },
});
