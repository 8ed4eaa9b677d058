// An MCP server (stdio) with one resource, pics://logo.png: a 2x2 grey PNG.
// Run as: node image-resource-server.cjs SDK_DIR (the folder holding
// @modelcontextprotocol/sdk, as mcptest installs it).
const path = require("path");
const sdk = path.join(process.argv[2], "node_modules", "@modelcontextprotocol", "sdk", "dist", "cjs");
const { McpServer } = require(path.join(sdk, "server", "mcp.js"));
const { StdioServerTransport } = require(path.join(sdk, "server", "stdio.js"));

const png = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAAAAABX3VL4AAAAEklEQVR4nGJiYGBiYAAEAAD//wAYAAV4jI74AAAAAElFTkSuQmCC";
const server = new McpServer({ name: "pics", version: "1.0.0" });
server.registerResource("logo", "pics://logo.png", { mimeType: "image/png", description: "The logo." },
  async (uri) => ({ contents: [{ uri: uri.href, mimeType: "image/png", blob: png }] }));
// Wrasse lists a server's tools when it starts: one that does nothing.
server.registerTool("noop", { description: "Does nothing." }, async () => ({ content: [{ type: "text", text: "ok" }] }));
server.connect(new StdioServerTransport());
