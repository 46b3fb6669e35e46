#!/usr/bin/env bash
# Installs the Debian 12 packages libwebcrypto needs to build and test.
# Uses sudo when not run as root. Skips apt entirely when all are present.
set -euo pipefail
packages=(build-essential cmake pkg-config libssl-dev libjansson-dev libcmocka-dev
  android-libboringssl-dev openjdk-17-jdk-headless libbcprov-java nodejs)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing: ${missing[*]}" >&2
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
