#!/bin/sh
# Seeds for fuzz_event: option byte + trace + chunk-seed byte. Made from the
# XRay seeds of fuzz/corpus/xray (their first byte is that target's option
# byte: replaced here), the real trace in tests/data/event, the FXT/CTF magic
# words, and small ELF images (64-bit little-endian and 32-bit big-endian,
# xray_instr_map with version-2 sleds, .symtab, .strtab) made by the Python
# below, the same layout as tests/support/event_support.c's ev_elf_write.
set -e
cd "$(dirname "$0")"
for f in ../xray/*; do
  n=$(basename "$f")
  [ "$n" = gen.sh ] && continue
  # only the named seeds, not the inputs a fuzzer run kept (hash names)
  echo "$n" | grep -qE '^[0-9a-f]{40}$' && continue
  echo "$n" | grep -qE '[.]' && continue
  { printf '\000'; tail -c +2 "$f"; } > "x-$n"
  { printf '\010'; tail -c +2 "$f"; } > "p-$n"
done
{ printf '\000'; cat ../../../tests/data/event/xray_fdr_real.xray; printf '\007'; } > real-fdr
{ printf '\000'; printf '\020\000\004\106\170\124\026\000'; printf '\001'; } > fxt-magic
{ printf '\000'; printf '\301\037\374\301'; printf '\001'; } > ctf-magic
{ printf '\000'; printf '/* CTF 1.8 */ trace { major = 1; minor = 8; };'; printf '\001'; } > ctf-text
{ printf '\000'; printf 'not a trace, just some text that is long enough for detection..'; printf '\001'; } > text
python3 - <<'PY'
import struct
def elf(is64, big, path):
    e = '>' if big else '<'
    w = 8 if is64 else 4
    W = 'Q' if is64 else 'I'
    eh = 64 if is64 else 52
    esz = 32 if is64 else 16
    shstr = b"\0.shstrtab\0xray_instr_map\0.symtab\0.strtab\0"
    body = bytearray(eh)
    shstr_off = len(body); body += shstr
    while len(body) % 8: body += b"\0"
    map_off = len(body); map_addr = 0x4000
    fns = [0x1000, 0x1000, 0x1040, 0x1040]
    for i, fn in enumerate(fns):
        at = map_addr + i * esz
        addr = (fn + 0x10 * (i % 2) - at) & ((1 << (8 * w)) - 1)
        func = (fn - at - w) & ((1 << (8 * w)) - 1)
        body += struct.pack(e + W + W, addr, func) + bytes([i % 2, 0, 2]) + bytes(esz - 2 * w - 3)
    map_size = len(body) - map_off
    strtab = b"\0alpha\0beta\0"
    while len(body) % 8: body += b"\0"
    sym_off = len(body)
    syms = [(0, 0, 0, 0), (1, 0x1000, 0x40, 0x12), (7, 0x1040, 0x40, 0x12)]
    for name, val, size, info in syms:
        if is64:
            body += struct.pack(e + "IBBHQQ", name, info, 0, 2 if name else 0, val, size)
        else:
            body += struct.pack(e + "IIIBBH", name, val, size, info, 0, 2 if name else 0)
    sym_size = len(body) - sym_off
    str_off = len(body); body += strtab
    while len(body) % 8: body += b"\0"
    shoff = len(body)
    def sh(name, typ, addr, off, size, link, ent):
        if is64:
            return struct.pack(e + "IIQQQQIIQQ", name, typ, 0, addr, off, size, link, 0, 8, ent)
        return struct.pack(e + "IIIIIIIIII", name, typ, 0, addr, off, size, link, 0, 8, ent)
    body += sh(0, 0, 0, 0, 0, 0, 0) + sh(1, 3, 0, shstr_off, len(shstr), 0, 0)
    body += sh(11, 1, map_addr, map_off, map_size, 0, 0)
    body += sh(26, 2, 0, sym_off, sym_size, 4, 24 if is64 else 16)
    body += sh(34, 3, 0, str_off, len(strtab), 0, 0)
    ident = bytes([0x7f, 69, 76, 70, 2 if is64 else 1, 2 if big else 1, 1]) + bytes(9)
    if is64:
        hdr = ident + struct.pack(e + "HHIQQQIHHHHHH", 2, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 5, 1)
    else:
        hdr = ident + struct.pack(e + "HHIIIIIHHHHHH", 2, 3, 1, 0, 0, shoff, 0, 52, 0, 0, 40, 5, 1)
    body[:eh] = hdr
    with open(path, "wb") as f:
        f.write(b"\x10" + bytes(body) + b"\x03")
elf(True, False, "elf-64le")
elf(False, True, "elf-32be")
PY
# Other formats (used when their readers are in the build): the FXT and xtrace
# demo traces and the CTF writer's feature trace (metadata NUL stream, option
# bit 5), when those files exist.
[ -f ../../../tests/data/fxt/demo.fxt ] &&
  { printf '\000'; cat ../../../tests/data/fxt/demo.fxt; printf '\011'; } > fxt-demo
for f in ../../../tests/data/xtrace/*xinsndata.bin; do
  [ -f "$f" ] && { printf '\004'; cat "$f"; printf '\005'; } > xtrace-demo
done
if [ -f ../../../tests/support/ctf_writer.c ]; then
  tmp=$(mktemp -d)
  cat > "$tmp/seed.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/ctf_writer.h"
int main(void)
{
    char *m = ctf_writer_metadata(false);
    size_t n;
    unsigned char *s = ctf_writer_stream(false, &n);
    putchar(0x23); /* forced CTF, metadata NUL stream */
    fwrite(m, 1, strlen(m), stdout);
    putchar(0);
    fwrite(s, 1, n, stdout);
    putchar(2);
    return 0;
}
C
  cc -I../../../include -I../../../tests "$tmp/seed.c" ../../../tests/support/ctf_writer.c \
     -o "$tmp/seed" && "$tmp/seed" > ctf-feature
  rm -rf "$tmp"
fi
true
