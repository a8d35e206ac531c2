// rdmi-probe mcp driven by the official MCP TypeScript SDK (pinned in package.json and
// package-lock.json): a client no one here wrote, with its default validator checking every
// structuredContent against its tool's outputSchema.
//
//   node sdk_client_test.mjs --binary PATH --fixtures DIR
//
// Lists the tools, calls every one on fixture roots, negotiates every protocol revision the SDK
// offers, watches progress on a long call, and cancels a live call that hangs (a doca_caps that
// never returns, via doca_prefix) and sees every process it started gone. Exits 1 on a failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  InitializeResultSchema,
  ListToolsResultSchema,
  CallToolResultSchema,
  ListResourcesResultSchema,
  ReadResourceResultSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, word, i, all) => {
    if (word.startsWith("--")) pairs.push([word.slice(2), all[i + 1]]);
    return pairs;
  }, []),
);
const binary = path.resolve(args.binary);
const fixtures = path.resolve(args.fixtures);
const roots = path.join(fixtures, "roots");
const hostRoot = path.join(roots, "both-host");
const app = path.join(fixtures, "libs", "app", "rdmi_fixture_app");

const failures = [];
function check(condition, what) {
  if (!condition) failures.push(what);
  return condition;
}

function serverParams(extra = []) {
  return {
    command: binary,
    args: ["mcp", "--allow-root", roots, ...extra],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...sanitizerEnv() },
    stderr: "inherit",
  };
}

function sanitizerEnv() {
  const out = {};
  for (const key of ["ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"]) {
    if (process.env[key]) out[key] = process.env[key];
  }
  return out;
}

async function connect(extra = []) {
  const client = new Client({ name: "rdmi-probe-sdk-test", version: "1.0.0" });
  const transport = new StdioClientTransport(serverParams(extra));
  await client.connect(transport);
  return { client, transport };
}

// ---- tools on fixture roots -------------------------------------------------------------

const EXPECTED_TOOLS = [
  "report", "env", "caps", "state", "symbols", "check", "error", "diff", "schema", "loopback",
];

async function toolsOnFixtures() {
  const { client } = await connect();
  check(client.getServerVersion()?.name === "rdmi-probe", "serverInfo.name is rdmi-probe");
  // listTools() compiles every outputSchema with the SDK's validator: one it cannot compile
  // throws here, and breaks the whole listing.
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  check(JSON.stringify(names) === JSON.stringify(EXPECTED_TOOLS), `tools: ${names}`);
  for (const tool of tools) {
    check(tool.outputSchema?.type === "object", `${tool.name}: outputSchema is an object schema`);
    check(!/"\$ref":"[^#]/.test(JSON.stringify(tool.outputSchema)),
          `${tool.name}: outputSchema has no cross-schema $ref`);
    check(tool.annotations?.readOnlyHint === (tool.name !== "loopback"),
          `${tool.name}: readOnlyHint`);
    if (["report", "caps", "loopback"].includes(tool.name)) {
      check(tool.description.includes("--allow-untrusted-libs"),
            `${tool.name}: says the server does not allow untrusted libraries`);
    }
    for (const forbidden of ["output", "json", "color", "quiet", "verbose", "allow_untrusted_libs"]) {
      check(!(forbidden in (tool.inputSchema.properties ?? {})), `${tool.name}: no ${forbidden}`);
    }
  }

  // Every tool, each document checked by the SDK against the tool's outputSchema.
  const calls = [
    ["report", { root: hostRoot }, "urn:rdmi-probe:schema:report"],
    ["env", { root: hostRoot }, null],
    ["caps", { root: hostRoot }, null],
    ["state", { root: hostRoot, side: "host" }, null],
    ["symbols", { root: hostRoot, check: app }, "urn:rdmi-probe:schema:symbols"],
    ["check", { root: hostRoot, min_version: "3.0", require_modules: ["doca-rdmi"] }, null],
    ["error", { error: "BAD_STATE", call: "doca_rdmi_connection_dpa_completion_attach" },
     "urn:rdmi-probe:schema:doca-error"],
    ["schema", { name: "doca-env" }, null],
  ];
  const documents = {};
  for (const [name, toolArgs, schemaId] of calls) {
    let result;
    try {
      result = await client.callTool({ name, arguments: toolArgs });
    } catch (e) {
      check(false, `${name}: ${e.message}`);
      continue;
    }
    if (!check(!result.isError, `${name}: isError: ${result.content?.[0]?.text}`)) continue;
    check(result.structuredContent !== undefined, `${name}: structuredContent`);
    const text = result.content.find((c) => c.type === "text")?.text ?? "";
    check(JSON.stringify(JSON.parse(text)) === JSON.stringify(result.structuredContent),
          `${name}: the text block is the document`);
    if (schemaId) check(result.structuredContent.schema === schemaId, `${name}: ${schemaId}`);
    documents[name] = result.structuredContent;
  }
  // A failing check is a normal result, not an error.
  const failing = await client.callTool({ name: "check", arguments: { root: hostRoot, min_version: "99.0" } });
  check(!failing.isError && failing.structuredContent?.result === "fail", "check: fail is a result");

  // diff: a path and an inline document.
  if (documents.report) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rdmi-mcp-"));
    const saved = path.join(dir, "a.json");
    fs.writeFileSync(saved, JSON.stringify(documents.report));
    const diff = await client.callTool({ name: "diff", arguments: { a: saved, b: documents.report } });
    check(!diff.isError && diff.structuredContent?.schema === "urn:rdmi-probe:schema:diff",
          `diff: ${diff.content?.[0]?.text?.slice(0, 200)}`);
    fs.rmSync(dir, { recursive: true });
  }

  // Unusable requests: isError with the command's message, and no structuredContent.
  const refusals = [
    ["symbols", { lib: "/nonexistent/libx.so" }, "/nonexistent/libx.so"],
    ["symbols", { lib: "relative/libx.so" }, "not an absolute path"],
    ["report", { root: "/etc" }, "not under a directory the server allows"],
    ["report", { allow_untrusted_libs: true }, "unknown argument \"allow_untrusted_libs\""],
    ["loopback", {}, "--allow-loopback"],
    ["error", { error: "NO_SUCH_ERROR" }, "NO_SUCH_ERROR"],
  ];
  for (const [name, toolArgs, words] of refusals) {
    let result;
    try {
      result = await client.callTool({ name, arguments: toolArgs });
    } catch (e) {
      check(false, `${name} ${JSON.stringify(toolArgs)}: threw ${e.message}`);
      continue;
    }
    const text = result.content?.[0]?.text ?? "";
    check(result.isError === true, `${name} ${JSON.stringify(toolArgs)}: isError`);
    check(result.structuredContent === undefined, `${name}: no structuredContent on an error`);
    check(text.includes(words), `${name}: message names "${words}": ${text}`);
  }

  // loopback, on a server that allows it: level 0 (the static steps) against a fixture prefix.
  {
    const { client: allowing } = await connect(["--allow-loopback"]);
    await allowing.listTools();
    const prefix = path.join(fixtures, "prefixes", "complete-3.3");
    const loop = await allowing.callTool({ name: "loopback", arguments: { level: 0, doca_prefix: prefix } });
    check(!loop.isError && loop.structuredContent?.schema === "urn:rdmi-probe:schema:loopback",
          `loopback: ${loop.content?.[0]?.text?.slice(0, 200)}`);
    await allowing.close();
  }

  // Resources: the published schemas.
  const resources = await client.listResources();
  const report = resources.resources.find((r) => r.uri === "urn:rdmi-probe:schema:report");
  if (check(report !== undefined, "resources: the report schema")) {
    const read = await client.readResource({ uri: report.uri });
    check(JSON.parse(read.contents[0].text).$id === report.uri, "resources/read: the schema");
  }
  await client.close();
}

// ---- every protocol revision ------------------------------------------------------------

function rawSession() {
  const transport = new StdioClientTransport(serverParams());
  const waiting = new Map();
  transport.onmessage = (message) => {
    if (message.id !== undefined && waiting.has(message.id)) {
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    }
  };
  let next = 1;
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      transport.send({ jsonrpc: "2.0", id, method, params });
    });
  return { transport, request };
}

async function revisions() {
  check(SUPPORTED_PROTOCOL_VERSIONS.includes(LATEST_PROTOCOL_VERSION), "SDK: latest is supported");
  for (const version of [...SUPPORTED_PROTOCOL_VERSIONS, "1999-01-01"]) {
    const { transport, request } = rawSession();
    await transport.start();
    const init = await request("initialize", {
      protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" },
    });
    const parsed = InitializeResultSchema.safeParse(init.result);
    const expected = SUPPORTED_PROTOCOL_VERSIONS.includes(version) ? version : LATEST_PROTOCOL_VERSION;
    check(parsed.success && parsed.data.protocolVersion === expected,
          `initialize ${version}: ${JSON.stringify(init).slice(0, 200)}`);
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const structured = expected >= "2025-06-18";
    const list = await request("tools/list", {});
    const tools = ListToolsResultSchema.safeParse(list.result);
    check(tools.success, `tools/list at ${expected} parses`);
    if (tools.success) {
      check(tools.data.tools.every((t) => (t.outputSchema !== undefined) === structured),
            `tools/list at ${expected}: outputSchema ${structured ? "on" : "off"}`);
    }
    const call = await request("tools/call", { name: "error", arguments: { error: "18" } });
    const result = CallToolResultSchema.safeParse(call.result);
    check(result.success && !result.data.isError, `tools/call at ${expected}: ${JSON.stringify(call).slice(0, 300)}`);
    if (result.success) {
      check((result.data.structuredContent !== undefined) === structured,
            `tools/call at ${expected}: structuredContent ${structured ? "on" : "off"}`);
    }
    const resources = await request("resources/list", {});
    check(ListResourcesResultSchema.safeParse(resources.result).success, `resources/list at ${expected}`);
    const read = await request("resources/read", { uri: "urn:rdmi-probe:schema:policy" });
    check(ReadResourceResultSchema.safeParse(read.result).success, `resources/read at ${expected}`);
    await transport.close();
  }
}

// ---- progress and cancellation on a live call that hangs --------------------------------

function hangingPrefix(dir) {
  const prefix = path.join(dir, "prefix");
  fs.cpSync(path.join(fixtures, "prefixes", "complete-3.3"), prefix, { recursive: true, verbatimSymlinks: true });
  for (const tool of ["doca_caps", "dpacc"]) {
    const file = path.join(prefix, "tools", tool);
    fs.rmSync(file, { force: true });
    fs.writeFileSync(file, "#!/bin/sh\n# Fixture tool that never exits.\nexec sleep 600\n", { mode: 0o755 });
  }
  return prefix;
}

function descendants(root) {
  const children = new Map();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const stack = [root];
  while (stack.length) {
    for (const child of children.get(stack.pop()) ?? []) {
      out.push(child);
      stack.push(child);
    }
  }
  return out;
}

function alive(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

function commandOf(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
}

/// Waits (bounded) for `condition`: these wait for an outcome, they make no race.
async function until(condition, seconds) {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const value = condition();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  return condition();
}

async function progressAndCancel() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rdmi-mcp-hang-"));
  const prefix = hangingPrefix(dir);
  const { client, transport } = await connect();

  // The command's log lines arrive as notifications/message, at the level the client chose.
  const logs = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
  await client.setLoggingLevel("debug");

  // Progress: a live report whose tools hang until its 3 s deadline ends them.
  const progress = [];
  const bounded = await client.callTool(
    { name: "report", arguments: { doca_prefix: prefix, timeout: 3 } },
    undefined,
    { onprogress: (p) => progress.push(p), timeout: 60000 },
  );
  check(!bounded.isError && bounded.structuredContent?.schema === "urn:rdmi-probe:schema:report",
        `bounded live report: ${bounded.content?.[0]?.text?.slice(0, 200)}`);
  check(progress.length >= 2, `progress: ${progress.length} notifications`);
  check(progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress),
        "progress increases");
  check(logs.some((l) => l.logger === "rdmi-probe" && typeof l.data === "string" &&
                         l.data.startsWith("report: ")),
        `log lines of the call: ${logs.length} messages`);
  await client.setLoggingLevel("error");

  // Cancel: the same with a 60 s deadline, cancelled once its doca_caps is running.
  const server = transport.pid;
  const controller = new AbortController();
  const call = client.callTool(
    { name: "report", arguments: { doca_prefix: prefix, timeout: 60 } },
    undefined,
    { signal: controller.signal, timeout: 120000 },
  ).then(() => "answered", (e) => `rejected: ${e.name}`);
  const sleeping = await until(() => {
    const found = descendants(server).filter((pid) => commandOf(pid).startsWith("sleep 600"));
    return found.length > 0 ? found : null;
  }, 20);
  check(sleeping !== null, `the hanging doca_caps was started (server ${server})`);
  const started = descendants(server);
  // The server answers while the call runs.
  const t0 = Date.now();
  await client.ping();
  check(Date.now() - t0 < 2000, "ping answered while a call runs");
  controller.abort("test cancels");
  check((await call).startsWith("rejected"), "the cancelled call is not answered");
  const gone = await until(() => started.every((pid) => !alive(pid)), 10);
  check(gone, `every process of the cancelled call ended: left ${started.filter(alive).map(
    (pid) => `${pid} ${commandOf(pid)}`)}`);
  // And the server still serves.
  const after = await client.callTool({ name: "error", arguments: { error: "18" } });
  check(!after.isError, "a call after the cancel");
  await client.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

try {
  await toolsOnFixtures();
  await revisions();
  await progressAndCancel();
} catch (e) {
  failures.push(`threw: ${e.stack ?? e}`);
}
for (const f of failures) console.log(`FAILED ${f}`);
console.log(`${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
