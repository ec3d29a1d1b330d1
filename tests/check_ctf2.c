/* CTF 2: the peer traces of ../shared/peer-tests/ctf2 (babeltrace2 2.1.2's
 * own CTF 2 test traces and the CTF 1.8 peer traces converted to CTF 2 by
 * babeltrace2 2.1.2), compared event for event with babeltrace2's text. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <tracerd/ctf.h>

#include "support/ctf2_writer.h"
#include "support/ctf_peer.h"
#include "support/ctf_recorder.h"
#include "support/ctf_writer.h"
#include "support/driver.h"

static void expect_ok(const char *log)
{
    const char *end = strstr(log, "\nend ");
    ck_assert_msg(end != NULL && strncmp(end, "\nend OK", 7) == 0, "log ends: %s",
                  end ? end : log);
}

static bool exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Sorted names of the sub-folders of dir (NULL-terminated, malloc'd). */
static char **subdirs(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    char **v = calloc(256, sizeof *v);
    size_t k = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && k < 255) {
        char p[1200];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (e->d_name[0] != '.' && stat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
            v[k++] = strdup(e->d_name);
    }
    closedir(d);
    for (size_t i = 1; i < k; i++) /* insertion sort */
        for (size_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
            char *x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    *n = k;
    return v;
}

static void free_list(char **v)
{
    for (size_t i = 0; v[i]; i++)
        free(v[i]);
    free(v);
}

/* Reads dir, compares with babeltrace2 2.1.2's --clock-cycles output (out)
 * and the discarded counts of its stderr (err, may not exist), then again
 * in odd small reads: same text. */
static void check_trace(const char *dir, const char *out, const char *err)
{
    struct peer_result pr;
    read_dir_as(dir, NULL, &pr, true);
    ck_assert_msg(pr.st == TRACERD_OK, "%s: %s %s", dir, tracerd_status_name(pr.st), pr.reason);
    char *expected = slurp(out);
    ck_assert_msg(expected != NULL, "missing %s", out);
    size_t bad = compare_bt2(dir, expected, pr.text.out.buf);
    ck_assert_msg(bad == 0, "%s: %zu lines differ from babeltrace2", dir, bad);
    tracerd_ctf_dir_config_t small;
    tracerd_ctf_dir_config_init(&small);
    small.chunk_bytes = 97;
    small.max_open_files = 1;
    struct peer_result pr2;
    read_dir_as(dir, &small, &pr2, true);
    ck_assert_int_eq(pr2.st, pr.st);
    ck_assert_str_eq(pr2.text.out.buf, pr.text.out.buf);
    ctf_text_free(&pr2.text);
    char *se = err ? slurp(err) : NULL;
    ck_assert_uint_eq(pr.text.lost_events, se ? sum_discarded(se, "event") : 0);
    ck_assert_uint_eq(pr.text.lost_packets, se ? sum_discarded(se, "packet") : 0);
    free(se);
    free(expected);
    ctf_text_free(&pr.text);
}

/* Every trace of converted/ reads as babeltrace2 2.1.2 read it. */
START_TEST(test_ctf2_converted)
{
    const char *peer = drv_peer_dir();
    if (peer == NULL)
        return;
    char root[1024];
    snprintf(root, sizeof root, "%s/ctf2/converted", peer);
    size_t n;
    char **v = subdirs(root, &n);
    ck_assert_uint_ge(n, 40);
    for (size_t i = 0; i < n; i++) {
        char dir[1200], out[1300], err[1300];
        snprintf(dir, sizeof dir, "%s/%s", root, v[i]);
        snprintf(out, sizeof out, "%s.expect.txt", dir);
        snprintf(err, sizeof err, "%s.expect.stderr.txt", dir);
        check_trace(dir, out, exists(err) ? err : NULL);
    }
    free_list(v);
}
END_TEST

/* babeltrace2's own CTF 2 traces: succeed/ and intersection/. Their
 * expected text is pretty/GROUP-NAME.expect.txt, or the converted twin's
 * when pretty/same-as-peer.txt says they are the same. */
START_TEST(test_ctf2_babeltrace_succeed)
{
    const char *peer = drv_peer_dir();
    if (peer == NULL)
        return;
    static const char *const groups[] = {"succeed", "intersection"};
    size_t total = 0;
    for (size_t g = 0; g < 2; g++) {
        char root[1024];
        snprintf(root, sizeof root, "%s/ctf2/babeltrace-2.1.2/ctf-traces/2/%s", peer, groups[g]);
        size_t n;
        char **v = subdirs(root, &n);
        for (size_t i = 0; i < n; i++) {
            char dir[1200], out[1300], err[1300];
            snprintf(dir, sizeof dir, "%s/%s", root, v[i]);
            snprintf(out, sizeof out, "%s/ctf2/babeltrace-2.1.2/pretty/%s-%s.expect.txt", peer,
                     groups[g], v[i]);
            snprintf(err, sizeof err, "%s/ctf2/babeltrace-2.1.2/pretty/%s-%s.expect.stderr.txt",
                     peer, groups[g], v[i]);
            if (!exists(out)) {
                snprintf(out, sizeof out, "%s/ctf2/converted/peer-%s-%s.expect.txt", peer,
                         groups[g], v[i]);
                if (!exists(err))
                    snprintf(err, sizeof err,
                             "%s/ctf2/converted/peer-%s-%s.expect.stderr.txt", peer, groups[g],
                             v[i]);
            }
            check_trace(dir, out, exists(err) ? err : NULL);
            total++;
        }
        free_list(v);
    }
    ck_assert_uint_eq(total, 28);
}
END_TEST

/* babeltrace2's fail/ traces end in a clear error, after the same events. */
START_TEST(test_ctf2_babeltrace_fail)
{
    const char *peer = drv_peer_dir();
    if (peer == NULL)
        return;
    static const struct {
        const char *name;
        tracerd_status_t st;
        const char *reason;
    } fails[] = {
        {"empty-event-record", TRACERD_E_BAD_RECORD, "the event is empty"},
        {"meta-no-stream-cls", TRACERD_E_METADATA, "declares no data stream class"},
        {"meta-no-trace-cls-no-stream-cls", TRACERD_E_METADATA,
         "declares no data stream class"},
    };
    for (size_t i = 0; i < sizeof fails / sizeof fails[0]; i++) {
        char dir[1200], out[1300];
        snprintf(dir, sizeof dir, "%s/ctf2/babeltrace-2.1.2/ctf-traces/2/fail/%s", peer,
                 fails[i].name);
        snprintf(out, sizeof out, "%s/ctf2/babeltrace-2.1.2/pretty/fail-%s.expect.txt", peer,
                 fails[i].name);
        struct peer_result pr;
        read_dir_as(dir, NULL, &pr, true);
        ck_assert_msg(pr.st == fails[i].st, "%s: %s %s", fails[i].name,
                      tracerd_status_name(pr.st), pr.reason);
        ck_assert_msg(strstr(pr.reason, fails[i].reason) != NULL, "%s: %s", fails[i].name,
                      pr.reason);
        char *expected = slurp(out);
        ck_assert_ptr_nonnull(expected);
        if (i == 0) /* tracerd delivers the empty event, then fails (doc/formats/ctf.md) */
            ck_assert_str_eq(pr.text.out.buf, ": \n");
        else
            ck_assert_uint_eq(compare_bt2(fails[i].name, expected, pr.text.out.buf), 0);
        free(expected);
        ctf_text_free(&pr.text);
    }
}
END_TEST

/* Each converted trace gives the same events as its CTF 1.8 original. */
START_TEST(test_ctf2_same_as_ctf18)
{
    const char *peer = drv_peer_dir();
    if (peer == NULL)
        return;
    char root[1024];
    snprintf(root, sizeof root, "%s/ctf2/converted", peer);
    size_t n, compared = 0;
    char **v = subdirs(root, &n);
    for (size_t i = 0; i < n; i++) {
        /* peer-GROUP-NAME: the first '-' of NAME whose split names a 1.8 trace */
        const char *g = v[i] + 5;
        char d2[1200], d1[1200];
        snprintf(d2, sizeof d2, "%s/%s", root, v[i]);
        d1[0] = '\0';
        for (const char *dash = strchr(g, '-'); dash != NULL; dash = strchr(dash + 1, '-')) {
            snprintf(d1, sizeof d1, "%s/ctf/%.*s/%s", peer, (int)(dash - g), g, dash + 1);
            if (exists(d1))
                break;
        }
        ck_assert_msg(exists(d1), "%s: no CTF 1.8 original", v[i]);
        struct peer_result p1, p2;
        tracerd_ctf_dir_config_t cfg;
        tracerd_ctf_dir_config_init(&cfg);
        cfg.stream.check_uuid = false; /* two 1.8 originals carry foreign packet uuids */
        read_dir_as(d1, &cfg, &p1, true);
        read_dir_as(d2, &cfg, &p2, true);
        ck_assert_msg(p1.st == TRACERD_OK && p2.st == TRACERD_OK, "%s: %s / %s", v[i], p1.reason,
                      p2.reason);
        ck_assert_msg(strcmp(p1.text.out.buf, p2.text.out.buf) == 0,
                      "%s: CTF 1.8 and CTF 2 events differ", v[i]);
        ck_assert_uint_eq(p1.text.lost_events, p2.text.lost_events);
        ck_assert_uint_eq(p1.text.lost_packets, p2.text.lost_packets);
        ctf_text_free(&p1.text);
        ctf_text_free(&p2.text);
        compared++;
    }
    free_list(v);
    ck_assert_uint_ge(compared, 40);
}
END_TEST

/* ==== the writer's feature trace ============================================ */

/* Every field class the peer traces lack, in both byte orders, through
 * every split / pause / allocation-failure plan: one golden log (the layout
 * is the same in both byte orders), and the fast path agrees. */
START_TEST(test_ctf2_writer_features)
{
    char *logs[2];
    for (int big = 0; big < 2; big++) {
        char *meta = ctf2_writer_metadata(big);
        size_t len;
        uint8_t *data = ctf2_writer_stream(big, &len);
        struct target_cfg c;
        cfg_init(&c, meta);
        logs[big] = drv_check_all(&ctf_target, &c, data, len);
        expect_ok(logs[big]);
        check_fast_path(meta, data, len, logs[big]);
        free(meta);
        free(data);
    }
    ck_assert_str_eq(logs[0], logs[1]);
    drv_golden("ctf2/features.log", logs[0]);
    free(logs[0]);
    free(logs[1]);
}
END_TEST

Suite *suite_ctf2(void)
{
    Suite *s = suite_create("ctf2");
    TCase *tc = tcase_create("peer");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_ctf2_converted);
    suite_add_tcase(s, tc);
    tc = tcase_create("writer");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_ctf2_writer_features);
    tcase_add_test(tc, test_ctf2_babeltrace_succeed);
    tcase_add_test(tc, test_ctf2_babeltrace_fail);
    tcase_add_test(tc, test_ctf2_same_as_ctf18);
    suite_add_tcase(s, tc);
    return s;
}
