//! An MCP client for app/tests/mobile_mcp.rs: starts mobile-mcp (`lib/index.js` of
//! `@mobilenext/mobile-mcp` under PREFIX/node_modules) over stdio with mobile-mcp's own
//! `@modelcontextprotocol/sdk`, and calls its tools.
//!
//!     node client.mjs PREFIX [CALLS]
//!
//! CALLS is a JSON array of `{"tool": NAME, "arguments": {...}}`; without it, each line of
//! stdin is one such call (or an array of them), answered as it comes, until stdin ends.
//! Prints JSON lines on stdout: first `{"server": {...}, "tools": [NAMES]}`, then one line
//! per call, `{"tool", "arguments", "isError", "text", "content"}` (`content` without
//! images' data), or `{"tool", "arguments", "error"}` when the call itself failed.
//! mobile-mcp gets this process's environment as it is, and its stderr is this one's.

import { createRequire } from "node:module";
import path from "node:path";
import readline from "node:readline";

const [prefix, calls] = process.argv.slice(2);
if (!prefix) {
    console.error("usage: node client.mjs PREFIX [CALLS]");
    process.exit(2);
}
const modules = path.resolve(prefix, "node_modules");
// The SDK that mobile-mcp itself depends on, found from its install, not from here.
const require = createRequire(path.join(modules, "@mobilenext", "mobile-mcp", "package.json"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

// Longer than any one call should take; a call that hangs answers with an error line.
const CALL_TIMEOUT_MS = 90_000;

const print = (value) => process.stdout.write(JSON.stringify(value) + "\n");

const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(modules, "@mobilenext", "mobile-mcp", "lib", "index.js")],
    // Without `env` the SDK passes on only HOME, PATH and a few more: the test's
    // ANDROID_ADB_SERVER_PORT, ANDROID_HOME and MOBILEMCP_* must reach mobile-mcp.
    env: { ...process.env },
    stderr: "inherit",
});
const client = new Client({ name: "tapscope-test", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
print({ server: client.getServerVersion(), tools: tools.map((t) => t.name) });

const call = async ({ tool, arguments: args = {} }) => {
    try {
        const result = await client.callTool({ name: tool, arguments: args }, undefined, {
            timeout: CALL_TIMEOUT_MS,
        });
        const content = (result.content ?? []).map((item) =>
            item.type === "image" ? { type: "image", mimeType: item.mimeType, bytes: item.data.length } : item,
        );
        const text = content.filter((item) => item.type === "text").map((item) => item.text).join("\n");
        print({ tool, arguments: args, isError: result.isError === true, text, content });
    } catch (error) {
        print({ tool, arguments: args, error: String(error?.message ?? error) });
    }
};

const run = async (parsed) => {
    for (const one of Array.isArray(parsed) ? parsed : [parsed]) {
        await call(one);
    }
};

if (calls !== undefined) {
    await run(JSON.parse(calls));
} else {
    const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
        if (line.trim() === "") {
            continue;
        }
        let parsed;
        try {
            parsed = JSON.parse(line);
        } catch (error) {
            print({ error: `not JSON: ${error.message}`, line });
            continue;
        }
        await run(parsed);
    }
}
await client.close();
