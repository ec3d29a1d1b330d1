#!/bin/sh
# Installs the Debian packages a make target needs, when it can (root or
# passwordless sudo); otherwise prints the exact apt-get line and fails.
#   sh tools/deps.sh build|check|be|bench|ci
set -u
group=${1:-build}
build="gcc make pkg-config libxxhash-dev binutils libjansson-dev"
check="$build check g++ python3 clang llvm libclang-rt-14-dev babeltrace2 python3-bt2 lttng-tools liblttng-ust-dev protobuf-compiler
       python3-dev python3-setuptools python3-pytest python3-numpy python3-pandas"
be="gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user"
# make bench-cli: the peers of check (llvm-xray, babeltrace2, lttng) and xxhsum, the read-every-byte reference
bench="$check xxhash"
case "$group" in
build) want=$build ;;
check) want=$check ;;
be) want=$be ;;
bench) want=$bench ;;
ci) want="$check $be clang-format" ;;
*) echo "deps.sh: unknown group $group" >&2; exit 2 ;;
esac
command -v dpkg-query >/dev/null 2>&1 || exit 0 # not Debian: trust the user
missing=""
for p in $want; do
    s=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
    case "$s" in *"install ok installed"*) ;; *) missing="$missing $p" ;; esac
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"
else
    echo "tracerd needs these Debian packages:$missing" >&2
    echo "install them with: sudo apt-get install -y$missing" >&2
    exit 1
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y -q $missing >/dev/null 2>&1; then
    $sudo apt-get update -q >/dev/null 2>&1
    if ! $sudo apt-get install -y -q $missing >&2; then
        echo "deps.sh: could not install; run: sudo apt-get install -y$missing" >&2
        exit 1
    fi
fi
