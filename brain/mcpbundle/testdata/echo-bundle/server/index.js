// A small MCP server over stdio (newline-delimited JSON-RPC), with no
// dependency but the bundled node_modules/greet, for the bundle tests.
const fs = require("fs");
const readline = require("readline");
const greet = require("greet");

const tools = [
  { name: "greet", description: "Greets someone.", inputSchema: { type: "object", properties: { who: { type: "string" } } }, annotations: { readOnlyHint: true } },
  { name: "check_key", description: "Says whether the API key arrived.", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "read_file", description: "Reads a file.", inputSchema: { type: "object", properties: { path: { type: "string" } } }, annotations: { readOnlyHint: true } },
];

function send(msg) { process.stdout.write(JSON.stringify(msg) + "\n"); }
function text(id, t) { send({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: t }] } }); }

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let req;
  try { req = JSON.parse(line); } catch { return; }
  if (req.id === undefined) return; // a notification
  switch (req.method) {
    case "initialize":
      send({ jsonrpc: "2.0", id: req.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} },
        serverInfo: { name: "echo-bundle", version: "1.2.0" } } });
      return;
    case "ping":
      send({ jsonrpc: "2.0", id: req.id, result: {} });
      return;
    case "tools/list":
      send({ jsonrpc: "2.0", id: req.id, result: { tools } });
      return;
    case "tools/call": {
      const args = req.params.arguments || {};
      if (req.params.name === "greet") return text(req.id, greet(args.who) + " (greeting " + process.env.GREETING_STYLE + ")");
      if (req.params.name === "check_key") return text(req.id, /^sk-[a-z0-9-]{8,}$/.test(process.env.API_KEY || "") ? "key ok" : "key missing");
      if (req.params.name === "read_file") {
        try { return text(req.id, "read " + fs.readFileSync(args.path).length + " bytes"); }
        catch (e) { return text(req.id, "refused: " + e.code); }
      }
    }
  }
  send({ jsonrpc: "2.0", id: req.id, error: { code: -32601, message: "no such method: " + req.method } });
});
