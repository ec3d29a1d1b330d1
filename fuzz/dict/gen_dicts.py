#!/usr/bin/env python3
"""Writes the libFuzzer dictionaries in this folder (run from it: python3 gen_dicts.py).

One dictionary per fuzz target (fuzz/fuzz_<target>.c): the keywords, keys and
magic values a mutator would take a long time to guess, and the huge sizes,
counts and lengths that exercise the readers' limits.
"""


def q(s):
    out = ''
    for ch in (s.encode() if isinstance(s, str) else s):
        out += '\\x%02x' % ch if ch in (0x22, 0x5c) or ch < 0x20 or ch > 0x7e else chr(ch)
    return '"' + out + '"'


def le(v, n):
    return v.to_bytes(n, 'little')


def be(v, n):
    return v.to_bytes(n, 'big')


def write(name, comment, items):
    with open(name, 'w') as f:
        f.write('# ' + comment + ' (written by gen_dicts.py)\n')
        for k, v in items:
            f.write('%s=%s\n' % (k, q(v)))


TSDL_KW = """align callsite const char clock double enum env event floating_point float integer int long
short signed stream string struct trace typealias typedef unsigned variant void _Bool _Complex _Imaginary
size byte_order encoding base map exp_dig mant_dig major minor uuid id name fields context header packet
stream_id loglevel model.emf.uri freq offset offset_s precision absolute description le be native network
UTF8 ASCII none decimal hex oct binary hexadecimal octal packet_size content_size timestamp_begin timestamp_end
magic events_discarded packet_seq_num cpu_id timestamp vtid vpid event.header event.fields event.context
stream.packet.context stream.event.header stream.event.context trace.packet.header compact large v""".split()
TSDL_TOK = ['/* CTF 1.8 */', '{', '}', '[', ']', '<', '>', ':=', '...', '=', ';', ',', '"', '0x', '-1',
            '18446744073709551615', 'typealias integer { size = 8; } := x;', 'struct { } s;',
            'struct s { x a; x b; };', 'enum e : x { A = 0 ... 255 };', 'variant <tag> { x a; } v;',
            'x a[4096];', 'x s[len];', 'clock.monotonic.value', 'env.hostname', '%', '\\n']
CTF2_KEYS = """type preamble trace-class clock-class data-stream-class event-record-class field-class-alias
fixed-length-unsigned-integer fixed-length-signed-integer variable-length-unsigned-integer
variable-length-signed-integer fixed-length-unsigned-enumeration fixed-length-signed-enumeration
variable-length-unsigned-enumeration variable-length-signed-enumeration fixed-length-boolean
fixed-length-bit-array fixed-length-bit-map fixed-length-floating-point-number null-terminated-string
static-length-string dynamic-length-string static-length-blob dynamic-length-blob structure
static-length-array dynamic-length-array optional variant length byte-order bit-order alignment
minimum-alignment preferred-display-base mappings roles member-classes name field-class
length-field-location selector-field-location options selector-field-ranges origin path id uid
namespace frequency offset-from-origin seconds cycles precision accuracy description
packet-context-field-class event-record-common-context-field-class event-record-header-field-class
packet-header-field-class payload-field-class specific-context-field-class default-clock-class-id
environment version uuid extensions attributes first-to-last last-to-first little-endian big-endian
packet-magic-number metadata-stream-uuid data-stream-class-id data-stream-id packet-total-length
packet-content-length default-clock-timestamp packet-end-default-clock-timestamp
discarded-event-record-counter-snapshot packet-sequence-number event-record-class-id encoding
utf-8 utf-16be utf-16le utf-32be utf-32le media-type element-field-class packet-header packet-context
event-record-header event-record-common-context event-record-specific-context event-record-payload
unix-epoch""".split()
CTF2_TOK = ['\x1e', '{"type":"preamble","version":2}', '{"type":"trace-class"}', '":', '[', ']', '{', '}',
            '"type":', '"length":', '"name":', '"alias":', 'true', 'false', 'null', '-1', '1e308',
            '18446744073709551615']
MAGIC = [('ctf_packet_magic_le', le(0xC1FC1FC1, 4)), ('ctf_packet_magic_be', be(0xC1FC1FC1, 4)),
         ('ctf_metadata_magic_le', le(0x75D11D57, 4)), ('ctf_metadata_magic_be', be(0x75D11D57, 4)),
         ('big_len_le', le(0xffffffff, 4)), ('big_len64', le(0xffffffffffffffff, 8))]


def ctf():
    tsdl = [('kw_' + w.replace('.', '_'), w) for w in TSDL_KW]
    tsdl += [('tok%d' % i, t) for i, t in enumerate(TSDL_TOK)]
    ctf2 = [('key_' + w.replace('-', '_'), '"%s"' % w) for w in CTF2_KEYS]
    ctf2 += [('tok2_%d' % i, t) for i, t in enumerate(CTF2_TOK)]
    write('ctf_metadata.dict', 'TSDL keywords and punctuation, CTF 2 JSON keys, metadata/packet magic numbers',
          tsdl + ctf2 + MAGIC)
    write('ctf2_metadata.dict', 'CTF 2 JSON keys, values and tokens (the target adds the first 0x1E)',
          ctf2)
    write('ctf_stream.dict', 'CTF packet and metadata magic numbers (both orders), huge sizes',
          MAGIC + [('pkt_size_huge', le(0xffffffffffff, 8)), ('content_zero', le(0, 8))])


def fxt_items():
    magic = 0x0016547846040010
    items = [('fxt_magic_le', le(magic, 8)), ('fxt_magic_be', be(magic, 8))]
    # header word: record type in bits 0..3, size in 64-bit words in bits 4..15
    for t, nm in [(0, 'metadata'), (1, 'init'), (2, 'string'), (3, 'thread'), (4, 'event'), (5, 'blob'),
                  (6, 'userspace'), (7, 'kobject'), (8, 'sched'), (9, 'log'), (15, 'large')]:
        items.append(('hdr_%s' % nm, le(t | (2 << 4), 2)))
        items.append(('hdr_%s_maxsize' % nm, le(t | (0xfff << 4), 2)))
    items += [('provider_info', le((1 << 16) | (2 << 4), 8)), ('provider_section', le((2 << 16) | (1 << 4), 8)),
              ('init_ticks', le(1000000000, 8)), ('large_blob_huge', le(15 | (0xfffffff << 4), 4)),
              ('string_idx_max', le(0x7fff, 2)), ('thread_idx_max', b'\xff'), ('word_ones', b'\xff' * 8)]
    return items


def xray_items():
    items = []
    for ver in range(1, 6):
        for typ in (0, 1):
            items.append(('hdr_v%d_t%d_le' % (ver, typ), le(ver, 2) + le(typ, 2)))
            items.append(('hdr_v%d_t%d_be' % (ver, typ), be(ver, 2) + be(typ, 2)))
    kinds = ['new_buffer', 'end_of_buffer', 'new_cpu', 'tsc_wrap', 'walltime', 'custom_event',
             'call_argument', 'buffer_extents', 'typed_event', 'pid']
    for t, nm in enumerate(kinds):  # metadata record: bit 0 set, kind in bits 1..7
        items.append(('meta_' + nm, bytes([1 | (t << 1)])))
    items += [('fn_enter', b'\x00\x00\x00\x00'), ('fn_exit', b'\x02\x00\x00\x00'), ('fn_tail', b'\x04\x00\x00\x00'),
              ('fn_enter_arg', b'\x06\x00\x00\x00'), ('freq_3ghz', le(3000000000, 8)),
              ('size_huge', le(0x7fffffff, 4)), ('size_huge64', le(0xffffffffffffffff, 8))]
    return items


def xtrace():
    # default profile: class in bits 2..0 (INST 1, MEM 2, VAL 3, MISC 4, TIME 7)
    items = [('inst_el0', b'\x01'), ('inst_el1', b'\x41'), ('pcinst_el0', b'\x09'), ('load8', b'\x32'),
             ('store8', b'\x3a'), ('load_k15', b'\xf2'), ('store_k15', b'\xfa'), ('val_stxr', b'\x03'),
             ('val_mrs', b'\x0b'), ('val_svcarg', b'\x13'), ('val_svcret', b'\x1b'), ('val_dc', b'\x23'),
             ('val_target', b'\x2b'), ('allgpr', b'\x0c'), ('flags', b'\x1c'), ('syscall_vec', b'\x24'),
             ('time', b'\x07'), ('count_huge', le(0xffffffffffffffff, 8)), ('count_1m', le(1 << 20, 8)),
             ('iov_len_huge', le(1 << 40, 8))]
    write('xtrace_insn.dict', 'xtrace token bytes of the default profile, huge counts and lengths', items)
    write('xtrace_snap.dict', 'xtrace snapshot: vector lengths (valid and not), instruction counts',
          [('vl_128', le(128, 4)), ('vl_2048', le(2048, 4)), ('vl_bad', le(0xffffffff, 4)),
           ('ones', b'\xff' * 8), ('count_1m', le(1000000, 8))])


if __name__ == '__main__':
    ctf()
    write('fxt.dict', 'FXT magic record (both orders), record header words (type, size), huge sizes', fxt_items())
    write('xray.dict', 'XRay file header (version, type; both orders), metadata record kinds, function records',
          xray_items())
    xtrace()
    write('event.dict', 'the auto reader: magic numbers and headers of every format',
          MAGIC + fxt_items() + xray_items())
