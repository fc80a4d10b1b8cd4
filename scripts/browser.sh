#!/usr/bin/env bash
# Install Debian's chromium and chromium-driver (what the browser tests of 'smuggle serve' drive,
# headless, with selenium) when either is missing. Needs root or sudo; no browser is downloaded
# at test time.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing chromium and chromium-driver (apt) for the browser tests"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q chromium chromium-driver
