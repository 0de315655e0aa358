/*
 * gale lastz's sequence specifiers (lastz_int.h): LASTZ 1.04.22's [NICK::]FILE[[ACTION,...]]
 * parsed (sequences.c parse_sequence_name) and its file actions applied to the records
 * read: names, subsets, subsampling, separators, masks, nicknames, unmask and subranges.
 */
#define _POSIX_C_SOURCE 200809L /* getline, ssize_t, fseeko, strdup */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "lastz_int.h"
#include "options.h"
#include "subcommands.h"

/* FILE.2bit/NAME (sequences.c parse_sequence_name): the record NAME of the 2bit file alone,
 * unless a '/' or ".2bit" follows in NAME (then it is all one file name). */
static void split_contig(seq_spec *sp)
{
    char *ext = strstr(sp->file, ".2bit/");
    if (ext && !strchr(ext + 6, '/') && !strstr(ext + 6, ".2bit")) {
        sp->contig = ext + 6;
        ext[5] = 0;
    }
}

/* Returns 0, or writes a usage error naming the action and returns -1. */
int parse_spec(const char *arg, seq_spec *sp)
{
    char *s, *act, *colons;
    memset(sp, 0, sizeof *sp);
    if (strlen(arg) >= sizeof sp->buf) return usage_error(CMD, "%s: specifier too long", arg) ? -1 : -1;
    strcpy(sp->buf, arg);
    s = sp->buf;
    colons = strstr(s, "::");
    if (colons && (!strchr(s, '[') || colons < strchr(s, '['))) {
        *colons = 0;
        if (!*s) return usage_error(CMD, "%s: an empty nickname before '::'", arg) ? -1 : -1;
        sp->nickname = s;
        s = colons + 2;
    }
    sp->file = s;
    act = strchr(s, '[');
    if (!act) {
        size_t l = strlen(s);
        /* a trailing '-': the reverse complement, '+' the forward strand (sequences.c
         * parse_sequence_name takes either off the name whatever the file is called) */
        if (l > 1 && (s[l - 1] == '-' || s[l - 1] == '+')) {
            sp->revcomp ^= s[l - 1] == '-';
            s[l - 1] = 0;
        }
        split_contig(sp);
        return 0;
    }
    *act++ = 0;
    split_contig(sp);
    {
        size_t l = strlen(act);
        if (l && (act[l - 1] == '-' || act[l - 1] == '+')) {
            sp->revcomp ^= act[l - 1] == '-';
            act[--l] = 0;
        }
        if (l == 0 || act[l - 1] != ']')
            return usage_error(CMD, "%s: the actions list must end with ']'", arg) ? -1 : -1;
        act[l - 1] = 0;
    }
    while (act) {
        char *a = act, *next = strchr(act, ',');
        char *bb = strstr(act, "][");
        if (bb && (!next || bb < next)) {
            *bb = 0;
            next = bb + 1;
        } else if (next) {
            *next = 0;
        }
        act = next ? next + 1 : NULL;
        if (!*a) return usage_error(CMD, "%s: an empty action", arg) ? -1 : -1;
        if (isdigit((unsigned char)a[0]) || a[0] == '.') {
            /* subranges (sequences.c parse_sequence_name): start..end, start,end (two actions
             * as lastz splits them), start.., ..end, start#length */
            unsigned long long x, y;
            float zoom;
            int used = -1;
            if (sp->sub_start && !sp->sub_end && !sp->sub_end_open && sscanf(a, "%llu%n", &y, &used) == 1 &&
                !a[used] && sp->sub_pending) {
                sp->sub_end = y;
                sp->sub_pending = 0;
                if (y == 0) return usage_error(CMD, "%s: bad subrange limits in '%s'", arg, a) ? -1 : -1;
                continue;
            }
            if (sp->sub_start || sp->sub_end)
                return usage_error(CMD, "%s: more than one subrange", arg) ? -1 : -1;
            used = -1;
            if (sscanf(a, "%llu..%llu%n", &x, &y, &used) == 2 && !a[used]) {
                sp->sub_start = x;
                sp->sub_end = y;
            } else if ((used = -1, sscanf(a, "%llu..%n", &x, &used) == 1) && used > 0 && !a[used]) {
                sp->sub_start = x;
                sp->sub_end_open = 1;
            } else if ((used = -1, sscanf(a, "..%llu%n", &y, &used) == 1) && used > 0 && !a[used]) {
                sp->sub_start = 1;
                sp->sub_end = y;
            } else if ((used = -1, sscanf(a, "%llu#%llu%n", &x, &y, &used) == 2) &&
                       (!a[used] || (!a[used + 1] && (a[used] == 'K' || a[used] == 'M')))) {
                /* start#length, start#lengthK, start#lengthM */
                if (y == 0) return usage_error(CMD, "%s: bad subrange limits in '%s'", arg, a) ? -1 : -1;
                y *= a[used] == 'K' ? 1000 : a[used] == 'M' ? 1000000 : 1;
                sp->sub_start = x;
                sp->sub_end = x + y - 1;
                sp->sub_end_soft = 1;
            } else if ((used = -1, sscanf(a, "%llu^%llu%n", &x, &y, &used) == 2) &&
                       (!a[used] || (!a[used + 1] && (a[used] == 'K' || a[used] == 'M')))) {
                /* center^length[K|M] (sequences.c: start = center - length/2, clipped at 1 only
                 * when that stays in LASTZ's 32-bit positions; end = start + length - 1, soft) */
                uint32_t st, en;
                if (x == 0 || y == 0) return usage_error(CMD, "%s: bad subrange limits in '%s'", arg, a) ? -1 : -1;
                y *= a[used] == 'K' ? 1000 : a[used] == 'M' ? 1000000 : 1;
                if (x > UINT32_MAX || y > UINT32_MAX)
                    return usage_error(CMD, "%s: subrange '%s' past LASTZ's positions", arg, a) ? -1 : -1;
                st = (uint32_t)x - (uint32_t)y / 2;
                en = (uint32_t)y + st - 1;
                if (st > (uint32_t)x) /* (below 0: lastz's unsigned start wraps round, past any sequence) */
                    return usage_error(CMD, "%s: subrange '%s' starts before the sequence (lastz wraps it round)", arg,
                                       a) ? -1 : -1;
                if (st < 1) st = 1;
                sp->sub_start = st;
                sp->sub_end = en;
                sp->sub_end_soft = 1;
            } else if ((used = -1, sscanf(a, "%llu..%llu+%f%%%n", &x, &y, &zoom, &used) == 3) && !a[used]) {
                /* start..end+zoom% (sequences.c: the interval about its middle, zoomed, in its
                 * 32-bit and float arithmetic; the end soft) */
                uint32_t length, mid;
                float z, flen;
                if (x == 0 || y == 0 || y < x || y > UINT32_MAX)
                    return usage_error(CMD, "%s: bad subrange limits in '%s'", arg, a) ? -1 : -1;
                length = (uint32_t)(y + 1 - x);
                mid = (uint32_t)x + length / 2;
                z = 1 + (zoom / 100.0f);
                flen = (float)length * z;
                length = (uint32_t)flen;
                sp->sub_start = ((float)mid - flen / 2 <= 1) ? 1 : 1 + (mid - length / 2);
                sp->sub_end = mid + length / 2;
                sp->sub_end_soft = 1;
            } else if ((used = -1, sscanf(a, "%llu%n", &x, &used) == 1) && !a[used]) {
                sp->sub_start = x; /* start,end: the end is the next action */
                sp->sub_pending = 1;
            } else {
                return usage_error(CMD, "%s: LASTZ's subrange '%s' is not supported by gale lastz yet (supported: "
                                        "start..end, start,end, start.., ..end, start#length[K|M], center^length[K|M], "
                                        "start..end+zoom%%)", arg, a) ? -1 : -1;
            }
            if (sp->sub_start == 0 || (sp->sub_end == 0 && !sp->sub_end_open && !sp->sub_pending))
                return usage_error(CMD, "%s: bad subrange limits in '%s'", arg, a) ? -1 : -1;
            if (sp->sub_end && sp->sub_end < sp->sub_start)
                return usage_error(CMD, "%s: subrange '%s' ends before it starts (lastz: the reverse complement, "
                                        "which --segments cannot take)", arg, a) ? -1 : -1;
            continue;
        }
        if (sp->sub_pending)
            return usage_error(CMD, "%s: the subrange start %llu has no end", arg, sp->sub_start) ? -1 : -1;
        if (strcmp(a, "unmask") == 0) {
            sp->unmask = 1;
        } else if (strcmp(a, "multiple") == 0 || strcmp(a, "multi") == 0) { /* (lastz takes both) */
            sp->multiple = 1;
        } else if (strncmp(a, "separator=", 10) == 0) {
            if (!a[10] || a[11]) return usage_error(CMD, "%s: a separator is one character: '%s'", arg, a) ? -1 : -1;
            sp->separator = a[10]; /* (a partitioned sequence, as [multiple]'s, without joining records) */
        } else if (strcmp(a, "revcomp") == 0) {
            sp->revcomp ^= 1; /* (twice: forward again, as lastz's rcf_revcomp flag toggles) */
        } else if (strncmp(a, "nickname=", 9) == 0) {
            if (!a[9]) return usage_error(CMD, "%s: an empty nickname", arg) ? -1 : -1;
            sp->nickname = a + 9;
        } else if ((strncmp(a, "subset=", 7) == 0 && a[7]) || (a[0] == '@' && a[1])) {
            if (sp->subset) return usage_error(CMD, "%s: more than one subset file", arg) ? -1 : -1;
            sp->subset = a[0] == '@' ? a + 1 : a + 7;
        } else if (strncmp(a, "softmask=", 9) == 0 || strncmp(a, "xmask=", 6) == 0 || strncmp(a, "nmask=", 6) == 0) {
            const int m = a[0] == 's' ? 0 : a[0] == 'x' ? 1 : 2;
            const char *f = strchr(a, '=') + 1;
            const int keep = strncmp(f, "keep:", 5) == 0;
            if (keep) f += 5;
            if (!*f) return usage_error(CMD, "%s: the action '%s' names no file", arg, a) ? -1 : -1;
            if (sp->mask_file[m]) return usage_error(CMD, "%s: more than one %.*s action", arg, (int)(strchr(a, '=') - a), a) ? -1 : -1;
            sp->mask_file[m] = f;
            sp->mask_keep[m] = keep;
        } else if (strncmp(a, "subsample=", 10) == 0) {
            /* K/N, 1 <= K <= N (sequences.c; 1/1 is no subsampling) */
            int k = 0, nn = 0, used = -1;
            if (sp->subsample_n)
                return usage_error(CMD, "%s: more than one subsample action", arg) ? -1 : -1;
            if (sscanf(a + 10, "%d/%d%n", &k, &nn, &used) != 2 || a[10 + used] || k < 1 || nn < k ||
                !isdigit((unsigned char)a[10]))
                return usage_error(CMD, "%s: bad subsample '%s' (K/N with 1 <= K <= N)", arg, a + 10) ? -1 : -1;
            sp->subsample_k = k;
            sp->subsample_n = nn;
        } else if (strncmp(a, "nameparse=tag:", 14) == 0) {
            if (!a[14]) return usage_error(CMD, "%s: an empty nameparse=tag: marker", arg) ? -1 : -1;
            if (sp->name_tag || sp->nameparse)
                return usage_error(CMD, "%s: more than one nameparse action", arg) ? -1 : -1;
            sp->name_tag = a + 14;
        } else if (strcmp(a, "nameparse=darkspace") == 0) {
            sp->nameparse = 1;
        } else if (strcmp(a, "nameparse=alnum") == 0 || strcmp(a, "nameparse=alphanum") == 0 ||
                   strcmp(a, "name:alnum") == 0 || strcmp(a, "name:alphanum") == 0) {
            sp->nameparse = 2;
        } else if (strcmp(a, "nameparse=full") == 0 || strcmp(a, "fullname") == 0 || strcmp(a, "fullnames") == 0) {
            sp->nameparse = 3;
        } else if (strcmp(a, "format=fasta") == 0 || strcmp(a, "format=FASTA") == 0) {
            sp->format = SEQ_FASTA;
        } else if (strcmp(a, "format=2bit") == 0 || strcmp(a, "format=2BIT") == 0) {
            sp->format = SEQ_2BIT;
        } else if (strcmp(a, "format=fastq") == 0) {
            sp->format = SEQ_FASTQ;
        } else if (strcmp(a, "format=nib") == 0) {
            sp->format = SEQ_NIB;
        } else if (strncmp(a, "chores=", 7) == 0) {
            sp->chores = a + 7; /* (lastz refuses it with --segments: the caller says so) */
        } else if (strcmp(a, "quantum") == 0 || strncmp(a, "quantum=", 8) == 0) {
            sp->quantum = 1; /* (it needs a quantum scoring file: the caller refuses it as lastz does) */
        } else {
            /* the others of lastz --help=files: a clear refusal naming the action */
            return usage_error(CMD, "%s: LASTZ's file action '%s' is not supported by gale lastz yet (supported: "
                                    "unmask, nickname=NAME, subset=FILE, nameparse=darkspace|alnum|full, format=fasta|fastq|2bit|nib, "
                                    "multiple, revcomp, subranges)",
                               arg, a) ? -1 : -1;
        }
    }
    if (sp->sub_pending)
        return usage_error(CMD, "%s: the subrange start %llu has no end", arg, sp->sub_start) ? -1 : -1;
    return 0;
}

/* A record's name as lastz takes it from the header (sequences.c shorten_header):
 * "reverse complement of " and "positions ... of " skipped, then up to a blank, '|' or
 * ':' (darkspace: a blank; alnum: letters, digits and '_'), less a .nib, .2bit, .hsx,
 * .fasta or .fa suffix (not for alnum); full: the whole header line. */
static char *short_name(const char *header, int type)
{
    const char *h = header;
    size_t len;
    char *n;
    if (type == 3) return strdup(header);
    if (*h == '>') h++;
    while (*h == ' ' || *h == '\t') h++;
    if (strncmp(h, "reverse complement of ", 22) == 0) {
        h += 22;
        while (*h == ' ' || *h == '\t') h++;
    }
    if (strncmp(h, "positions ", 10) == 0) {
        const char *hh = h + 10;
        while (*hh == ' ' || *hh == '\t') hh++;
        while (*hh && *hh != ' ' && *hh != '\t') hh++;
        while (*hh == ' ' || *hh == '\t') hh++;
        if (strncmp(hh, "of ", 3) == 0) {
            h = hh + 3;
            while (*h == ' ' || *h == '\t') h++;
        }
    }
    while (*h == ' ' || *h == '\t') h++;
    if (type == 2) {
        len = strspn(h, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
    } else {
        static const char *const sfx[] = {".nib", ".2bit", ".hsx", ".fasta", ".fa"};
        len = strcspn(h, type == 1 ? " \t" : " \t|:");
        for (int k = 0; k < 5; k++) {
            const size_t sl = strlen(sfx[k]);
            if (len > sl && strncmp(h + len - sl, sfx[k], sl) == 0) len -= sl;
        }
    }
    n = malloc(len + 1);
    memcpy(n, h, len);
    n[len] = 0;
    return n;
}

/* A record's name from its header; a nib record's header is its file's path and range
 * ("PATH:START-END"), the path skipped but for nameparse=full (sequences.c shorten_header) */
static char *record_name(const record *r, int nameparse)
{
    const char *h = r->header, *slash;
    if (r->format == SEQ_NIB && nameparse != 3 && (slash = strrchr(h, '/'))) h = slash + 1;
    return short_name(h, nameparse);
}

void apply_names(const seq_spec *sp, record *recs, long n)
{
    for (long k = 0; k < n; k++) {
        /* nameparse=tag:MARKER (sequences.c, as the FASTA header is read): where the header
         * holds MARKER, the header becomes the letters, digits and '_' after it (its '>'
         * gone: lav's h stanza shows it so); the name is then taken from it as usual */
        const char *at = sp->name_tag ? strstr(recs[k].header, sp->name_tag) : NULL;
        if (at) {
            const char *from = at + strlen(sp->name_tag);
            size_t len = 0;
            while (isalnum((unsigned char)from[len]) || from[len] == '_') len++;
            memmove(recs[k].header, from, len);
            recs[k].header[len] = 0;
        }
        free(recs[k].name);
        recs[k].name = record_name(&recs[k], sp->nameparse);
    }
}

int check_bases(const char *path, const record *recs, long n, int iupac, char separator)
{
    for (long k = 0; k < n; k++)
        for (size_t i = 0; i < recs[k].len; i++) {
            const int c = (unsigned char)recs[k].seq[i], u = toupper(c);
            if (strchr("ACGTNX", u) || (iupac && strchr("BDHKMRSVWY", u)) || (separator && c == separator)) continue;
            msg("bad fasta character in %s, >%s (%s %c) at position %zu\nremove or replace non-ACGTN characters or "
                "consider using --ambiguous=iupac",
                path, recs[k].name, isupper(c) ? "uppercase" : islower(c) ? "lowercase" : "character", c, i + 1);
            return -1;
        }
    return 0;
}

long split_at_separator(char separator, record **recs, long n)
{
    record *out = NULL;
    long m = 0, cap = 0;
    for (long k = 0; k < n; k++) {
        record *r = &(*recs)[k];
        size_t i = 0;
        while (i < r->len) {
            size_t e;
            record *p;
            if (r->seq[i] == separator) {
                i++;
                continue;
            }
            for (e = i; e < r->len && r->seq[e] != separator; e++) {}
            if (m == cap) {
                record *no = realloc(out, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *out);
                if (!no) goto oom;
                out = no;
            }
            p = &out[m];
            *p = *r;
            p->name = strdup(r->name);
            p->header = strdup(r->header);
            p->seq = malloc(e - i + 1);
            p->qual = r->qual ? malloc(e - i + 1) : NULL;
            if (!p->name || !p->header || !p->seq || (r->qual && !p->qual)) {
                free_record(p);
                goto oom;
            }
            memcpy(p->seq, r->seq + i, e - i);
            p->seq[e - i] = 0;
            if (r->qual) {
                memcpy(p->qual, r->qual + i, e - i);
                p->qual[e - i] = 0;
            }
            p->len = e - i;
            p->start_loc = r->start_loc + i;
            m++;
            i = e;
        }
    }
    free_records(*recs, n);
    *recs = out;
    return m;
oom:
    msg("out of memory cutting the records at their separators");
    free_records(out, m);
    return -1;
}

int partition_target(record **recs, long *n, char separator, int join, uint64_t **off, char **joined, size_t *joined_len)
{
    /* lastz's layout (sequences.c load_sequence, doJoin; separate_sequence): byte 0, then
     * each record followed by byte 0; the last 0 is the sequence's terminator, not counted
     * in its length. Each record's first base is at base[k] (a record that [separator=C]
     * leaves no piece of, or an empty one, still has its place) */
    const long nr = *n;
    uint64_t *base = malloc((size_t)(nr > 0 ? nr : 1) * sizeof *base);
    long *contig = malloc((size_t)(nr > 0 ? nr : 1) * sizeof *contig);
    uint64_t at = 1;
    *off = NULL;
    *joined = NULL;
    if (!base || !contig) goto oom;
    for (long k = 0; k < nr; k++) {
        base[k] = at; /* (whole records: lastz joins no subrange, gale lastz refuses one) */
        contig[k] = (*recs)[k].contig;
        at += (*recs)[k].len + 1;
    }
    if (join) {
        if (!(*joined = calloc((size_t)at, 1))) goto oom;
        for (long k = 0; k < nr; k++) {
            char *d = *joined + base[k];
            memcpy(d, (*recs)[k].seq, (*recs)[k].len);
            for (size_t i = 0; separator && i < (*recs)[k].len; i++)
                if (d[i] == separator) d[i] = 0;
        }
        *joined_len = (size_t)(at - 1);
    }
    if (separator) {
        const long pieces = split_at_separator(separator, recs, nr); /* (recs as they were on failure) */
        if (pieces < 0) goto fail;
        *n = pieces;
    }
    /* each piece's first base: its record's, moved by where the piece starts on it (the
     * pieces come in their records' order) */
    if (!(*off = malloc((size_t)(*n > 0 ? *n : 1) * sizeof **off))) goto oom;
    for (long j = 0, k = 0; j < *n; j++) {
        while (k < nr - 1 && contig[k] != (*recs)[j].contig) k++;
        (*off)[j] = base[k] + ((*recs)[j].start_loc - 1);
    }
    free(base);
    free(contig);
    return 0;
oom:
    msg("out of memory joining the target's records");
fail:
    free(base);
    free(contig);
    free(*off);
    free(*joined);
    *off = NULL;
    *joined = NULL;
    return -1;
}

long apply_subsample(const seq_spec *sp, record *recs, long n)
{
    long kept = 0;
    if (sp->subsample_n <= 1) return n;
    for (long k = 0; k < n; k++) {
        if (k % sp->subsample_n == sp->subsample_k - 1) {
            recs[kept++] = recs[k];
            continue;
        }
        free_record(&recs[k]);
    }
    return kept;
}

/* [subset=FILE] (sequences.c read_contig_name, find_next_fasta_coi, find_next_2bit_coi):
 * the names, one a line (the first word; '#' comments), each sought forward from the record
 * after the previous match (a 2bit record by its name in the file). A name not found there
 * ends the list; lastz then fails, except in a FASTA file whose last record was the previous
 * match (lastz stops at the file's end without looking): missing gets lastz's message then
 * (else it is left empty). Keeps the records' numbers. Returns the count kept, or -1
 * (message said). */
long apply_subset(const char *path, const char *file, record *recs, long n, char *missing, size_t missing_len)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    long pos = 0, kept = 0;
    char *keep;
    if (!f) {
        msg("%s (subset=): %s", path, strerror(errno));
        return -1;
    }
    if (!(keep = calloc((size_t)n + 1, 1))) {
        msg("%s (subset=): out of memory", path);
        fclose(f);
        return -1;
    }
    while (getline(&line, &cap, f) >= 0) {
        const char *p = subset_line_name(line);
        if (!p) continue;
        if (pos == n && pos > 0 && recs[0].format == SEQ_FASTA) break; /* (FASTA: at its end) */
        while (pos < n && strcmp(recs[0].format != SEQ_2BIT ? recs[pos].name : recs[pos].header, p) != 0) pos++;
        if (pos == n) {
            snprintf(missing, missing_len, "%s does not contain (or contains out of order) the sequence \"%s\"", file, p);
            break;
        }
        keep[pos++] = 1;
    }
    fclose(f);
    free(line);
    /* lastz then knows the record by its name alone (lav's h stanza: ">NAME" from FASTA,
     * "NAME" from FASTQ and 2bit); the headers are rewritten first, so that running out of
     * memory leaves all n records to the caller */
    for (long k = 0; k < n; k++) {
        if (!keep[k]) continue;
        const size_t len = strlen(recs[k].name), gt = recs[k].format == SEQ_FASTA;
        char *h = realloc(recs[k].header, len + 2);
        if (!h) {
            msg("out of memory keeping %s's records named in %s", recs[k].name, path);
            free(keep);
            return -1;
        }
        memmove(h + gt, recs[k].name, len + 1);
        if (gt) h[0] = '>';
        recs[k].header = h;
    }
    for (long k = 0; k < n; k++) {
        if (keep[k]) {
            /* (a FASTQ file's records are numbered as lastz loads them: the kept ones in turn) */
            if (recs[k].format == SEQ_FASTQ) recs[k].contig = kept + 1;
            recs[kept++] = recs[k];
        } else {
            free_record(&recs[k]);
        }
    }
    free(keep);
    return kept;
}

/* One base masked: ch -1 lower-cases A-Z (softmask), else the base becomes ch */
static void mask_base(char *base, int ch)
{
    if (ch >= 0) *base = (char)ch;
    else if (*base >= 'A' && *base <= 'Z') *base = (char)(*base - 'A' + 'a');
}

/* A masking file (sequences.c mask_sequence, mask_sequence_keep): lines "B E" (1-based,
 * inclusive, on the whole record; '#' comments, blank lines, anything after the second
 * number past a blank ignored, a line cut at 511 bytes), the same intervals on every record
 * of the file, clipped to a subrange; ch -1 lower-cases A-Z, else the bytes become ch; keep
 * masks what the intervals leave out. Returns 0, or -1 (message said: file and line). */
static int apply_mask(const char *path, int keep, int ch, record *recs, long n)
{
    FILE *f = fopen(path, "r");
    char line[512];
    long lineno = 0;
    size_t ni = 0, cap = 0;
    unsigned long long(*iv)[2] = NULL;
    if (!f) {
        msg("%s: %s", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        char *hash, *s;
        unsigned int b, e;
        char extra;
        int items;
        lineno++;
        if (len && line[len - 1] != '\n') { /* the rest of a long line dropped, as lastz does */
            int c;
            while ((c = fgetc(f)) != EOF && c != '\n') {}
        }
        if (len && line[len - 1] == '\n') line[--len] = 0;
        if ((hash = strchr(line, '#'))) *hash = 0;
        for (s = line; *s == ' ' || *s == '\t'; s++) {}
        if (!*s) continue;
        items = sscanf(s, "%u %u%c", &b, &e, &extra);
        if (items == 3 && (extra == ' ' || extra == '\t')) items = 2;
        if (items != 2) {
            int words = 0;
            for (char *w = s; *w;) {
                while (*w && *w != ' ' && *w != '\t') w++;
                while (*w == ' ' || *w == '\t') w++;
                words++;
            }
            msg("bad interval (in %s, line %ld): \"%s\"%s", path, lineno, s,
                words == 3 ? "\nthree-column masking intervals are not supported for this operation" : "");
            fclose(f);
            free(iv);
            return -1;
        }
        if (ni == cap) {
            void *nv = realloc(iv, (cap = cap ? 2 * cap : 64) * sizeof *iv);
            if (!nv) {
                msg("%s: out of memory", path);
                fclose(f);
                free(iv);
                return -1;
            }
            iv = nv;
        }
        iv[ni][0] = b;
        iv[ni][1] = e;
        ni++;
    }
    fclose(f);
    for (long k = 0; k < n; k++) {
        record *r = &recs[k];
        unsigned char *mark = keep ? calloc(r->len + 1, 1) : NULL;
        if (keep && !mark) {
            msg("%s: out of memory", path);
            free(iv);
            return -1;
        }
        for (size_t j = 0; j < ni; j++) {
            unsigned long long b = iv[j][0], e = iv[j][1];
            if (e < r->start_loc) continue;
            if (b < r->start_loc) b = r->start_loc;
            b -= r->start_loc;     /* zero-based */
            e -= r->start_loc - 1; /* open */
            if (b >= r->len) continue;
            if (e >= r->len) e = r->len;
            for (; b < e; b++) {
                if (keep) mark[b] = 1;
                else mask_base(&r->seq[b], ch);
            }
        }
        if (keep) {
            for (size_t x = 0; x < r->len; x++)
                if (!mark[x]) mask_base(&r->seq[x], ch);
            free(mark);
        }
    }
    free(iv);
    return 0;
}

/* nickname, unmask and the subrange on the records read; returns 0, or -1 (message said) */
int apply_spec(const seq_spec *sp, record *recs, long n)
{
    for (long k = 0; k < n; k++) {
        if (sp->sub_start) {
            /* lastz: "beyond end" when the start, or a hard end, lies past the record */
            unsigned long long end = sp->sub_end_open ? recs[k].len : sp->sub_end;
            if (sp->sub_end_soft && end > recs[k].len) end = recs[k].len;
            if (sp->sub_start > recs[k].len || end > recs[k].len) {
                msg("%s, %s: subrange %llu..%llu beyond the end (%zu bases)", sp->file, recs[k].name, sp->sub_start,
                    sp->sub_end_open ? sp->sub_start : sp->sub_end, recs[k].len);
                return -1;
            }
            memmove(recs[k].seq, recs[k].seq + sp->sub_start - 1, (size_t)(end + 1 - sp->sub_start));
            if (recs[k].qual)
                memmove(recs[k].qual, recs[k].qual + sp->sub_start - 1, (size_t)(end + 1 - sp->sub_start));
            recs[k].start_loc = (size_t)sp->sub_start;
            recs[k].len = (size_t)(end + 1 - sp->sub_start);
            if (recs[k].format == SEQ_NIB && !sp->nickname) {
                /* lastz names a nib record by its path and the range read: "PATH:START-END" */
                char *colon = strrchr(recs[k].header, ':'), *h, *name;
                const size_t plen = colon ? (size_t)(colon - recs[k].header) : strlen(recs[k].header);
                if (!(h = malloc(plen + 48))) {
                    msg("%s: out of memory", sp->file);
                    return -1;
                }
                snprintf(h, plen + 48, "%.*s:%llu-%llu", (int)plen, recs[k].header, sp->sub_start, end);
                free(recs[k].header);
                recs[k].header = h;
                if (!(name = record_name(&recs[k], sp->nameparse))) {
                    msg("%s: out of memory", sp->file);
                    return -1;
                }
                free(recs[k].name);
                recs[k].name = name;
            }
        }
        if (sp->nickname) {
            /* lastz names every record so, in the alignments and in lav's h stanza */
            free(recs[k].name);
            free(recs[k].header);
            recs[k].name = strdup(sp->nickname);
            recs[k].header = strdup(sp->nickname);
        }
        if (sp->unmask)
            for (size_t x = 0; x < recs[k].len; x++) recs[k].seq[x] = (char)toupper((unsigned char)recs[k].seq[x]);
    }
    for (int m = 0; m < 3; m++)
        if (sp->mask_file[m] && apply_mask(sp->mask_file[m], sp->mask_keep[m], m == 0 ? -1 : m == 1 ? 'X' : 'N', recs, n))
            return -1;
    return 0;
}
