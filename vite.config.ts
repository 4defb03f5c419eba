import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  build: {
    target: "es2022",
    rolldownOptions: {
      output: {
        // One "shell" chunk for what several routes share (React, React Router, the top-level
        // components, app/lib, the icons) instead of ~20 small ones: / loads 5 files instead of 23,
        // 123.2 → 120.3 KB gzip (small files compress worse), and every later page finds it cached.
        codeSplitting: {
          groups: [
            {
              name: "shell",
              test: /[\\/]app[\\/](components[\\/][^\\/]+\.tsx|lib[\\/])|[\\/]lucide-react[\\/]/,
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
});
