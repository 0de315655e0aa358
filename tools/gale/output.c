/*
 * gale CLI: the output file and the writers (output.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <htslib/khash.h>

#include "options.h"

/* ------------------------------------------------------------------ */
/* The output file                                                     */
/* ------------------------------------------------------------------ */

/* mkstemp on path + suffix (suffix ends in XXXXXX): the descriptor, or -1
 * with *made NULL. *made is the name, to free. */
static int make_temp(const char *path, const char *suffix, char **made)
{
    size_t n = strlen(path), m = strlen(suffix);
    char *tmp = malloc(n + m + 1);
    int fd;
    *made = NULL;
    if (!tmp)
        return -1;
    memcpy(tmp, path, n);
    memcpy(tmp + n, suffix, m + 1);
    fd = mkstemp(tmp);
    *made = tmp;
    return fd;
}

/* An unlinked temporary file open for writing and reading back: next to near
 * (near.tmp.XXXXXX) when it can be made there, else in $TMPDIR or /tmp.
 * Unlinked at once, it leaves nothing behind however the run ends. what
 * names it in messages. NULL after a message. */
static FILE *scratch_file(const char *near, const char *what)
{
    const char *dir = getenv("TMPDIR");
    char *path = NULL;
    int fd = -1;
    FILE *f;
    if (near) {
        fd = make_temp(near, ".tmp.XXXXXX", &path);
        if (fd < 0) {
            free(path);
            path = NULL;
        }
    }
    if (fd < 0) {
        if (!dir || !*dir)
            dir = "/tmp";
        fd = make_temp(dir, "/gale.tmp.XXXXXX", &path);
    }
    if (!path) {
        msg("out of memory");
        return NULL;
    }
    if (fd < 0) {
        msg("%s: cannot create a temporary file for %s: %s", path, what, strerror(errno));
        free(path);
        return NULL;
    }
    unlink(path);
    f = fdopen(fd, "w+");
    if (!f) {
        msg("%s: %s", path, strerror(errno));
        close(fd);
    }
    free(path);
    return f;
}

/* The descriptor that path names when it is one of the names for an open
 * descriptor (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N); else -1.
 * Opening such a name anew would start at offset 0 and, on a file, truncate
 * or overwrite what the shell's redirection ('>>' in particular) set up:
 * writing to the descriptor itself keeps that. */
static int descriptor_name(const char *path)
{
    static const char *const prefixes[] = {"/dev/fd/", "/proc/self/fd/"};
    size_t i;
    int64_t fd;
    if (strcmp(path, "/dev/stdout") == 0)
        return STDOUT_FILENO;
    if (strcmp(path, "/dev/stderr") == 0)
        return STDERR_FILENO;
    for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(path, prefixes[i], n) == 0 && parse_number(path + n, strlen(path + n), 0, INT_MAX, &fd) == NUM_OK)
            return (int)fd;
    }
    return -1;
}

/* OUT_THROUGH on descriptor fd (ours to close): 0, or EXIT_FAIL after a message. */
static int open_through_fd(out_file *o, int fd)
{
    if (fd < 0) {
        msg("%s: cannot open for writing: %s", o->path, strerror(errno));
        return EXIT_FAIL;
    }
    o->fp = fdopen(fd, "w");
    if (!o->fp) {
        msg("%s: %s", o->path, strerror(errno));
        close(fd);
        return EXIT_FAIL;
    }
    o->how = OUT_THROUGH;
    return EXIT_OK;
}

/* The temporary of -o FILE while it exists, for remove_temp_and_die: a run
 * interrupted (Ctrl-C, kill, a closed terminal) leaves no FILE.tmp.XXXXXX
 * behind either. (The other temporaries are unlinked as soon as made.) */
static char *volatile pending_temp;

/* The handler of SIGINT, SIGTERM and SIGHUP while pending_temp exists:
 * removes it, then dies of the signal as if not caught (the exit status
 * tells the caller what happened). Only async-signal-safe calls. */
static void remove_temp_and_die(int sig)
{
    char *t = pending_temp;
    if (t)
        unlink(t);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Catches the signals that end a run, except those ignored (nohup, a
 * background job): they stay ignored. */
static void catch_end_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    size_t i;
    for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_temp_and_die;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

/* OUT_REPLACE: a temporary next to FILE; old: FILE's stat, NULL for a new
 * file (mode 0666 & ~umask, as any new file). 0, or EXIT_FAIL after a message. */
static int open_replace(out_file *o, const struct stat *old)
{
    mode_t mode;
    int fd;
    catch_end_signals();
    fd = make_temp(o->path, ".tmp.XXXXXX", &o->tmp);
    if (!o->tmp) {
        msg("out of memory");
        return EXIT_FAIL;
    }
    if (fd >= 0)
        pending_temp = o->tmp;
    if (fd < 0) {
        msg("%s: cannot create the temporary file %s next to it (FILE is replaced only once the run succeeded): %s",
            o->path, o->tmp, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return EXIT_FAIL;
    }
    if (old) {
        /* the owner first (root may give it back; anyone may keep a group
         * of theirs), since chown clears the set-id bits of the mode */
        if ((old->st_uid != geteuid() || old->st_gid != getegid()) && fchown(fd, old->st_uid, old->st_gid) != 0 &&
            fchown(fd, (uid_t)-1, old->st_gid) != 0) {
            /* not ours to give: the new file is ours, with FILE's mode */
        }
        mode = old->st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) != 0) {
        msg("%s: cannot set the mode of %s: %s", o->path, o->tmp, strerror(errno));
        goto fail;
    }
    o->fp = fdopen(fd, "w");
    if (!o->fp) {
        msg("%s: %s", o->tmp, strerror(errno));
        goto fail;
    }
    o->how = OUT_REPLACE;
    o->scratch_near = o->path;
    return EXIT_OK;
fail:
    close(fd);
    unlink(o->tmp);
    pending_temp = NULL;
    free(o->tmp);
    o->tmp = NULL;
    return EXIT_FAIL;
}

/* -o names a symbolic link: written through it, never replaced. A FIFO or a
 * device behind it is written as the results come; a regular file (or none
 * yet) gets them at the end of a successful run (OUT_COPY). 0, or EXIT_FAIL
 * after a message. */
static int open_link(out_file *o)
{
    struct stat st;
    if (stat(o->path, &st) != 0) {
        if (errno != ENOENT) {
            msg("%s: %s", o->path, strerror(errno));
            return EXIT_FAIL;
        }
        o->target = -1; /* a link to nothing yet: its target is created at the end */
    } else if (S_ISDIR(st.st_mode)) {
        msg("%s: is a symbolic link to a directory: -o takes a file", o->path);
        return EXIT_FAIL;
    } else if (!S_ISREG(st.st_mode)) {
        return open_through_fd(o, open(o->path, O_WRONLY | O_NOCTTY));
    } else {
        /* opened now, to fail before the work rather than after it; nothing
         * in it changes before the end */
        o->target = open(o->path, O_WRONLY | O_NOCTTY);
        if (o->target < 0) {
            msg("%s: cannot open for writing: %s", o->path, strerror(errno));
            return EXIT_FAIL;
        }
    }
    o->fp = scratch_file(o->path, "the results");
    if (!o->fp) {
        if (o->target >= 0)
            close(o->target);
        o->target = -1;
        return EXIT_FAIL;
    }
    o->how = OUT_COPY;
    return EXIT_OK;
}

int out_open(out_file *o, const char *path)
{
    struct stat st;
    int fd;
    memset(o, 0, sizeof *o);
    o->target = -1;
    o->path = path;
    o->display = path ? path : "(stdout)";
    if (!path) {
        o->fp = stdout;
        o->how = OUT_STDOUT;
        return EXIT_OK;
    }
    fd = descriptor_name(path);
    if (fd >= 0)
        return open_through_fd(o, dup(fd));
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return open_replace(o, NULL);
        msg("%s: %s", path, strerror(errno));
        return EXIT_FAIL;
    }
    if (S_ISDIR(st.st_mode)) {
        msg("%s: is a directory: -o takes a file", path);
        return EXIT_FAIL;
    }
    if (S_ISREG(st.st_mode)) {
        /* renaming over FILE needs no right to FILE itself: ask for the
         * right that '>' FILE would need, so that a file kept read-only is
         * not replaced behind its owner's back */
        if (access(path, W_OK) != 0) {
            msg("%s: cannot write: %s", path, strerror(errno));
            return EXIT_FAIL;
        }
        return open_replace(o, &st);
    }
    if (S_ISLNK(st.st_mode))
        return open_link(o);
    /* a FIFO, a device, a socket: replacing it would break what it is for
     * (as root, -o /dev/null would become a regular file) */
    return open_through_fd(o, open(path, O_WRONLY | O_NOCTTY));
}

/* fflush, then a check that everything reached f: 0 or -1 (errno set). */
static int flush_checked(FILE *f)
{
    if (fflush(f) != 0)
        return -1;
    if (ferror(f)) {
        errno = EIO;
        return -1;
    }
    return 0;
}

/* OUT_REPLACE's end: the temporary renamed over FILE when rc is EXIT_OK (on
 * disk first: a crash leaves the old FILE or the new one, never a part),
 * else removed. */
static int close_replace(out_file *o, int rc)
{
    if (rc == EXIT_OK && (flush_checked(o->fp) != 0 ||
                          (fsync(fileno(o->fp)) != 0 && errno != EINVAL && errno != EROFS))) {
        msg("%s: write error: %s", o->path, strerror(errno));
        rc = EXIT_FAIL;
    }
    if (fclose(o->fp) != 0 && rc == EXIT_OK) {
        msg("%s: write error: %s", o->path, strerror(errno));
        rc = EXIT_FAIL;
    }
    if (rc == EXIT_OK && rename(o->tmp, o->path) != 0) {
        msg("%s: cannot rename %s to it: %s", o->path, o->tmp, strerror(errno));
        rc = EXIT_FAIL;
    }
    if (rc != EXIT_OK)
        unlink(o->tmp);
    pending_temp = NULL;
    free(o->tmp);
    o->tmp = NULL;
    return rc;
}

/* OUT_COPY's end: when rc is EXIT_OK, the target (created through the link
 * when there was none) is emptied and gets the results. */
static int close_copy(out_file *o, int rc)
{
    FILE *t = NULL;
    if (rc == EXIT_OK && o->target < 0) {
        o->target = open(o->path, O_WRONLY | O_CREAT | O_NOCTTY, 0666);
        if (o->target < 0) {
            msg("%s: cannot create the file the link points to: %s", o->path, strerror(errno));
            rc = EXIT_FAIL;
        }
    }
    if (rc == EXIT_OK) {
        if (ftruncate(o->target, 0) != 0 || !(t = fdopen(o->target, "w"))) {
            msg("%s: %s", o->path, strerror(errno));
            rc = EXIT_FAIL;
        } else {
            o->target = -1; /* t owns it now */
            if (copy_stream(o->fp, t) != 0 || flush_checked(t) != 0) {
                msg("%s: write error: %s", o->path, strerror(errno));
                rc = EXIT_FAIL;
            }
            if (fclose(t) != 0 && rc == EXIT_OK) {
                msg("%s: write error: %s", o->path, strerror(errno));
                rc = EXIT_FAIL;
            }
        }
    }
    if (o->target >= 0)
        close(o->target);
    o->target = -1;
    fclose(o->fp);
    return rc;
}

int out_close(out_file *o, int rc)
{
    if (!o->fp)
        return rc;
    switch (o->how) {
    case OUT_REPLACE:
        rc = close_replace(o, rc);
        break;
    case OUT_COPY:
        rc = close_copy(o, rc);
        break;
    case OUT_THROUGH: {
        int bad = flush_checked(o->fp) != 0;
        if ((fclose(o->fp) != 0 || bad) && rc == EXIT_OK) {
            msg("%s: write error: %s", o->display, strerror(errno));
            rc = EXIT_FAIL;
        }
        break;
    }
    default:
        if (flush_checked(o->fp) != 0 && rc == EXIT_OK) {
            msg("%s: write error: %s", o->display, strerror(errno));
            rc = EXIT_FAIL;
        }
        break;
    }
    o->fp = NULL;
    return rc;
}

/* ------------------------------------------------------------------ */
/* xdrop                                                               */
/* ------------------------------------------------------------------ */

int put_xdrop_tsv(FILE *out, uint64_t index, const gale_result *res)
{
    return fprintf(out, "%" PRIu64 "\t%" PRId32 "\t%" PRId32 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64
                   "\t%" PRId64 "\n", index, res->score_left, res->score_right, res->score, res->h_begin,
                   res->h_end, res->v_begin, res->v_end);
}

/* ------------------------------------------------------------------ */
/* wfa: TSV, PAF, SAM records                                          */
/* ------------------------------------------------------------------ */

int put_cigar(kstring_t *s, const uint32_t *ops, size_t n, cigar_sum *sum)
{
    size_t i;
    memset(sum, 0, sizeof *sum);
    for (i = 0; i < n; i++) {
        uint32_t len = GALE_CIGAR_LEN(ops[i]), code = GALE_CIGAR_OP(ops[i]);
        switch (code) {
        case GALE_CIGAR_EQUAL:
            sum->match += len;
            break;
        case GALE_CIGAR_DIFF:
            sum->mismatch += len;
            break;
        case GALE_CIGAR_INS:
            sum->ins += len;
            sum->ins_runs++;
            break;
        case GALE_CIGAR_DEL:
            sum->del += len;
            sum->del_runs++;
            break;
        default:
            return -1;
        }
        kputuw(len, s);
        kputc(GALE_CIGAR_STR[code], s);
    }
    return 0;
}

/* index score cigar [pattern_begin pattern_end text_begin text_end] */
static void put_tsv(kstring_t *ln, int coords, const aln_rec *a)
{
    const gale_result *res = a->res;
    ksprintf(ln, "%" PRIu64 "\t%" PRId64 "\t", a->index, res->score);
    kputs(*a->cigar ? a->cigar : "*", ln);
    if (coords)
        ksprintf(ln, "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64, res->v_begin, res->v_end, res->h_begin,
                 res->h_end);
}

static void put_paf(kstring_t *ln, const aln_rec *a)
{
    const gale_result *res = a->res;
    const cigar_sum *s = &a->sum;
    ksprintf(ln, "%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t+\t%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64
             "\t%" PRId64 "\t255\tNM:i:%" PRId64 "\tAS:i:%" PRId64,
             a->qname, a->plen, res->v_begin, res->v_end, a->tname, a->tlen, res->h_begin, res->h_end, s->match,
             s->match + s->mismatch + s->ins + s->del, s->mismatch + s->ins + s->del, a->as_score);
    if (*a->cigar) {
        kputs("\tcg:Z:", ln);
        kputs(a->cigar, ln);
    }
}

static void put_sam(kstring_t *ln, const aln_rec *a)
{
    const gale_result *res = a->res;
    const cigar_sum *s = &a->sum;
    const char *seq = a->seq ? a->seq : "*";
    const char *qual = a->qual ? a->qual : "*";
    /* mapped when the alignment covers at least one base of the text */
    if (a->tlen > 0 && s->match + s->mismatch + s->del > 0) {
        ksprintf(ln, "%s\t0\t%s\t%" PRId64 "\t255\t", a->qname, a->tname, res->h_begin + 1);
        if (res->v_begin > 0)
            ksprintf(ln, "%" PRId64 "S", res->v_begin);
        kputs(a->cigar, ln);
        if (res->v_end < a->plen)
            ksprintf(ln, "%" PRId64 "S", a->plen - res->v_end);
        ksprintf(ln, "\t*\t0\t0\t%s\t%s\tNM:i:%" PRId64 "\tAS:i:%" PRId64, seq, qual,
                 s->mismatch + s->ins + s->del, a->as_score);
    } else {
        ksprintf(ln, "%s\t4\t*\t0\t0\t*\t*\t0\t0\t%s\t%s\tAS:i:%" PRId64, a->qname, seq, qual, a->as_score);
    }
}

int put_aln(kstring_t *ln, int format, int coords, const aln_rec *a)
{
    if (format == FMT_TSV)
        put_tsv(ln, coords, a);
    else if (format == FMT_PAF)
        put_paf(ln, a);
    else
        put_sam(ln, a);
    return kputc('\n', ln) < 0 ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* wfa: SAM's header                                                   */
/* ------------------------------------------------------------------ */

KHASH_MAP_INIT_STR(sqmap, size_t)

typedef struct sq_entry {
    char *name;
    int64_t len;
    uint64_t hash;          /* of the case-folded sequence */
    uint64_t recno;         /* first record that named it */
} sq_entry;

static uint64_t fold_hash(const char *s, size_t n)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 'a' && c <= 'z')
            c = (unsigned char)(c - 'a' + 'A');
        h = (h ^ c) * 1099511628211ull;
    }
    return h;
}

int sq_init(sq_table *st)
{
    memset(st, 0, sizeof *st);
    st->map = kh_init(sqmap);
    if (!st->map) {
        msg("out of memory");
        return -1;
    }
    return 0;
}

int sq_add(sq_table *st, const char *name, const char *seq, size_t len, uint64_t recno, uint64_t *first)
{
    khiter_t it;
    int absent;
    uint64_t h = fold_hash(seq, len);
    sq_entry *e;
    it = kh_get(sqmap, st->map, name);
    if (it != kh_end(st->map)) {
        e = &st->e[kh_value(st->map, it)];
        *first = e->recno;
        return e->len != (int64_t)len || e->hash != h ? 1 : 0;
    }
    if (st->n == st->cap) {
        sq_entry *ne = grow_array(st->e, &st->cap, sizeof *ne, 1024);
        if (!ne)
            goto oom;
        st->e = ne;
    }
    e = &st->e[st->n];
    e->name = strdup(name);
    if (!e->name)
        goto oom;
    e->len = (int64_t)len;
    e->hash = h;
    e->recno = recno;
    it = kh_put(sqmap, st->map, e->name, &absent);
    if (absent < 0) {
        free(e->name);
        goto oom;
    }
    kh_value(st->map, it) = st->n;
    st->n++;
    return 0;
oom:
    msg("out of memory");
    return -1;
}

void sq_free(sq_table *st)
{
    size_t i;
    for (i = 0; i < st->n; i++)
        free(st->e[i].name);
    free(st->e);
    if (st->map)
        kh_destroy(sqmap, st->map);
    memset(st, 0, sizeof *st);
}

char *command_line(int argc, char **argv)
{
    kstring_t s = {0, 0, NULL};
    int i;
    size_t j;
    kputs("gale", &s);
    for (i = 0; i < argc; i++) {
        kputc(' ', &s);
        kputs(argv[i], &s);
    }
    for (j = 0; j < s.l; j++)
        if (s.s[j] == '\t' || s.s[j] == '\n' || s.s[j] == '\r')
            s.s[j] = ' ';
    return s.s;
}

int write_sam_header(const sq_table *sq, FILE *out, const char *cl)
{
    size_t i;
    fprintf(out, "@HD\tVN:1.6\tSO:unsorted\n");
    for (i = 0; i < sq->n; i++)
        fprintf(out, "@SQ\tSN:%s\tLN:%" PRId64 "\n", sq->e[i].name, sq->e[i].len);
    fprintf(out, "@PG\tID:gale\tPN:gale\tVN:%s\tCL:%s\n", gale_version_string(), cl);
    return ferror(out) ? -1 : 0;
}

int copy_stream(FILE *from, FILE *to)
{
    char buf[1 << 16];
    size_t n;
    if (fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0)
        return -1;
    while ((n = fread(buf, 1, sizeof buf, from)) > 0)
        if (fwrite(buf, 1, n, to) != n)
            return -1;
    return ferror(from) || ferror(to) ? -1 : 0;
}

FILE *sam_body_file(const out_file *out)
{
    return scratch_file(out->scratch_near, "the SAM records");
}

int sam_finish(const sq_table *sq, FILE *body, const out_file *out, int argc, char **argv)
{
    char *cl = command_line(argc, argv);
    int rc = EXIT_OK;
    if (!cl || write_sam_header(sq, out->fp, cl) != 0 || copy_stream(body, out->fp) != 0) {
        msg("%s: write error: %s", out->display, strerror(errno));
        rc = EXIT_FAIL;
    }
    free(cl);
    return rc;
}
