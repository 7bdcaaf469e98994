#!/usr/bin/env bash
# Make sure Debian's chromium is at /usr/bin/chromium (used by the browser tests through
# playwright-core's executablePath). Idempotent: does nothing when it is already there.
# Installing needs root (CI runs on a fresh machine as root); otherwise sudo is used when present.
#
#   scripts/ensure-chromium.sh
set -euo pipefail

BIN=/usr/bin/chromium

if [ -x "$BIN" ]; then
	echo "[ensure-chromium] $("$BIN" --version 2>/dev/null || echo chromium) already at $BIN"
	exit 0
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=(sudo)
	else
		echo "[ensure-chromium] $BIN is missing and installing it needs root (apt-get install chromium)" >&2
		exit 1
	fi
fi

if ! command -v apt-get >/dev/null 2>&1; then
	echo "[ensure-chromium] $BIN is missing and there is no apt-get here; install chromium yourself" >&2
	exit 1
fi

echo "[ensure-chromium] installing Debian's chromium with apt-get"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -q
"${SUDO[@]}" apt-get install -y -q --no-install-recommends chromium fonts-liberation

if [ ! -x "$BIN" ]; then
	echo "[ensure-chromium] apt-get finished but $BIN is still missing" >&2
	exit 1
fi
echo "[ensure-chromium] $("$BIN" --version 2>/dev/null || echo chromium) installed at $BIN"
