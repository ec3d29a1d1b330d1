/* Input sources for every command: a file, a CTF directory, "-" (standard
 * input), tcp://HOST:PORT (connect) and --listen HOST:PORT (accept one
 * connection). All end up as one file descriptor read by cli_pump in chunks;
 * a slow consumer simply stops reading, so TCP flow control pushes back on
 * the sender. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <tracerd/event.h>

#include "cli.h"

/* Splits "HOST:PORT" (HOST may be "[v6]") into host and port. */
static int split_hostport(const char *spec, char *host, size_t hostcap, char *port, size_t portcap)
{
    const char *colon = strrchr(spec, ':');
    if (colon == NULL || colon[1] == '\0')
        return -1;
    const char *h = spec;
    size_t hl = (size_t)(colon - spec);
    if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') {
        h++;
        hl -= 2;
    }
    size_t pl = strlen(colon + 1);
    if (hl >= hostcap || pl >= portcap)
        return -1;
    memcpy(host, h, hl);
    host[hl] = '\0';
    memcpy(port, colon + 1, pl + 1);
    return 0;
}

static int resolve(const cli_t *c, const char *spec, bool passive, struct addrinfo **res)
{
    char host[256], port[32];
    if (split_hostport(spec, host, sizeof host, port, sizeof port) != 0) {
        fprintf(stderr, "%s: %s: expected HOST:PORT\n", c->prog, spec);
        return CLI_EXIT_USAGE;
    }
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = passive ? AI_PASSIVE : 0;
    int rc = getaddrinfo(host[0] ? host : NULL, port, &hints, res);
    if (rc != 0) {
        fprintf(stderr, "%s: %s: %s\n", c->prog, spec, gai_strerror(rc));
        return CLI_EXIT_IO;
    }
    return CLI_EXIT_OK;
}

/* SO_RCVTIMEO bounds each read (and accept, on a listening socket);
 * SO_SNDTIMEO bounds connect (Linux). 0 = no bound. */
static void set_timeout(int fd, unsigned seconds)
{
    if (seconds == 0)
        return;
    struct timeval tv;
    tv.tv_sec = (time_t)seconds;
    tv.tv_usec = 0;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

static bool timed_out_errno(int err)
{
    return err == EAGAIN || err == EWOULDBLOCK || err == EINPROGRESS;
}

static int connect_tcp(cli_t *c, const char *spec)
{
    struct addrinfo *res;
    int rc = resolve(c, spec, false, &res);
    if (rc != CLI_EXIT_OK)
        return rc;
    int fd = -1, err = 0;
    for (struct addrinfo *ai = res; ai != NULL && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) {
            err = errno;
            continue;
        }
        set_timeout(fd, c->timeout);
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0 && c->timeout > 0 && timed_out_errno(err)) {
        fprintf(stderr, "%s: %s: cannot connect: no answer for %u s (--timeout %u)\n", c->prog,
                c->path, c->timeout, c->timeout);
        return CLI_EXIT_IO;
    }
    if (fd < 0) {
        fprintf(stderr, "%s: %s: cannot connect: %s\n", c->prog, c->path, strerror(err));
        return CLI_EXIT_IO;
    }
    c->fd = fd;
    return CLI_EXIT_OK;
}

static int accept_one(cli_t *c)
{
    struct addrinfo *res;
    int rc = resolve(c, c->listen, true, &res);
    if (rc != CLI_EXIT_OK)
        return rc;
    int lfd = -1, err = 0;
    for (struct addrinfo *ai = res; ai != NULL && lfd < 0; ai = ai->ai_next) {
        lfd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (lfd < 0) {
            err = errno;
            continue;
        }
        int one = 1;
        setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(lfd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(lfd, 1) != 0) {
            err = errno;
            close(lfd);
            lfd = -1;
        }
    }
    freeaddrinfo(res);
    if (lfd < 0) {
        fprintf(stderr, "%s: %s: cannot listen: %s\n", c->prog, c->listen, strerror(err));
        return CLI_EXIT_IO;
    }
    if (!c->quiet) {
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        char host[NI_MAXHOST], port[NI_MAXSERV];
        if (getsockname(lfd, (struct sockaddr *)&ss, &sl) == 0 &&
            getnameinfo((struct sockaddr *)&ss, sl, host, sizeof host, port, sizeof port,
                        NI_NUMERICHOST | NI_NUMERICSERV) == 0)
            fprintf(stderr, "%s: listening on %s:%s\n", c->prog, host, port);
        fflush(stderr);
    }
    if (c->timeout_given)
        set_timeout(lfd, c->timeout);
    int fd;
    do
        fd = accept(lfd, NULL, NULL);
    while (fd < 0 && errno == EINTR);
    err = errno;
    close(lfd);
    if (fd < 0 && c->timeout_given && timed_out_errno(err)) {
        fprintf(stderr, "%s: %s: no connection for %u s (--timeout %u)\n", c->prog, c->listen,
                c->timeout, c->timeout);
        return CLI_EXIT_IO;
    }
    if (fd < 0) {
        fprintf(stderr, "%s: %s: accept: %s\n", c->prog, c->listen, strerror(err));
        return CLI_EXIT_IO;
    }
    set_timeout(fd, c->timeout);
    c->fd = fd;
    return CLI_EXIT_OK;
}

/* Has the head enough bytes to detect the format? A file's head is read
 * whole (no waiting); live input (a pipe, a terminal, a socket) stops as soon
 * as the format is known, as the library's auto reader does: a magic number
 * (a score of TRACERD_AUTO_DETECT_SURE) or TRACERD_AUTO_DETECT_BYTES bytes;
 * with --format, nothing is waited for. */
static bool head_enough(const cli_t *c)
{
    if (c->total_size > 0 || c->head_len == sizeof c->head)
        return c->head_len == sizeof c->head;
    if (c->format != NULL || c->head_len >= TRACERD_AUTO_DETECT_BYTES)
        return true;
    int score = 0;
    return tracerd_event_detect(c->head, c->head_len, &score) != TRACERD_EVENT_FORMAT_UNKNOWN &&
           score >= TRACERD_AUTO_DETECT_SURE;
}

static int read_head(cli_t *c)
{
    while (!head_enough(c)) {
        ssize_t n = cli_read(c, c->head + c->head_len, sizeof c->head - c->head_len);
        if (n < 0 && c->timed_out && c->head_len > 0)
            break; /* cli_pump feeds what came, then stops */
        if (n < 0)
            return CLI_EXIT_IO;
        if (n == 0)
            break;
        c->head_len += (size_t)n;
        c->bytes_read = c->head_len;
    }
    return CLI_EXIT_OK;
}

int cli_open_input(cli_t *c)
{
    int rc;
    c->progress = !c->quiet && isatty(STDERR_FILENO);
    bool socket_input = c->listen != NULL || strncmp(c->path, "tcp://", 6) == 0;
    if (!socket_input)
        c->timeout = 0; /* files and pipes never time out */
    else if (!c->timeout_given)
        c->timeout = CLI_TIMEOUT_DEFAULT;
    if (c->listen != NULL) {
        rc = accept_one(c);
    } else if (strcmp(c->path, "-") == 0) {
        c->fd = STDIN_FILENO;
        rc = CLI_EXIT_OK;
    } else if (strncmp(c->path, "tcp://", 6) == 0) {
        rc = connect_tcp(c, c->path + 6);
    } else {
        struct stat sb;
        if (stat(c->path, &sb) != 0) {
            fprintf(stderr, "%s: %s: %s\n", c->prog, c->path, strerror(errno));
            return CLI_EXIT_IO;
        }
        if (S_ISDIR(sb.st_mode)) {
            c->is_dir = true;
            c->fd = -1;
            return CLI_EXIT_OK;
        }
        if (S_ISREG(sb.st_mode))
            c->total_size = (uint64_t)sb.st_size;
        c->fd = open(c->path, O_RDONLY);
        if (c->fd < 0) {
            fprintf(stderr, "%s: %s: %s\n", c->prog, c->path, strerror(errno));
            return CLI_EXIT_IO;
        }
        rc = CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    return read_head(c);
}
