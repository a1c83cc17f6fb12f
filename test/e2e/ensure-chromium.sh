#!/bin/sh
# The end-to-end tests drive the system's Chromium (Playwright cannot download its own browser here):
# CHROMIUM_PATH when set, else /usr/bin/chromium, which is installed from Debian's packages when we can.
set -eu
if [ -n "${CHROMIUM_PATH:-}" ]; then
  if [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
  echo "CHROMIUM_PATH is set to '$CHROMIUM_PATH', which is not an executable file." >&2
  exit 1
fi
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing: installing Debian's chromium package for the end-to-end tests."
  apt-get update && apt-get install -y chromium
  exit 0
fi
echo "The end-to-end tests need Chromium and none was found at /usr/bin/chromium." >&2
echo "Install it (Debian/Ubuntu, as root: apt-get update && apt-get install -y chromium)," >&2
echo "or point CHROMIUM_PATH at a Chromium or Chrome binary, then run npm test again." >&2
exit 1
