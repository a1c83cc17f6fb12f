#!/bin/sh
# The end-to-end tests drive Debian's Chromium at /usr/bin/chromium (Playwright cannot download its own here).
set -eu
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update && apt-get install -y chromium
  exit 0
fi
echo "The end-to-end tests need Chromium at /usr/bin/chromium. Install it as root: apt-get update && apt-get install -y chromium" >&2
exit 1
