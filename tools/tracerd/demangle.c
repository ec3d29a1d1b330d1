/* C++ names demangled for the CLI's output (never in libtracerd): the C++
 * runtime's __cxa_demangle, looked up at run time in libstdc++ (dlopen), so
 * the CLI needs no C++ runtime to build or run; without it, names stay as
 * they are. Only Itanium-ABI names (starting "_Z") are tried. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

struct cli_demangler {
    bool tried; /* libstdc++ looked up (at the first mangled name) */
    void *lib;
    cxa_demangle_fn fn;
};

cli_demangler_t *cli_demangler_open(void)
{
    return calloc(1, sizeof(cli_demangler_t));
}

/* Loads the C++ runtime once, when a name first needs it: most traces have
 * no mangled names, and loading libstdc++ cost ~0.8 ms of every run. */
static bool load(cli_demangler_t *d)
{
    if (!d->tried) {
        d->tried = true;
        d->lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        if (d->lib != NULL) {
            void *sym = dlsym(d->lib, "__cxa_demangle");
            memcpy(&d->fn, &sym, sizeof d->fn); /* object to function pointer, as POSIX allows */
        }
    }
    return d->fn != NULL;
}

size_t cli_demangle(cli_demangler_t *d, const char *name, size_t len, char *out, size_t cap)
{
    char tmp[1024];
    if (d == NULL || len < 3 || name[0] != '_' || name[1] != 'Z' || len >= sizeof tmp || cap == 0 ||
        !load(d))
        return 0;
    memcpy(tmp, name, len);
    tmp[len] = '\0';
    int status = -1;
    char *dm = d->fn(tmp, NULL, NULL, &status);
    if (dm == NULL || status != 0) {
        free(dm);
        return 0;
    }
    size_t n = strlen(dm);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, dm, n);
    out[n] = '\0';
    free(dm);
    return n;
}

void cli_demangler_close(cli_demangler_t *d)
{
    if (d == NULL)
        return;
    if (d->lib != NULL)
        dlclose(d->lib);
    free(d);
}
