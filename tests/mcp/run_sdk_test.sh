#!/bin/sh
# Runs sdk_client_test.mjs with the SDK that package-lock.json pins, installed (npm ci) into
# BUILD_DIR/mcp-sdk when the lockfile there differs. Without node or npm: SKIP (exit 77), unless
# RDMI_REQUIRE_MCP_SDK=1 (CI), where a skip would hide the test: then it fails.
#
#   run_sdk_test.sh BUILD_DIR --binary PATH --fixtures DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$1
shift
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    if [ "${RDMI_REQUIRE_MCP_SDK:-0}" = 1 ]; then
        echo "FAILED: node and npm are required here (RDMI_REQUIRE_MCP_SDK=1)"
        exit 1
    fi
    echo "SKIP: node or npm is not installed (the MCP SDK test needs both)"
    exit 77
fi
sdk=$build/mcp-sdk
if ! cmp -s "$here/package-lock.json" "$sdk/package-lock.json" || [ ! -d "$sdk/node_modules" ]; then
    rm -rf "$sdk"
    mkdir -p "$sdk"
    cp "$here/package.json" "$here/package-lock.json" "$sdk/"
    (cd "$sdk" && npm ci --no-audit --no-fund --loglevel=error)
fi
cp "$here/sdk_client_test.mjs" "$sdk/"
exec node "$sdk/sdk_client_test.mjs" "$@"
