// `npm run dev`: the API with reload on change, and Vite's dev server (proxying the API) for the web app.
import { spawn } from "node:child_process";

const children = [
  spawn("npx", ["tsx", "watch", "--clear-screen=false", "launcher/main.ts"], { stdio: "inherit" }),
  spawn("npm", ["run", "dev", "-w", "@yuelu/web"], { stdio: "inherit" }),
];
const stop = () => {
  for (const c of children) c.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const c of children)
  c.on("exit", (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
