/* Declarations of the LLVM XRay runtime entry points used by the recording
 * programs (the runtime's own headers are C++ only), and helpers to select,
 * initialise, patch, finalise and flush a logging mode from C.
 * Built only by tests/xray/record.sh, never by the Makefile. */
#ifndef TESTS_XRAY_XRAY_RT_H
#define TESTS_XRAY_XRAY_RT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int __xray_log_select_mode(const char *mode);
int __xray_log_init_mode(const char *mode, const char *config);
int __xray_patch(void);
int __xray_unpatch(void);
int __xray_log_finalize(void);
int __xray_log_flushLog(void);
uint16_t __xray_register_event_type(const char *name);

/* XRayLogRegisterStatus, XRayLogInitStatus, XRayPatchingStatus, XRayLogFlushStatus. */
#define RT_REGISTRATION_OK 0
#define RT_LOG_INITIALIZED 2
#define RT_LOG_FINALIZED 4
#define RT_PATCH_SUCCESS 1
#define RT_LOG_FLUSHED 2

#define NOINLINE __attribute__((noinline))
#define NO_XRAY __attribute__((xray_never_instrument))

/* Selects and initialises `mode` with `config`, then patches every sled. */
NO_XRAY static inline void rt_start(const char *mode, const char *config)
{
    int rc = __xray_log_select_mode(mode);
    if (rc != RT_REGISTRATION_OK) {
        fprintf(stderr, "xray: select_mode(%s) = %d\n", mode, rc);
        exit(2);
    }
    rc = __xray_log_init_mode(mode, config);
    if (rc != RT_LOG_INITIALIZED) {
        fprintf(stderr, "xray: init_mode(%s, %s) = %d\n", mode, config, rc);
        exit(2);
    }
    rc = __xray_patch();
    if (rc != RT_PATCH_SUCCESS) {
        fprintf(stderr, "xray: patch = %d\n", rc);
        exit(2);
    }
}

/* Unpatches, finalises and flushes the log to its file. */
NO_XRAY static inline void rt_stop(void)
{
    __xray_unpatch();
    int rc = __xray_log_finalize();
    if (rc != RT_LOG_FINALIZED) {
        fprintf(stderr, "xray: finalize = %d\n", rc);
        exit(2);
    }
    rc = __xray_log_flushLog();
    if (rc != RT_LOG_FLUSHED) {
        fprintf(stderr, "xray: flushLog = %d\n", rc);
        exit(2);
    }
}

#endif
