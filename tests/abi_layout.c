/* The layout of the public structs that grow (doc/api.md §7): the offset of
 * each one's `size` member, which sits after its 0.2 members and must never
 * move (members are only appended after it). make check-abi prints them and
 * compares with tests/abi_layout.txt (an LP64 host): a 0.2 member moved,
 * resized or a struct embedded by value that grew shows there. Change that
 * file only with a new minor version (soname). */
#include <stddef.h>
#include <stdio.h>

#include <tracerd/tracerd.h>

#define LAYOUT(type) printf("%s size@%zu\n", #type, offsetof(type, size))

int main(void)
{
    LAYOUT(tracerd_reader_ops_t);
    LAYOUT(tracerd_xray_config_t);
    LAYOUT(tracerd_xray_callbacks_t);
    LAYOUT(tracerd_fxt_config_t);
    LAYOUT(tracerd_fxt_callbacks_t);
    LAYOUT(tracerd_ctf_metadata_config_t);
    LAYOUT(tracerd_ctf_stream_config_t);
    LAYOUT(tracerd_ctf_dir_config_t);
    LAYOUT(tracerd_ctf_callbacks_t);
    LAYOUT(tracerd_ctf_event_t);
    LAYOUT(tracerd_xtrace_insn_config_t);
    LAYOUT(tracerd_xtrace_insn_callbacks_t);
    LAYOUT(tracerd_xtrace_snap_config_t);
    LAYOUT(tracerd_xtrace_snap_callbacks_t);
    LAYOUT(tracerd_event_callbacks_t);
    LAYOUT(tracerd_auto_config_t);
    return 0;
}
