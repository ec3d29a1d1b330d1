#!/bin/sh
# Installs into a temporary DESTDIR, builds a consumer with pkg-config (shared
# and --static), runs both, then uninstalls and checks nothing is left.
set -eu
MAKE=${1:-make}
CC=${2:-cc}
SANFLAGS=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=/opt/tracerd-test
$MAKE --no-print-directory install DESTDIR="$tmp" PREFIX=$prefix >/dev/null
export PKG_CONFIG_PATH="$tmp$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$tmp"
ver=$(pkg-config --modversion tracerd)
cflags=$(pkg-config --cflags tracerd)
libs=$(pkg-config --libs tracerd)
$CC $SANFLAGS $cflags tests/pkgconfig/consumer.c $libs -o "$tmp/consumer-shared"
LD_LIBRARY_PATH="$tmp$prefix/lib" "$tmp/consumer-shared"
if ldd "$tmp/consumer-shared" 2>/dev/null | grep -q "libtracerd.so"; then :; else
    echo "pkgconfig: the shared consumer does not use libtracerd.so" >&2; exit 1; fi
slibs=$(pkg-config --static --libs tracerd | sed 's/-ltracerd/-Wl,-Bstatic -ltracerd -Wl,-Bdynamic/')
$CC $SANFLAGS $cflags tests/pkgconfig/consumer.c $slibs -o "$tmp/consumer-static"
"$tmp/consumer-static"
if ldd "$tmp/consumer-static" 2>/dev/null | grep -q "libtracerd"; then
    echo "pkgconfig: the --static consumer still needs libtracerd.so" >&2; exit 1; fi
test -f "$tmp$prefix/share/man/man1/tracerd.1" || test ! -f doc/tracerd.1
# A second install with another PREFIX (as `make install` after `make check`) writes a
# tracerd.pc for that PREFIX, not the one built for the first.
$MAKE --no-print-directory install DESTDIR="$tmp/again" PREFIX=/opt/tracerd-again >/dev/null
pc2="$tmp/again/opt/tracerd-again/lib/pkgconfig/tracerd.pc"
if ! grep -qx 'prefix=/opt/tracerd-again' "$pc2" || ! grep -qx 'libdir=/opt/tracerd-again/lib' "$pc2"; then
    echo "pkgconfig: a second install with PREFIX=/opt/tracerd-again installed:" >&2; cat "$pc2" >&2; exit 1; fi
$MAKE --no-print-directory uninstall DESTDIR="$tmp" PREFIX=$prefix >/dev/null
left=$(find "$tmp$prefix" -type f | head -5)
if [ -n "$left" ]; then echo "pkgconfig: uninstall left files: $left" >&2; exit 1; fi
echo "pkgconfig: tracerd $ver installed, consumed (shared and --static), uninstalled"
