/* Reader options from the command line: --lenient, and -o FORMAT.KEY=VALUE
 * (doc/tracerd.1, READER OPTIONS). One place builds each format's config, so
 * info, dump, json and stats read a trace the same way. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The value of -o PREFIX.KEY=VALUE items: calls item() for each item whose
 * key starts with prefix (and for each key=value of env, when set), with the
 * key after the prefix. item() returns false for an unknown key or bad value,
 * which is reported naming where it came from. */

bool cli_for_items(const cli_t *c, const char *prefix, const char *env, cli_opt_item_fn item,
                   void *cfg)
{
    char buf[512];
    const char *envv = env != NULL ? getenv(env) : NULL;
    if (envv != NULL && *envv != '\0') {
        if (strlen(envv) >= sizeof buf) {
            fprintf(stderr, "%s: %s is too long\n", c->prog, env);
            return false;
        }
        strcpy(buf, envv);
        for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv != NULL;
             kv = strtok_r(NULL, ",", &save)) {
            char *v = strchr(kv, '=');
            if (v == NULL) {
                fprintf(stderr, "%s: %s: '%s' is not key=value\n", c->prog, env, kv);
                return false;
            }
            *v++ = '\0';
            if (!item(cfg, kv, v)) {
                fprintf(stderr, "%s: %s: bad option %s=%s\n", c->prog, env, kv, v);
                return false;
            }
        }
    }
    size_t plen = strlen(prefix);
    for (unsigned i = 0; i < c->nopts; i++) {
        const char *o = c->opts[i];
        if (strncmp(o, prefix, plen) != 0)
            continue;
        const char *eq = strchr(o, '=');
        if (eq == NULL || (size_t)(eq - (o + plen)) >= sizeof buf) {
            fprintf(stderr, "%s: -o %s: not FORMAT.KEY=VALUE\n", c->prog, o);
            return false;
        }
        size_t klen = (size_t)(eq - (o + plen));
        memcpy(buf, o + plen, klen);
        buf[klen] = '\0';
        if (!item(cfg, buf, eq + 1)) {
            fprintf(stderr, "%s: -o %s: unknown key or bad value\n", c->prog, o);
            return false;
        }
    }
    return true;
}

bool cli_opt_yes_no(const char *v, bool *out)
{
    if (strcmp(v, "yes") == 0 || strcmp(v, "1") == 0 || strcmp(v, "true") == 0)
        *out = true;
    else if (strcmp(v, "no") == 0 || strcmp(v, "0") == 0 || strcmp(v, "false") == 0)
        *out = false;
    else
        return false;
    return true;
}

bool cli_opt_byte_order(const char *v, bool allow_auto, tracerd_byte_order_t *out)
{
    if (allow_auto && strcmp(v, "auto") == 0)
        *out = TRACERD_BYTE_ORDER_AUTO;
    else if (strcmp(v, "little") == 0)
        *out = TRACERD_BYTE_ORDER_LITTLE;
    else if (strcmp(v, "big") == 0)
        *out = TRACERD_BYTE_ORDER_BIG;
    else
        return false;
    return true;
}

/* ---- all ------------------------------------------------------------------- */

int cli_config_check(const cli_t *c)
{
    for (unsigned i = 0; i < c->nopts; i++) {
        const char *o = c->opts[i];
        bool known = false;
        for (size_t k = 0; cli_formats[k] != NULL; k++) {
            size_t n = strlen(cli_formats[k]->name);
            known = known || (strncmp(o, cli_formats[k]->name, n) == 0 && o[n] == '.');
        }
        if (!known || strchr(o, '=') == NULL) {
            fprintf(stderr, "%s: -o %s: not FORMAT.KEY=VALUE with FORMAT one of ", c->prog, o);
            for (size_t k = 0; cli_formats[k] != NULL; k++)
                fprintf(stderr, "%s%s", k ? ", " : "", cli_formats[k]->name);
            fputc('\n', stderr);
            return CLI_EXIT_USAGE;
        }
    }
    /* Every format builds its configs once now, so that a bad option is a
     * usage error before any input is read. */
    for (size_t k = 0; cli_formats[k] != NULL; k++) {
        cli_config_store_t store;
        tracerd_auto_config_t cfg;
        tracerd_auto_config_init(&cfg);
        int rc = cli_formats[k]->options(c, &store, &cfg);
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    return CLI_EXIT_OK;
}

int cli_event_configs(const cli_t *c, cli_config_store_t store[CLI_NFORMATS],
                      tracerd_auto_config_t *cfg)
{
    tracerd_auto_config_init(cfg);
    for (size_t k = 0; cli_formats[k] != NULL; k++) {
        int rc = cli_formats[k]->options(c, &store[k], cfg);
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    return CLI_EXIT_OK;
}
