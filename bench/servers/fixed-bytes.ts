/**
 * Reference server for the HTTP section: plain node:http answering every request with the same
 * bytes (the shop's rendered home page) and content-type. Run as a child process:
 *   node bench/servers/fixed-bytes.ts <body-file> <content-type> [port]
 * Prints `LISTENING <port>` when ready.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [file, contentType = "text/html; charset=utf-8", portArg = "0"] = process.argv.slice(2);
if (!file) throw new Error("usage: fixed-bytes.ts <body-file> <content-type> [port]");
const body = readFileSync(file);
const length = String(body.length);

const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": contentType, "content-length": length });
  res.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(Number(portArg), "127.0.0.1", () => {
  const address = server.address();
  console.log(`LISTENING ${typeof address === "object" && address ? address.port : portArg}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
