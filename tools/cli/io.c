/* Input and output: reading FILE or standard input, and the output sink
 * that writes nothing to the destination unless the whole operation
 * succeeded (--out FILE: a temporary file renamed over FILE; stdout:
 * buffered until commit), with the signal cleanup of temporary files and
 * the guard of descriptors 0-2 (docs/ROBUSTNESS.md). */
#define _XOPEN_SOURCE 700 /* mkstemp, fsync, fileno, realpath, sigaction, fchown */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Descriptors 0-2 that were closed when the program started (now /dev/null,
 * so that no file the program opens takes their place). */
bool stdin_closed, stdout_closed;

bool is_stdin(const char *path) { return !path || strcmp(path, "-") == 0; }

const char *display_name(const char *path) {
    return is_stdin(path) ? "<stdin>" : path;
}

int open_input(const char *path, FILE **out) {
    if (is_stdin(path)) {
        if (stdin_closed) return io_error("cannot read", "<stdin>", EBADF);
        *out = stdin;
        return EXIT_OK;
    }
    FILE *fp = fopen(path, "rb");
    if (!fp) return io_error("cannot open", path, errno);
    *out = fp;
    return EXIT_OK;
}

void close_input(FILE *fp) {
    if (fp && fp != stdin) fclose(fp); /* read-only: nothing to lose */
}

/* Reads one chunk; a read error (not EOF) is reported. */
int read_chunk(FILE *fp, const char *path, uint8_t *buf, size_t cap, size_t *got) {
    *got = fread(buf, 1, cap, fp);
    if (*got < cap && ferror(fp)) return io_error("cannot read", display_name(path), errno);
    return EXIT_OK;
}

/* Reads a whole file into memory. Growth copies and wipes, since the data may
 * be a key or plaintext. On success *out (never NULL) holds *out_len bytes in
 * an allocation of *out_cap bytes, all of which the caller wipes. More than
 * `max` bytes (SIZE_MAX: no limit) is a DataError, found before reading
 * further (a key file of /dev/zero ends there). */
int read_all(const char *path, size_t max, uint8_t **out, size_t *out_len,
             size_t *out_cap) {
    FILE *fp = NULL; /* set by open_input on success; -O3 cannot see that */
    int rc = open_input(path, &fp);
    if (rc) return rc;
    size_t cap = CHUNK, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        close_input(fp);
        return no_memory();
    }
    for (;;) {
        if (len == cap) {
            if (cap > SIZE_MAX / 2) {
                rc = no_memory();
                break;
            }
            uint8_t *nb = malloc(cap * 2);
            if (!nb) {
                rc = no_memory();
                break;
            }
            memcpy(nb, buf, len);
            wipe_free(buf, cap);
            buf = nb;
            cap *= 2;
        }
        size_t got;
        rc = read_chunk(fp, path, buf + len, cap - len, &got);
        if (rc) break;
        len += got;
        if (len > max) {
            print_error(webcrypto_status_name(WEBCRYPTO_ERR_DATA),
                        "%s: a key file is at most %zu bytes", display_name(path), max);
            rc = EXIT_CRYPTO;
            break;
        }
        if (feof(fp)) break;
    }
    close_input(fp);
    if (rc) {
        wipe_free(buf, cap);
        return rc;
    }
    *out = buf;
    *out_len = len;
    *out_cap = cap;
    return EXIT_OK;
}

/* Temporary files hold output that is not yet valid (unauthenticated
 * plaintext, half a key pair): a signal that ends the program removes them.
 * The handler only unlinks registered names and re-raises the signal with
 * its default action (both async-signal-safe); registration changes with
 * those signals blocked. SIGKILL cannot be caught: it can leave a
 * .NAME.tmp.XXXXXX file (mode 0600) beside NAME. */
#define MAX_TEMPS 3
static char *volatile temp_files[MAX_TEMPS];
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
#define N_CLEANUP_SIGNALS (sizeof cleanup_signals / sizeof cleanup_signals[0])

static void on_fatal_signal(int sig) {
    for (int i = 0; i < MAX_TEMPS; i++) {
        char *t = temp_files[i];
        if (t) unlink(t);
    }
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns: sig is blocked in it */
}

void install_signal_cleanup(void) {
    for (size_t i = 0; i < N_CLEANUP_SIGNALS; i++) {
        struct sigaction old;
        if (sigaction(cleanup_signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue; /* e.g. nohup's SIGHUP stays ignored */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t j = 0; j < N_CLEANUP_SIGNALS; j++) sigaddset(&sa.sa_mask, cleanup_signals[j]);
        sigaction(cleanup_signals[i], &sa, NULL);
    }
}

static void signals_block(sigset_t *old) {
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < N_CLEANUP_SIGNALS; i++) sigaddset(&set, cleanup_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void signals_restore(const sigset_t *old) { sigprocmask(SIG_SETMASK, old, NULL); }

/* Call with the signals blocked. */
static void temp_register(char *path) {
    for (int i = 0; i < MAX_TEMPS; i++)
        if (!temp_files[i]) {
            temp_files[i] = path;
            return;
        }
}

static void temp_unregister(const char *path) {
    for (int i = 0; i < MAX_TEMPS; i++)
        if (temp_files[i] == path) temp_files[i] = NULL;
}

/* A name beside `target` ("DIR/.BASE<suffix>"); caller frees. */
static char *name_beside(const char *target, const char *suffix) {
    const char *slash = strrchr(target, '/');
    size_t dir_len = slash ? (size_t)(slash - target) + 1 : 0;
    size_t n = strlen(target) + 2 + strlen(suffix);
    char *out = malloc(n);
    if (out) snprintf(out, n, "%.*s.%s%s", (int)dir_len, target, target + dir_len, suffix);
    return out;
}

/* Removes and forgets the temporary file, if any. */
static void sink_abort_path(sink *s) {
    if (s->tmp_path) {
        sigset_t old;
        signals_block(&old);
        unlink(s->tmp_path);
        temp_unregister(s->tmp_path);
        signals_restore(&old);
        free(s->tmp_path);
        s->tmp_path = NULL;
    }
    free(s->resolved);
    s->resolved = NULL;
}

int sink_open(sink *s, const char *path) {
    memset(s, 0, sizeof *s);
    s->path = path;
    if (!path) return EXIT_OK;
    const char *slash = strrchr(path, '/');
    if (!*(slash ? slash + 1 : path)) return usage_error("--out: not a file name: %s", path);
    /* What FILE is decides how it is written (--help, docs/ROBUSTNESS.md). */
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return io_error("cannot write to", path, EISDIR);
        if (!S_ISREG(st.st_mode)) {
            /* A device, FIFO or socket is written in place: replacing it by a
             * regular file would break it (and /dev/full must report ENOSPC). */
            int fd = open(path, O_WRONLY | O_NOCTTY | O_APPEND);
            if (fd < 0) return io_error("cannot open", path, errno);
            s->fp = fdopen(fd, "wb");
            if (!s->fp) {
                int err = errno;
                close(fd);
                return io_error("cannot open", path, err);
            }
            s->direct = true;
            return EXIT_OK;
        }
        s->had_old = true;
        s->old = st;
    } else if (errno != ENOENT) {
        return io_error("cannot open", path, errno);
    }
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        /* The file the link names is replaced; the link stays. */
        if (!s->had_old)
            return io_error("cannot write through the dangling symbolic link", path, ENOENT);
        s->resolved = realpath(path, NULL);
        if (!s->resolved) return io_error("cannot resolve", path, errno);
    }
    s->target = s->resolved ? s->resolved : path;
    /* The temporary file lives beside the target so that rename() is atomic. */
    s->tmp_path = name_beside(s->target, ".tmp.XXXXXX");
    if (!s->tmp_path) {
        free(s->resolved);
        return no_memory();
    }
    sigset_t old;
    signals_block(&old);
    int fd = mkstemp(s->tmp_path); /* mode 0600 while the output may be invalid */
    if (fd >= 0) temp_register(s->tmp_path);
    signals_restore(&old);
    if (fd < 0) {
        int err = errno;
        free(s->tmp_path);
        free(s->resolved);
        s->tmp_path = s->resolved = NULL;
        return io_error("cannot create a temporary file for", path, err);
    }
    s->fp = fdopen(fd, "wb");
    if (!s->fp) {
        int err = errno;
        close(fd);
        s->fp = NULL;
        sink_abort_path(s);
        return io_error("cannot open", path, err);
    }
    return EXIT_OK;
}

int sink_write(sink *s, const uint8_t *data, size_t len) {
    if (len == 0) return EXIT_OK;
    if (s->fp) {
        if (fwrite(data, 1, len, s->fp) != len) return io_error("cannot write", s->path, errno);
        return EXIT_OK;
    }
    if (len > s->cap - s->len) {
        size_t ncap = s->cap ? s->cap : 256;
        while (len > ncap - s->len) {
            if (ncap > SIZE_MAX / 2) return no_memory();
            ncap *= 2;
        }
        uint8_t *nb = malloc(ncap);
        if (!nb) return no_memory();
        if (s->len) memcpy(nb, s->buf, s->len);
        wipe_free(s->buf, s->cap);
        s->buf = nb;
        s->cap = ncap;
    }
    memcpy(s->buf + s->len, data, len);
    s->len += len;
    return EXIT_OK;
}

/* Discards everything: the temporary file is removed, FILE is untouched
 * (a special file keeps what was already written to it). */
void sink_abort(sink *s) {
    if (s->fp) {
        fclose(s->fp);
        s->fp = NULL;
    }
    sink_abort_path(s);
    wipe_free(s->buf, s->cap);
    s->buf = NULL;
    s->len = s->cap = 0;
}

/* Writes `tail`, flushes, and readies the temporary file to replace the
 * target (the target's mode, and owner where allowed); closes the file. On
 * failure the sink is aborted. A special file is done after this. */
static int sink_finish(sink *s, const uint8_t *tail, size_t tail_len) {
    int rc = sink_write(s, tail, tail_len);
    if (rc == EXIT_OK && fflush(s->fp) != 0) rc = io_error("cannot write", s->path, errno);
    if (rc == EXIT_OK && !s->direct) {
        int fd = fileno(s->fp);
        if (fsync(fd) != 0) rc = io_error("cannot write", s->path, errno);
        if (rc == EXIT_OK && s->had_old) {
            /* An owner that cannot be given (not root) stays ours. */
            if (fchown(fd, s->old.st_uid, s->old.st_gid) != 0 && errno != EPERM)
                rc = io_error("cannot set the owner of", s->path, errno);
            if (rc == EXIT_OK && fchmod(fd, s->old.st_mode & 07777) != 0)
                rc = io_error("cannot set the mode of", s->path, errno);
        }
    }
    if (rc == EXIT_OK) {
        FILE *fp = s->fp;
        s->fp = NULL;
        if (fclose(fp) != 0) rc = io_error("cannot write", s->path, errno);
    }
    if (rc) sink_abort(s);
    return rc;
}

/* Renames the finished temporary file over the target; call with the
 * signals blocked. Returns errno's value, 0 on success. */
static int sink_publish_blocked(sink *s) {
    if (s->direct || !s->tmp_path) return 0;
    if (rename(s->tmp_path, s->target) != 0) return errno;
    temp_unregister(s->tmp_path);
    free(s->tmp_path);
    s->tmp_path = NULL;
    return 0;
}

/* Writes `tail` after what was written before, then publishes the result.
 * On failure the sink is aborted. */
int sink_commit(sink *s, const uint8_t *tail, size_t tail_len) {
    int rc = EXIT_OK;
    if (s->path) {
        rc = sink_finish(s, tail, tail_len);
        if (rc) return rc;
        sigset_t old;
        signals_block(&old);
        int err = sink_publish_blocked(s);
        signals_restore(&old);
        if (err) rc = io_error("cannot rename the temporary file to", s->path, err);
    } else if (stdout_closed) {
        rc = io_error("cannot write", "<stdout>", EBADF);
    } else {
        if ((s->len && fwrite(s->buf, 1, s->len, stdout) != s->len) ||
            (tail_len && fwrite(tail, 1, tail_len, stdout) != tail_len) || fflush(stdout) != 0)
            rc = io_error("cannot write", "<stdout>", errno);
    }
    sink_abort(s); /* frees what is left; after success there is no temp file */
    return rc;
}

/* The absolute form of an output path: its directory resolved (symbolic
 * links, "." and ".."), then its last component; NULL if the directory does
 * not exist. Caller frees. */
static char *output_path_canonical(const char *path) {
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t dir_len = slash ? (size_t)(slash - path) : 0;
    char dir[PATH_MAX];
    if (dir_len >= sizeof dir) return NULL;
    if (slash) {
        memcpy(dir, path, dir_len);
        dir[dir_len] = 0;
        if (dir_len == 0) strcpy(dir, "/");
    } else {
        strcpy(dir, ".");
    }
    char resolved[PATH_MAX];
    if (!realpath(dir, resolved)) return NULL;
    size_t n = strlen(resolved) + 1 + strlen(base) + 1;
    char *out = malloc(n);
    if (out) snprintf(out, n, "%s/%s", strcmp(resolved, "/") == 0 ? "" : resolved, base);
    return out;
}

/* Whether two output paths name one file: the same inode when both exist,
 * else the same canonical path ("k.jwk" and "./k.jwk" included). */
bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ca = output_path_canonical(a), *cb = output_path_canonical(b);
    bool same = ca && cb ? strcmp(ca, cb) == 0 : strcmp(a, b) == 0;
    free(ca);
    free(cb);
    return same;
}

/* The file an input names, if it is a regular file: `path` or, for "-"
 * (standard input), what descriptor 0 reads. */
static bool input_file(const char *path, struct stat *st) {
    if (is_stdin(path)) return !stdin_closed && fstat(0, st) == 0 && S_ISREG(st->st_mode);
    return stat(path, st) == 0 && S_ISREG(st->st_mode);
}

/* No output may replace a file the command reads, nor another output. An
 * input and an output clash when both are the same regular file (device and
 * inode, through symbolic and hard links: a new name cannot clash, and a
 * device or FIFO is written in place, never replaced). Checked before
 * anything is read or written, so that the input stays as it was. */
int check_distinct_files(const cli *c, const char *in_name, const char *in_path) {
    static const int out_opts[] = {OPT_OUT, OPT_OUT_PRIVATE, OPT_OUT_PUBLIC};
    static const int in_opts[] = {OPT_KEY, OPT_PUBLIC_KEY, OPT_WRAPPING_KEY};
    const size_t n_out = sizeof out_opts / sizeof out_opts[0];
    for (size_t i = 0; i < n_out; i++) {
        const char *out = c->opt[out_opts[i]];
        if (!out) continue;
        for (size_t j = i + 1; j < n_out; j++) {
            const char *other = c->opt[out_opts[j]];
            if (other && same_file(out, other))
                return usage_error("%s and %s name the same file (%s)", option_name(out_opts[i]),
                                   option_name(out_opts[j]), out);
        }
        struct stat so, si;
        if (stat(out, &so) != 0 || !S_ISREG(so.st_mode)) continue;
        for (size_t j = 0; j <= sizeof in_opts / sizeof in_opts[0]; j++) {
            bool positional = j == sizeof in_opts / sizeof in_opts[0];
            if (positional && !in_name) continue;
            const char *in = positional ? in_path : c->opt[in_opts[j]];
            if (!positional && !in) continue;
            const char *what = positional ? in_name : option_name(in_opts[j]);
            if (!input_file(in, &si) || si.st_dev != so.st_dev || si.st_ino != so.st_ino) continue;
            if (is_stdin(in)) {
                char desc[64];
                snprintf(desc, sizeof desc, in ? "%s -" : "no %s given", what);
                return usage_error("%s names the file that standard input is (%s): the output "
                                   "would replace the input; nothing was read or written",
                                   option_name(out_opts[i]), desc);
            }
            bool same_name = strcmp(out, in) == 0;
            return usage_error("%s and %s name the same file (%s%s%s): the output would "
                               "replace the input; nothing was read or written",
                               option_name(out_opts[i]), what, out, same_name ? "" : ", ",
                               same_name ? "" : in);
        }
    }
    return EXIT_OK;
}

/* Writes bytes as lowercase hex plus a newline and commits. */
int sink_commit_hex(sink *s, const uint8_t *data, size_t len) {
    static const char digits[] = "0123456789abcdef";
    char line[129];
    int rc = EXIT_OK;
    size_t i = 0;
    do {
        size_t n = 0;
        for (; i < len && n + 2 < sizeof line; i++) {
            line[n++] = digits[data[i] >> 4];
            line[n++] = digits[data[i] & 15];
        }
        if (i == len) line[n++] = '\n';
        rc = sink_write(s, (const uint8_t *)line, n);
    } while (rc == EXIT_OK && i < len);
    wipe(line, sizeof line);
    if (rc) {
        sink_abort(s);
        return rc;
    }
    return sink_commit(s, NULL, 0);
}

int sink_commit_text(sink *s, const char *text) {
    int rc = sink_write(s, (const uint8_t *)text, strlen(text));
    if (rc) {
        sink_abort(s);
        return rc;
    }
    return sink_commit(s, NULL, 0);
}

/* Puts a finished pair in place, the private key first, with the signals
 * blocked throughout: the old private key is kept as a hard link until the
 * public key is in place, so that a failed second rename restores it (and a
 * new private key with no old one is removed). Only SIGKILL or a crash
 * between the two renames can leave the new private key beside the old
 * public one (and the .NAME.old.XXXXXX link, which then holds the old
 * private key). Both sinks are aborted on failure. */
int publish_pair(sink *priv, sink *pub) {
    int rc = sink_finish(priv, NULL, 0);
    if (rc) {
        sink_abort(pub);
        return rc;
    }
    rc = sink_finish(pub, NULL, 0);
    if (rc) {
        sink_abort(priv);
        return rc;
    }
    char *backup = NULL;
    sigset_t old;
    signals_block(&old);
    if (!priv->direct && priv->had_old) {
        backup = name_beside(priv->target, ".old.XXXXXX");
        int fd = backup ? mkstemp(backup) : -1; /* reserves a unique name */
        if (fd >= 0) {
            close(fd);
            temp_register(backup);
            if (unlink(backup) != 0 || link(priv->target, backup) != 0)
                rc = io_error("cannot keep the old private key", priv->path, errno);
        } else {
            rc = backup ? io_error("cannot keep the old private key", priv->path, errno)
                        : no_memory();
            free(backup);
            backup = NULL;
        }
    }
    int err = 0;
    bool keep_backup = false;
    if (!rc && (err = sink_publish_blocked(priv)) != 0)
        rc = io_error("cannot rename the temporary file to", priv->path, err);
    if (!rc && (err = sink_publish_blocked(pub)) != 0) {
        rc = io_error("cannot rename the temporary file to", pub->path, err);
        /* Undo the first rename. */
        if (priv->direct) {
            /* nothing was replaced */
        } else if (backup) {
            keep_backup = rename(backup, priv->target) != 0;
            if (keep_backup) io_error("cannot restore the old private key from", backup, errno);
        } else {
            unlink(priv->target);
        }
    }
    if (backup) {
        if (!keep_backup) unlink(backup); /* ENOENT after a restore */
        temp_unregister(backup);
        free(backup);
    }
    signals_restore(&old);
    sink_abort(priv);
    sink_abort(pub);
    return rc;
}

/* Help and version go to stdout; their write errors count too. */
int print_text(const char *text) {
    if (stdout_closed) return io_error("cannot write", "<stdout>", EBADF);
    if (fputs(text, stdout) == EOF || fflush(stdout) != 0)
        return io_error("cannot write", "<stdout>", errno);
    return EXIT_OK;
}

/* Descriptors 0, 1 and 2 closed at start would be taken by the next files
 * opened (a temporary output file as "standard input", the JVM's files read
 * as data): they are opened on /dev/null first, and remembered as closed so
 * that reading standard input or writing standard output is an error. */
void guard_standard_fds(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (n != fd) {
            /* /dev/null missing: nothing safe is left to do. */
            if (n >= 0) close(n);
            _exit(EXIT_IO);
        }
        if (fd == 0) stdin_closed = true;
        if (fd == 1) stdout_closed = true;
    }
}
