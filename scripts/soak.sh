#!/usr/bin/env bash
# Soak test (not part of CI): a release host with many clients mixing valid play and garbage for N minutes.
# Usage: scripts/soak.sh [MINUTES=5] [CLIENTS=200]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-5}"
clients="${2:-200}"
swift build -c release --product partyline-host >/dev/null
exec python3 scripts/soak.py --host-binary "$(swift build -c release --show-bin-path)/partyline-host" --minutes "$minutes" --clients "$clients"
