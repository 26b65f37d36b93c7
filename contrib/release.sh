#!/usr/bin/env bash
# The release archives: `cargo build --release` for each target, packed with the README,
# the licences, the manual page and the shell completions, and a SHA256SUMS file.
#
#   contrib/release.sh [--list] [TARGET...]
#
# Without TARGET it builds what this system can build (below); --list prints the matrix
# and where each target is built, and builds nothing. Archives land in dist/:
# xiangqi-tui-VERSION-TARGET.tar.gz (.zip for Windows).
#
# The matrix (every target builds with the default features: the TUI and `serve`):
#   x86_64-unknown-linux-gnu    Linux        on Linux (native)
#   aarch64-unknown-linux-gnu   Linux ARM    on Linux with gcc-aarch64-linux-gnu, or on ARM
#   x86_64-pc-windows-gnu       Windows      on Linux with gcc-mingw-w64-x86-64 (what CI checks)
#   x86_64-pc-windows-msvc      Windows      on Windows with Visual Studio's build tools
#   x86_64-apple-darwin         macOS Intel  on a Mac (Xcode's command line tools: the SDK)
#   aarch64-apple-darwin        macOS ARM    on a Mac; both Mac targets make a universal
#                                            binary too (lipo), xiangqi-tui-VERSION-macos
#
# The manual page and completions come from the binary itself, so they are made with the
# build of the system the script runs on (they are the same on every system).
set -euo pipefail
cd "$(dirname "$0")/.."

matrix=(
  "x86_64-unknown-linux-gnu Linux"
  "aarch64-unknown-linux-gnu Linux"
  "x86_64-pc-windows-gnu Linux"
  "x86_64-pc-windows-msvc Windows"
  "x86_64-apple-darwin Darwin"
  "aarch64-apple-darwin Darwin"
)

if [[ ${1:-} == --list ]]; then
  printf '%-28s built on\n' target
  printf '%-28s %s\n' ${matrix[@]}
  exit 0
fi

host_system=$(uname -s)
case "$host_system" in
  MINGW* | MSYS* | CYGWIN*) host_system=Windows ;;
esac
if (($# == 0)); then
  targets=()
  for row in "${matrix[@]}"; do
    read -r target system <<<"$row"
    [[ $system == "$host_system" ]] || continue
    # Cross targets need their C compiler (SQLite and ring are C): skipped without it.
    case "$target" in
      aarch64-unknown-linux-gnu)
        [[ $(uname -m) == aarch64 ]] || command -v aarch64-linux-gnu-gcc >/dev/null || continue
        ;;
      x86_64-unknown-linux-gnu)
        [[ $(uname -m) == x86_64 ]] || continue
        ;;
      x86_64-pc-windows-gnu)
        command -v x86_64-w64-mingw32-gcc >/dev/null || continue
        ;;
    esac
    targets+=("$target")
  done
else
  targets=("$@")
fi
((${#targets[@]})) || { echo "nothing to build on $host_system: name a target" >&2; exit 1; }

version=$(cargo metadata --format-version 1 --no-deps |
  sed -n 's/.*"name":"xiangqi-tui","version":"\([^"]*\)".*/\1/p')
[[ -n $version ]] || { echo "cannot read the version from Cargo.toml" >&2; exit 1; }
dist="$PWD/dist"
mkdir -p "$dist"

# The manual page and the completions, from a build for this system.
extras=$(mktemp -d)
trap 'rm -rf "$extras"' EXIT
cargo build --release --locked --quiet
host_binary=target/release/xiangqi-tui
[[ -x $host_binary ]] || host_binary=target/release/xiangqi-tui.exe
"$host_binary" man >"$extras/xiangqi-tui.1"
mkdir -p "$extras/completions"
for shell in bash zsh fish powershell; do
  "$host_binary" completions "$shell" >"$extras/completions/xiangqi-tui.$shell"
done

linker_env() {
  case "$1" in
    aarch64-unknown-linux-gnu)
      [[ $(uname -m) == aarch64 ]] ||
        export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
      ;;
  esac
}

# A zip of the folder $1 of $extras, with what this system has (Git Bash on Windows has
# PowerShell, not zip).
pack_zip() {
  rm -f "$dist/$1.zip"
  if command -v zip >/dev/null; then
    (cd "$extras" && zip -qr "$dist/$1.zip" "$1")
  elif command -v powershell >/dev/null; then
    (cd "$extras" && powershell -NoProfile -Command "Compress-Archive -Path '$1' -DestinationPath '$(cygpath -w "$dist/$1.zip")'")
  else
    (cd "$extras" && python3 -m zipfile -c "$dist/$1.zip" "$1")
  fi
}

built=()
for target in "${targets[@]}"; do
  echo "== $target"
  rustup target list --installed | grep -qx "$target" || rustup target add "$target"
  linker_env "$target"
  cargo build --release --locked --target "$target"
  name="xiangqi-tui-$version-$target"
  stage="$extras/$name"
  mkdir -p "$stage"
  case "$target" in
    *windows*) cp "target/$target/release/xiangqi-tui.exe" "$stage/" ;;
    *) cp "target/$target/release/xiangqi-tui" "$stage/" ;;
  esac
  cp README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE "$extras/xiangqi-tui.1" "$stage/"
  cp -r "$extras/completions" "$stage/"
  case "$target" in
    *windows*) pack_zip "$name" ;;
    *) tar -C "$extras" -czf "$dist/$name.tar.gz" "$name" ;;
  esac
  built+=("$target")
done

# Both Mac binaries in one (universal) file, when both were built.
if [[ " ${built[*]} " == *" x86_64-apple-darwin "* && " ${built[*]} " == *" aarch64-apple-darwin "* ]]; then
  name="xiangqi-tui-$version-macos"
  stage="$extras/$name"
  mkdir -p "$stage"
  lipo -create -output "$stage/xiangqi-tui" \
    target/x86_64-apple-darwin/release/xiangqi-tui target/aarch64-apple-darwin/release/xiangqi-tui
  cp README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE "$extras/xiangqi-tui.1" "$stage/"
  cp -r "$extras/completions" "$stage/"
  tar -C "$extras" -czf "$dist/$name.tar.gz" "$name"
fi

shopt -s nullglob
(
  cd "$dist"
  archives=(*.tar.gz *.zip)
  if command -v sha256sum >/dev/null; then
    sha256sum -- "${archives[@]}" >SHA256SUMS
  else
    shasum -a 256 -- "${archives[@]}" >SHA256SUMS
  fi
)
echo "archives in dist/:"
ls -1 "$dist"
