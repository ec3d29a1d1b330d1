/* Runs every Check suite; the list comes from tests/check_*.c (see Makefile). */
#include <check.h>
#include <stdlib.h>

#define X(name) Suite *suite_##name(void);
#include "suites.h"
#undef X

int main(void)
{
    SRunner *sr = srunner_create(NULL);
#define X(name) srunner_add_suite(sr, suite_##name());
#include "suites.h"
#undef X
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
