// Drives `bashbox serve` over stdio with the official TypeScript MCP SDK:
// lists the tools, calls Bashbox on a read-only volume, and follows a
// call's output through progress notifications.
// usage: node mcp-client.mjs BASHBOX_BINARY VOLUME_DIR
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, dir] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: bin, args: ["serve", "-v", `${dir}:/work:ro`], stderr: "ignore" });
const client = new Client({ name: "ts-test", version: "1.0.0" });
await client.connect(transport);
const tools = await client.listTools();
const res = await client.callTool({ name: "Bashbox", arguments: { command: "cat hello.txt; echo changed > hello.txt; cat hello.txt", description: "read and try to change a file" } });
// Output while the call runs, as progress notifications.
const progress = [];
await client.callTool({ name: "Bashbox", arguments: { script: "for i in 1 2; do echo p$i; sleep 0.3; done", timeout: "5s" } }, undefined, {
  onprogress: (p) => progress.push(p.message),
});
console.log(JSON.stringify({ tools: tools.tools.map((t) => t.name), text: res.content[0].text, exit: res.structuredContent?.exit_code, progress }));
await client.close();
