#!/bin/sh
# Big-endian host run: the Check suite cross-compiled for s390x (Debian's
# gcc-s390x-linux-gnu, with check:s390x from multiarch) and run under
# qemu-user. Proves byte-order handling on a big-endian host.
set -eu
MAKE=${1:-make}
if ! dpkg-query -W -f='${Status}' check:s390x libjansson-dev:s390x 2>/dev/null |
        grep -c "install ok installed" | grep -q '^2$'; then
    if [ "$(id -u)" = 0 ]; then
        dpkg --add-architecture s390x
        apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q check:s390x libsubunit-dev:s390x \
            libjansson-dev:s390x >/dev/null
    else
        echo "check-be needs: sudo dpkg --add-architecture s390x && sudo apt-get update &&" \
             "sudo apt-get install -y check:s390x libsubunit-dev:s390x libjansson-dev:s390x" >&2
        exit 1
    fi
fi
$MAKE --no-print-directory B=build-be CC=s390x-linux-gnu-gcc AR=s390x-linux-gnu-ar \
    CPPFLAGS="-idirafter /usr/include" CHECK_CFLAGS="-pthread" \
    CHECK_LIBS="-L/usr/lib/s390x-linux-gnu -lcheck -lsubunit -lrt -lm -pthread" \
    LIB_LIBS="-L/usr/lib/s390x-linux-gnu -ljansson -lm" \
    LDFLAGS="-static" ${WERROR:+WERROR=$WERROR} build-be/check_tracerd
file build-be/check_tracerd | grep -q "MSB" || { echo "check-be: not a big-endian binary" >&2; exit 1; }
echo "check-be: running the suite on s390x (big-endian) under qemu-user"
TRACERD_BIG_ENDIAN_HOST=1 CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-600} \
    qemu-s390x -L /usr/s390x-linux-gnu build-be/check_tracerd
