#!/usr/bin/python3
# Writes tests/data/ctf/bt2-python/: a CTF 1.8 trace made by babeltrace2's
# CTF writer (sink.ctf.fs) from events built with the python3-bt2 bindings:
# signed/unsigned integers of odd sizes and bases, single and double reals,
# strings, static arrays (of integers and of structures), dynamic arrays with
# a length field (of integers and of strings), signed and unsigned
# enumerations, a boolean and nested structures. (babeltrace2 2.0.4's
# sink.ctf.fs refuses variants with an integer selector, so there are none.)
# Run from the repository root (Debian: python3-bt2, babeltrace2):
#     /usr/bin/python3 tests/data/ctf/write_bt2_python.py
import gc
import os
import shutil
import tempfile

import bt2


class Iter(bt2._UserMessageIterator):
    def __init__(self, config, port):
        self._sc, self._ecs = port.user_data
        self._trace = self._sc.trace_class()
        self._stream = self._trace.create_stream(self._sc)
        self._msgs = self._make()

    def _make(self):
        msgs = [self._create_stream_beginning_message(self._stream)]
        pkt = self._stream.create_packet()
        msgs.append(self._create_packet_beginning_message(pkt, 1000))
        ts = 1000
        for i in range(24):
            ec = self._ecs[i % 2]
            ts += 17 + (i * 31) % 7
            msg = self._create_event_message(ec, pkt, ts)
            f = msg.event.payload_field
            if i % 2 == 0:
                f['u7'] = (i * 5) % 128
                f['s13'] = -4096 + i * 333
                f['h64'] = (0xFEDCBA9876543210 + i) % (1 << 64)
                f['o16'] = 0o1234 + i
                f['r32'] = 1.5 * i
                f['r64'] = -0.125 * i
                f['name'] = 'event %d "q"' % i
                f['fixed'] = [i, i + 1, i + 2]
                f['dyn_len'] = i % 5
                f['dyn'] = list(range(i % 5))
                f['color'] = i % 3
                f['level'] = -1 if i % 4 == 0 else 2
            else:
                f['flag'] = i % 3 == 0
                for k in range(2):
                    f['pairs'][k]['a'] = i + k
                    f['pairs'][k]['b'] = [2 * k + 1, 2 * k + 2]
                f['nwords'] = i % 4
                f['words'] = ['w%d' % k for k in range(i % 4)]
                f['inner'] = {'x': i, 'y': 'y%d' % i}
            msgs.append(msg)
        msgs.append(self._create_packet_end_message(pkt, ts + 10))
        msgs.append(self._create_stream_end_message(self._stream))
        return iter(msgs)

    def __next__(self):
        return next(self._msgs)


@bt2.plugin_component_class
class Source(bt2._UserSourceComponent, message_iterator_class=Iter):
    def __init__(self, config, params, obj):
        tc = self._create_trace_class()
        cc = self._create_clock_class(frequency=1000000000, name='tick')
        sc = tc.create_stream_class(default_clock_class=cc, supports_packets=True,
                                    packets_have_beginning_default_clock_snapshot=True,
                                    packets_have_end_default_clock_snapshot=True)
        p = tc.create_structure_field_class()
        p.append_member('u7', tc.create_unsigned_integer_field_class(7))
        p.append_member('s13', tc.create_signed_integer_field_class(13))
        p.append_member('h64', tc.create_unsigned_integer_field_class(
            64, preferred_display_base=bt2.IntegerDisplayBase.HEXADECIMAL))
        p.append_member('o16', tc.create_unsigned_integer_field_class(
            16, preferred_display_base=bt2.IntegerDisplayBase.OCTAL))
        p.append_member('r32', tc.create_single_precision_real_field_class())
        p.append_member('r64', tc.create_double_precision_real_field_class())
        p.append_member('name', tc.create_string_field_class())
        p.append_member('fixed', tc.create_static_array_field_class(
            tc.create_unsigned_integer_field_class(16), 3))
        ln = tc.create_unsigned_integer_field_class(8)
        p.append_member('dyn_len', ln)
        p.append_member('dyn', tc.create_dynamic_array_field_class(
            tc.create_signed_integer_field_class(32), p['dyn_len'].field_class))
        color = tc.create_unsigned_enumeration_field_class(8)
        color.add_mapping('RED', bt2.UnsignedIntegerRangeSet([(0, 0)]))
        color.add_mapping('GREEN', bt2.UnsignedIntegerRangeSet([(1, 1)]))
        color.add_mapping('BLUE', bt2.UnsignedIntegerRangeSet([(2, 5)]))
        p.append_member('color', color)
        level = tc.create_signed_enumeration_field_class(16)
        level.add_mapping('LOW', bt2.SignedIntegerRangeSet([(-10, -1)]))
        level.add_mapping('HIGH', bt2.SignedIntegerRangeSet([(1, 10)]))
        p.append_member('level', level)
        ea = sc.create_event_class(name='bt2:scalars', payload_field_class=p)
        q = tc.create_structure_field_class()
        q.append_member('flag', tc.create_bool_field_class())
        st = tc.create_structure_field_class()
        st.append_member('a', tc.create_unsigned_integer_field_class(32))
        st.append_member('b', tc.create_static_array_field_class(
            tc.create_unsigned_integer_field_class(8), 2))
        q.append_member('pairs', tc.create_static_array_field_class(st, 2))
        q.append_member('nwords', tc.create_unsigned_integer_field_class(16))
        q.append_member('words', tc.create_dynamic_array_field_class(
            tc.create_string_field_class(), q['nwords'].field_class))
        inner = tc.create_structure_field_class()
        inner.append_member('x', tc.create_unsigned_integer_field_class(16))
        inner.append_member('y', tc.create_string_field_class())
        q.append_member('inner', inner)
        eb = sc.create_event_class(name='bt2:compound', payload_field_class=q)
        self._add_output_port('out', (sc, [ea, eb]))


def main():
    out = os.path.join('tests', 'data', 'ctf', 'bt2-python')
    tmp = tempfile.mkdtemp()
    try:
        g = bt2.Graph()
        src = g.add_component(Source, 'src')
        sink_cls = bt2.find_plugin('ctf').sink_component_classes['fs']
        sink = g.add_component(sink_cls, 'sink',
                               params={'path': os.path.join(tmp, 'trace'),
                                       'assume-single-trace': True})
        g.connect_ports(src.output_ports['out'], sink.input_ports['in'])
        g.run()
        del g, src, sink  # the sink writes the metadata when it is finalized
        gc.collect()
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        for root, _, files in os.walk(tmp):
            for f in files:
                shutil.copy(os.path.join(root, f), os.path.join(out, f))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
