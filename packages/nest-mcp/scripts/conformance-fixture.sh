#!/usr/bin/env bash
# Starts the conformance fixture (test/conformance) alone, as scripts/conformance.sh runs it:
# loopback only, auth off, port from PORT (default 0 = any free port). It prints
#   listening on http://127.0.0.1:<port>/mcp
# so the official suite (`conformance server --url …`) or the MCP Inspector can be pointed at it.
# Stops on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-0}" exec node --conditions=@nest-mcp/source --import=../../scripts/swc/register.mjs test/conformance/conformance-server.ts
