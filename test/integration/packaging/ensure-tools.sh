#!/bin/sh
# The packaging check (packaging.test.ts) builds the deb, the AppImage and the tar.gz with Debian's tools in
# place of the ones electron-builder downloads from GitHub: dpkg-deb (fpm's stand-in builds with it),
# mksquashfs and unsquashfs, desktop-file-validate, and 7-Zip. Where one is missing and we are root with
# apt-get, its Debian package is installed; otherwise this says what to install and exits 2.
set -eu
missing=""
need() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }
need dpkg-deb dpkg
need mksquashfs squashfs-tools
need unsquashfs squashfs-tools
need desktop-file-validate desktop-file-utils
command -v 7zz >/dev/null 2>&1 || command -v 7za >/dev/null 2>&1 || missing="$missing 7zip"
if [ -z "$missing" ]; then
  exit 0
fi
packages=$(echo "$missing" | tr ' ' '\n' | sort -u | tr '\n' ' ')
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "The packaging check needs:$missing; installing Debian's packages: $packages" >&2
  apt-get update >/dev/null && apt-get install -y $packages >/dev/null
  exit 0
fi
echo "The packaging check needs Debian's $packages (as root: apt-get install -y $packages)." >&2
exit 2
