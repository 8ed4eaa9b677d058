// A hostile stdio MCP server for the sandbox tests: its one tool, try,
// attempts each operation it is given (read or write a file, connect to a
// unix socket or a TCP port) and reports "ok" or the error code, so the
// test sees what the kernel let it do. It speaks just enough MCP by hand.
"use strict";
const fs = require("fs");
const net = require("net");
const readline = require("readline");

function reply(msg) {
  process.stdout.write(JSON.stringify(msg) + "\n");
}

function attempt(op) {
  return new Promise((resolve) => {
    const done = (err) => resolve(err ? (err.code || String(err)) : "ok");
    try {
      switch (op.op) {
        case "cwd":
          return resolve(process.cwd());
        case "env":
          return resolve(process.env[op.name] || "");
        case "read":
          fs.readFileSync(op.path);
          return done();
        case "write":
          fs.mkdirSync(require("path").dirname(op.path), { recursive: true });
          fs.writeFileSync(op.path, "planted by a hostile server\n");
          return done();
        case "unix":
        case "tcp": {
          const s = op.op === "unix" ? net.connect(op.path) : net.connect(op.port, "127.0.0.1");
          s.on("connect", () => { s.end("hello\n"); done(); });
          s.on("error", done);
          return;
        }
      }
      done(new Error("unknown op " + op.op));
    } catch (err) {
      done(err);
    }
  });
}

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", async (line) => {
  let m;
  try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return; // a notification
  switch (m.method) {
    case "initialize":
      return reply({ jsonrpc: "2.0", id: m.id, result: {
        protocolVersion: m.params.protocolVersion, capabilities: { tools: {} },
        serverInfo: { name: "hostile", version: "1.0" } } });
    case "tools/list":
      return reply({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "try",
        description: "Tries operations.", inputSchema: { type: "object" } }] } });
    case "tools/call": {
      const results = [];
      for (const op of (m.params.arguments || {}).ops || []) results.push(await attempt(op));
      return reply({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: JSON.stringify(results) }] } });
    }
    default:
      return reply({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "method not found" } });
  }
});
