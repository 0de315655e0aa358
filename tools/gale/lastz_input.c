/*
 * gale lastz's input (lastz_int.h): FASTA records, the segments file, and LASTZ 1.04.22's
 * sequence specifiers (nickname, subset, unmask, name parsing, subranges) applied to the
 * records read.
 */
#define _POSIX_C_SOURCE 200809L /* getline, ssize_t, fseeko */
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

static char *xstrdup(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (d) strcpy(d, s);
    return d;
}

void free_record(record *r)
{
    free(r->name);
    free(r->header);
    free(r->seq);
    free(r->qual);
}

void free_records(record *recs, long n)
{
    if (!recs) return; /* (a reader that failed before its array) */
    for (long k = 0; k < n; k++) free_record(&recs[k]);
    free(recs);
}

/* Reads every record of a FASTA file; returns the number, or -1 (message said). */
long read_fasta(const char *path, record **out)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, n = 0, rcap = 0, scap = 0;
    ssize_t len;
    long lineno = 0;
    record *recs = NULL;
    if (!f) {
        msg("%s: %s", path, strerror(errno));
        return -1;
    }
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (line[0] == '>') {
            char *p = line + 1, *e;
            if (n == rcap) {
                record *nr = realloc(recs, (rcap = rcap ? 2 * rcap : 4) * sizeof *recs);
                if (!nr) goto out_of_memory;
                recs = nr;
            }
            memset(&recs[n], 0, sizeof recs[n]);
            recs[n].format = SEQ_FASTA;
            while (*p && isspace((unsigned char)*p)) p++;
            {
                size_t hl = strlen(line);
                while (hl > 0 && isspace((unsigned char)line[hl - 1])) line[--hl] = 0;
            }
            recs[n].header = xstrdup(line);
            e = p;
            while (*e && !isspace((unsigned char)*e)) e++;
            *e = 0;
            recs[n].name = xstrdup(p);
            recs[n].contig = (long)n + 1;
            recs[n].start_loc = 1;
            scap = 0;
            n++;
            if (!recs[n - 1].header || !recs[n - 1].name) goto out_of_memory;
            continue;
        }
        if (n == 0) {
            if (len == 0) continue;
            msg("%s line %ld: sequence before the first '>' header", path, lineno);
            goto failed;
        }
        for (ssize_t k = 0; k < len; k++) {
            unsigned char c = (unsigned char)line[k];
            if (isspace(c)) continue;
            if (!isgraph(c)) { /* (printable ones reach check_bases: a [separator=C] may be one) */
                msg("%s line %ld: byte 0x%02x is not a sequence letter", path, lineno, c);
                goto failed;
            }
            if (recs[n - 1].len + 1 >= scap) {
                char *ns = realloc(recs[n - 1].seq, scap = scap ? 2 * scap : 4096);
                if (!ns) goto out_of_memory;
                recs[n - 1].seq = ns;
            }
            recs[n - 1].seq[recs[n - 1].len++] = (char)c;
        }
    }
    fclose(f);
    free(line);
    for (size_t k = 0; k < n; k++) recs[k].true_len = recs[k].len;
    *out = recs;
    return (long)n;
out_of_memory:
    msg("%s: out of memory reading record %zu", path, n + (n == 0));
failed: /* (the records read so far go with it) */
    fclose(f);
    free(line);
    free_records(recs, (long)n);
    return -1;
}

/* The next line of f without its end (LF or CR-LF), counted in *lineno; its length, or -1
 * at the end of the file. */
static ssize_t next_line(char **line, size_t *cap, FILE *f, long *lineno)
{
    ssize_t len = getline(line, cap, f);
    if (len < 0) return -1;
    ++*lineno;
    if (len > 0 && (*line)[len - 1] == '\n') (*line)[--len] = 0;
    if (len > 0 && (*line)[len - 1] == '\r') (*line)[--len] = 0;
    return len;
}

/* Reads every record of a FASTQ file as lastz does (sequences.c load_fastq_sequence,
 * parse_fastq): four lines a record, '@' and the header, the bases on one line, '+' alone or
 * with the header again, as many qualities ('!' to '~') as bases on one line (line-wrapped
 * FASTQ is not read, as in lastz); CR-LF taken. Returns the number, or -1 (message said:
 * the file, the line and what lastz would say). */
static long read_fastq(const char *path, record **out)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, n = 0, rcap = 0;
    long lineno = 0;
    record *recs = NULL;
    if (!f) {
        msg("%s: %s", path, strerror(errno));
        return -1;
    }
    for (;;) {
        ssize_t len;
        record *r;
        if ((len = next_line(&line, &cap, f, &lineno)) < 0) break;
        if (line[0] != '@') {
            if (len) msg("%s line %ld: bad fastq header character (expected \"@\" but read \"%c\")", path, lineno, line[0]);
            else msg("%s line %ld: bad fastq header (expected \"@\" but the line is empty)", path, lineno);
            goto failed;
        }
        if (n == rcap) {
            record *nr = realloc(recs, (rcap = rcap ? 2 * rcap : 16) * sizeof *recs);
            if (!nr) goto out_of_memory;
            recs = nr;
        }
        r = &recs[n++];
        memset(r, 0, sizeof *r);
        r->format = SEQ_FASTQ;
        r->contig = (long)n;
        r->start_loc = 1;
        r->header = xstrdup(line + 1); /* (lav's h stanza writes it so, without the '@') */
        if (!r->header) goto out_of_memory;
        {
            char *p = line + 1, *e;
            while (*p && isspace((unsigned char)*p)) p++;
            for (e = p; *e && !isspace((unsigned char)*e); e++) {}
            *e = 0;
            if (!(r->name = xstrdup(p))) goto out_of_memory;
        }
        if ((len = next_line(&line, &cap, f, &lineno)) < 0) goto premature_end;
        for (ssize_t k = 0; k < len; k++)
            if (!isgraph((unsigned char)line[k])) { /* (printable ones reach check_bases) */
                msg("%s line %ld: bad fastq nucleotide character in %s (byte 0x%02x)", path, lineno, r->name,
                    (unsigned char)line[k]);
                goto failed;
            }
        r->len = r->true_len = (size_t)len;
        if (!(r->seq = malloc((size_t)len + 1))) goto out_of_memory;
        memcpy(r->seq, line, (size_t)len + 1);
        if ((len = next_line(&line, &cap, f, &lineno)) < 0) goto premature_end;
        if (line[0] != '+') {
            msg("%s line %ld: bad fastq third line character in %s (expected \"+\"; a line-wrapped FASTQ file is not "
                "read, as lastz does not read it)", path, lineno, r->name);
            goto failed;
        }
        if (len > 1 && strcmp(line + 1, r->header) != 0) {
            msg("%s line %ld: fastq third line mismatch (expected \"+%s\")", path, lineno, r->header);
            goto failed;
        }
        if ((len = next_line(&line, &cap, f, &lineno)) < 0) goto premature_end;
        for (ssize_t k = 0; k < len; k++)
            if (line[k] < '!' || line[k] > '~') {
                msg("%s line %ld: bad fastq quality character in %s (byte 0x%02x)", path, lineno, r->name,
                    (unsigned char)line[k]);
                goto failed;
            }
        if ((size_t)len != r->len) {
            msg("%s line %ld: %s fastq quality characters in %s: %zu nucleotides and %zd quality characters", path,
                lineno, (size_t)len < r->len ? "not enough" : "too many", r->name, r->len, len);
            goto failed;
        }
        if (!(r->qual = malloc((size_t)len + 1))) goto out_of_memory;
        memcpy(r->qual, line, (size_t)len + 1);
    }
    fclose(f);
    free(line);
    *out = recs;
    return (long)n;
premature_end:
    msg("%s line %ld: premature end of fastq file (in %s)", path, lineno, recs[n - 1].name);
    goto failed;
out_of_memory:
    msg("%s: out of memory reading record %zu", path, n + (n == 0));
failed:
    fclose(f);
    free(line);
    free_records(recs, (long)n);
    return -1;
}

/* Reads a nib file (UCSC's, as lastz's load_nib_sequence reads it): the magic number in
 * either byte order, the length, then a base a nibble, high nibble first: 0-4 T C A G N,
 * 5-7 X, 8-15 the same in lower case. One record, its header "PATH:1-LENGTH" (lastz's).
 * Returns 1, or -1 (message said). */
static long read_nib(const char *path, FILE *f, int big_endian, record **out)
{
    static const char kNib[17] = "TCAGNXXXtcagnxxx";
    unsigned char h[8];
    uint32_t len;
    record *r;
    if (fseek(f, 0, SEEK_SET) != 0 || fread(h, 1, 8, f) != 8) {
        msg("%s: the nib file ends early, or is not one", path);
        return -1;
    }
    len = big_endian ? (uint32_t)h[4] << 24 | (uint32_t)h[5] << 16 | (uint32_t)h[6] << 8 | h[7]
                     : (uint32_t)h[7] << 24 | (uint32_t)h[6] << 16 | (uint32_t)h[5] << 8 | h[4];
    if (len == 0 || len == 0xFFFFFFFFu) {
        msg("%s: bad nib length (%08" PRIX32 ")", path, len);
        return -1;
    }
    { /* the bases must be there before their room is taken */
        long size;
        if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || (uint64_t)size < 8 + ((uint64_t)len + 1) / 2 ||
            fseek(f, 8, SEEK_SET) != 0) {
            msg("%s: the nib file ends early (its header says %" PRIu32 " bases)", path, len);
            return -1;
        }
    }
    if (!(r = calloc(1, sizeof *r)) || !(r->seq = malloc((size_t)len + 1))) {
        msg("%s: out of memory reading its %" PRIu32 " bases", path, len);
        free(r);
        return -1;
    }
    for (uint32_t k = 0; k < len; k += 2) {
        const int c = fgetc(f);
        if (c == EOF) {
            msg("%s: the nib file ends early (%" PRIu32 " bases of %" PRIu32 ")", path, k, len);
            free_records(r, 1);
            return -1;
        }
        for (uint32_t x = k; x < k + 2 && x < len; x++) r->seq[x] = kNib[x == k ? c >> 4 : c & 15];
    }
    r->seq[len] = 0;
    r->len = r->true_len = len;
    r->format = SEQ_NIB;
    r->contig = 1;
    r->start_loc = 1;
    /* lastz's header of a nib record: the path as given and the range read (apply_spec
     * rewrites it for a subrange); the name comes from it (apply_names) */
    if ((r->header = malloc(strlen(path) + 32))) sprintf(r->header, "%s:1-%" PRIu32, path, len);
    r->name = r->header ? xstrdup(r->header) : NULL;
    if (!r->name) {
        msg("%s: out of memory", path);
        free_records(r, 1);
        return -1;
    }
    *out = r;
    return 1;
}

/* A 2bit file's 32-bit word at b, in the file's byte order */
static uint32_t word_2bit(const unsigned char *b, int big)
{
    return big ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]
               : (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/* n bytes at offset at of f into dst; 0 when the file ends before them */
static int read_at(FILE *f, uint64_t at, void *dst, size_t n)
{
    return at <= (uint64_t)INT64_MAX && fseeko(f, (off_t)at, SEEK_SET) == 0 && fread(dst, 1, n, f) == n;
}

/* A subset file's line as lastz reads it (sequences.c read_contig_name): a '#' at its start
 * or after a blank begins a comment; the name is the first word left, cut in place (NULL:
 * none on the line). */
static const char *subset_line_name(char *line)
{
    char *p = line, *e, *h;
    for (h = strchr(p, '#'); h; h = strchr(h + 1, '#'))
        if (h == p || h[-1] == ' ' || h[-1] == '\t') {
            *h = 0;
            break;
        }
    while (*p && isspace((unsigned char)*p)) p++;
    if (!*p) return NULL;
    for (e = p; *e && !isspace((unsigned char)*e); e++) {}
    *e = 0;
    return p;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int read_subset_names(const char *path, name_set *out)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, room = 0;
    memset(out, 0, sizeof *out);
    if (!f) {
        msg("%s (subset=): %s", path, strerror(errno));
        return -1;
    }
    while (getline(&line, &cap, f) >= 0) {
        const char *p = subset_line_name(line);
        if (!p) continue;
        if (out->n == room) {
            char **nv = realloc(out->v, (room = room ? 2 * room : 64) * sizeof *nv);
            if (!nv) goto oom;
            out->v = nv;
        }
        if (!(out->v[out->n] = xstrdup(p))) goto oom;
        out->n++;
    }
    fclose(f);
    free(line);
    if (out->n > 1) qsort(out->v, out->n, sizeof *out->v, by_name);
    return 0;
oom:
    msg("%s (subset=): out of memory", path);
    fclose(f);
    free(line);
    free_name_set(out);
    return -1;
}

void free_name_set(name_set *s)
{
    for (size_t k = 0; k < s->n; k++) free(s->v[k]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

static int in_name_set(const name_set *s, const char *name)
{
    return s->n > 0 && bsearch(&name, s->v, s->n, sizeof *s->v, by_name) != NULL;
}

/* A 2bit file (UCSC's format, as LASTZ 1.04.22's sequences.c read_2bit_header and
 * load_2bit_sequence read it): the magic number in either byte order, version 0, the
 * records' names and offsets, then per record its length, N blocks, mask blocks, a 0 and
 * its bases, four a byte from the high bits (T C A G). The bases come out upper case, the
 * N blocks as N, then the mask blocks in lower case (an N there as n). A record's header is
 * its name (no '>': lav's h stanza writes it so). The index is read first, then each record
 * from its offset (the file is never held whole: one record's packed bases at a time);
 * with only (FILE.2bit/NAME) or wanted (a subset's names) the other records keep their
 * names and no bases (keep_contig, apply_subset drop them), as lastz seeks to the ones it
 * names. Returns the number of records, or -1
 * (message said: the file and what is wrong). */
static long read_2bit(const char *path, FILE *f, const char *only, const name_set *wanted, record **out)
{
    unsigned char head[16], w[8], *packed = NULL, *blocks = NULL;
    size_t packed_cap = 0, blocks_cap = 0;
    uint64_t size, *offset = NULL;
    record *recs = NULL;
    long n = 0, rc = -1;
    int big;
    uint32_t count;
    if (fseeko(f, 0, SEEK_END) != 0 || ftello(f) < 0) {
        msg("%s: %s (a 2bit file is read by offsets: it must be a regular file)", path, strerror(errno));
        return -1;
    }
    size = (uint64_t)ftello(f);
    if (!read_at(f, 0, head, 16) || word_2bit(head + 4, head[0] == 0x1A) != 0 ||
        word_2bit(head + 12, head[0] == 0x1A) != 0) {
        msg("%s: a bad 2bit header (version and reserved words must be 0)", path);
        return -1;
    }
    big = head[0] == 0x1A;
    count = word_2bit(head + 8, big);
    if (count == 0) {
        msg("empty 2bit file %s", path);
        return -1;
    }
    if (count > (size - 16) / 5) { /* (an index entry takes 5 bytes at least) */
        msg("%s: the 2bit file's index of %lu records does not fit in it", path, (unsigned long)count);
        return -1;
    }
    recs = calloc(count, sizeof *recs);
    offset = calloc(count, sizeof *offset);
    if (!recs || !offset) {
        msg("%s: out of memory reading it", path);
        goto done;
    }
    if (fseeko(f, 16, SEEK_SET) != 0) goto truncated;
    for (uint32_t k = 0; k < count; k++, n++) { /* the index: names and offsets */
        const int nl = fgetc(f);
        if (nl == EOF) goto truncated;
        recs[k].name = malloc((size_t)nl + 1);
        recs[k].header = malloc((size_t)nl + 1);
        if (!recs[k].name || !recs[k].header || fread(recs[k].name, 1, (size_t)nl, f) != (size_t)nl ||
            fread(w, 1, 4, f) != 4)
            goto truncated;
        recs[k].name[nl] = 0;
        memcpy(recs[k].header, recs[k].name, (size_t)nl + 1);
        offset[k] = word_2bit(w, big);
        recs[k].contig = (long)k + 1;
        recs[k].start_loc = 1;
        recs[k].format = SEQ_2BIT;
    }
    for (n = 0; n < (long)count; n++) {
        record *r = &recs[n];
        uint64_t at = offset[n], len, nb, mb, need;
        if ((only && strcmp(r->name, only) != 0) || (wanted && !in_name_set(wanted, r->name))) continue;
        if (!read_at(f, at, w, 8)) goto truncated;
        len = word_2bit(w, big);
        nb = word_2bit(w + 4, big);
        if (len == 0 || len == 0xFFFFFFFFu) {
            msg("%s: record %s: bad 2bit length (%08" PRIX64 ")", path, r->name, len);
            goto done;
        }
        /* the N blocks' starts and sizes, then the mask blocks' count, starts and sizes,
         * then a reserved 0; checked against the file's size before anything is allocated */
        at += 8;
        if (at + 8 * nb + 4 > size) goto truncated;
        if (!read_at(f, at + 8 * nb, w, 4)) goto truncated;
        mb = word_2bit(w, big);
        need = 8 * nb + 4 + 8 * mb + 4;
        if (at + need > size) goto truncated;
        if (need > blocks_cap) {
            unsigned char *nbuf = realloc(blocks, need);
            if (!nbuf) goto out_of_memory;
            blocks = nbuf;
            blocks_cap = need;
        }
        if (!read_at(f, at, blocks, need)) goto truncated;
        if (word_2bit(blocks + need - 4, big) != 0) {
            msg("%s: record %s: bad 2bit reserved word before its bases", path, r->name);
            goto done;
        }
        at += need;
        if (at + (len + 3) / 4 > size) goto truncated;
        if ((len + 3) / 4 > packed_cap) {
            unsigned char *nbuf = realloc(packed, (len + 3) / 4);
            if (!nbuf) goto out_of_memory;
            packed = nbuf;
            packed_cap = (len + 3) / 4;
        }
        r->seq = malloc(len + 1);
        if (!r->seq) goto out_of_memory;
        if (!read_at(f, at, packed, (len + 3) / 4)) goto truncated;
        for (uint64_t i = 0; i < len; i++) r->seq[i] = "TCAG"[(packed[i / 4] >> (6 - 2 * (i % 4))) & 3];
        {
            const unsigned char *nblk = blocks, *mblk = blocks + 8 * nb + 4;
            for (uint64_t b = 0; b < nb; b++) { /* N blocks, clipped to the record */
                const uint64_t st = word_2bit(nblk + 4 * b, big), sz = word_2bit(nblk + 4 * nb + 4 * b, big);
                for (uint64_t i = st; i < st + sz && i < len; i++) r->seq[i] = 'N';
            }
            for (uint64_t b = 0; b < mb; b++) { /* mask blocks: lower case */
                const uint64_t st = word_2bit(mblk + 4 * b, big), sz = word_2bit(mblk + 4 * mb + 4 * b, big);
                for (uint64_t i = st; i < st + sz && i < len; i++) r->seq[i] = (char)tolower((unsigned char)r->seq[i]);
            }
        }
        r->len = r->true_len = (size_t)len;
    }
    rc = n;
    *out = recs;
    recs = NULL;
    goto done;
out_of_memory:
    msg("%s: out of memory reading record %ld", path, n + 1);
    goto done;
truncated:
    msg("%s: the 2bit file ends early, or is not one (record %ld of %lu)", path, n + 1, (unsigned long)count);
done:
    free_records(recs, (long)count);
    free(offset);
    free(blocks);
    free(packed);
    return rc;
}

long keep_contig(const char *path, const char *name, record *recs, long n)
{
    long k = 0;
    while (k < n && strcmp(recs[k].header, name) != 0) k++; /* (a 2bit record's header is its name) */
    if (k == n) {
        msg("2bit file %s doesn't contain %s", path, name);
        return -1;
    }
    for (long j = 0; j < n; j++) {
        if (j != k) free_record(&recs[j]);
    }
    recs[0] = recs[k];
    return 1;
}

long read_sequences(const char *path, int format, const char *only, const name_set *wanted, record **out)
{
    static const char *const kNames[] = {"", "fasta", "2bit", "fastq", "nib"};
    unsigned char magic[4] = {0, 0, 0, 0};
    FILE *f = fopen(path, "rb");
    int type = SEQ_FASTA;
    uint32_t v;
    long n;
    if (!f) {
        msg("%s: %s", path, strerror(errno));
        return -1;
    }
    if (fread(magic, 1, 4, f) < 1) magic[0] = 0;
    /* sequences.c detect_file_type: the first four bytes as a little-endian number against
     * each magic number in either byte order, then '@' for FASTQ, else FASTA */
    v = (uint32_t)magic[0] | (uint32_t)magic[1] << 8 | (uint32_t)magic[2] << 16 | (uint32_t)magic[3] << 24;
    if (v == 0x6BE93D3Au || v == 0x3A3DE96Bu) type = SEQ_NIB;
    else if (v == 0x1A412743u || v == 0x4327411Au) type = SEQ_2BIT;
    else if (v == 0xD2527095u || v == 0x957052D2u || v == 0xC4B47197u || v == 0x9771B4C4u || v == 0xF656659Eu ||
             v == 0x9E6556F6u) {
        msg("%s: a%s file, which gale lastz does not read (FASTA, FASTQ, 2bit and nib it does)", path,
            v == 0xD2527095u || v == 0x957052D2u ? "n hsx" : " quantum DNA (qdna)");
        fclose(f);
        return -1;
    } else if (magic[0] == '@') type = SEQ_FASTQ;
    if (format && format != type) {
        /* lastz reads the file as the forced type, and fails on it */
        msg("%s: clashing file type (format=%s given, the file is %s)", path, kNames[format], kNames[type]);
        fclose(f);
        return -1;
    }
    switch (type) {
    case SEQ_2BIT: n = read_2bit(path, f, only, wanted, out); break;
    case SEQ_NIB: n = read_nib(path, f, v == 0x3A3DE96Bu, out); break;
    default: n = -2; break;
    }
    fclose(f);
    if (n != -2) return n;
    return type == SEQ_FASTQ ? read_fastq(path, out) : read_fasta(path, out);
}

/* Reads the segments file as LASTZ's read_segment_table does (comments after '#', blank
 * lines skipped, 7 or 8 fields, 1-based inclusive intervals of equal length). */
long read_segments(const char *path, seg_line **out)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, n = 0, scap = 0;
    long lineno = 0;
    seg_line *segs = NULL;
    if (!f) {
        msg("%s: %s", path, strerror(errno));
        return -1;
    }
    while (getline(&line, &cap, f) >= 0) {
        char n1[1024], n2[1024], strand[8], extra[8];
        long long s1, e1, s2, e2, sc = 0;
        int k;
        char *hash = strchr(line, '#');
        lineno++;
        if (hash) *hash = 0;
        k = sscanf(line, "%1023s %lld %lld %1023s %lld %lld %7s %lld %7s", n1, &s1, &e1, n2, &s2, &e2, strand, &sc,
                   extra);
        if (k <= 0) continue;
        if (k < 7 || k > 8 || (strand[0] != '+' && strand[0] != '-') || strand[1] || s1 < 1 || s2 < 1 || e1 < s1 ||
            e2 < s2 || e1 - s1 != e2 - s2 || e1 > UINT32_MAX || e2 > UINT32_MAX) {
            msg("%s line %ld: not a segment 'name1 start1 end1 name2 start2 end2 strand2 [score]' with 1-based "
                "intervals of equal length",
                path, lineno);
            fclose(f);
            free(line);
            for (size_t k2 = 0; k2 < n; k2++) {
                free(segs[k2].name1);
                free(segs[k2].name2);
            }
            free(segs);
            return -1;
        }
        if (n == scap) {
            scap = scap ? 2 * scap : 1024;
            segs = realloc(segs, scap * sizeof *segs);
        }
        segs[n].name1 = xstrdup(n1);
        segs[n].name2 = xstrdup(n2);
        segs[n].start1 = (uint32_t)s1;
        segs[n].end1 = (uint32_t)e1;
        segs[n].start2 = (uint32_t)s2;
        segs[n].end2 = (uint32_t)e2;
        segs[n].strand = strand[0];
        segs[n].score = (int32_t)sc;
        segs[n].line = lineno;
        n++;
    }
    fclose(f);
    free(line);
    *out = segs;
    return (long)n;
}

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
        } else if (strcmp(a, "multiple") == 0) {
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
    if (type == 3) return xstrdup(header);
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
            p->name = xstrdup(r->name);
            p->header = xstrdup(r->header);
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
            recs[k].name = xstrdup(sp->nickname);
            recs[k].header = xstrdup(sp->nickname);
        }
        if (sp->unmask)
            for (size_t x = 0; x < recs[k].len; x++) recs[k].seq[x] = (char)toupper((unsigned char)recs[k].seq[x]);
    }
    for (int m = 0; m < 3; m++)
        if (sp->mask_file[m] && apply_mask(sp->mask_file[m], sp->mask_keep[m], m == 0 ? -1 : m == 1 ? 'X' : 'N', recs, n))
            return -1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* --scores=FILE                                                        */
/* ------------------------------------------------------------------ */

/* LASTZ's string_to_score for integer scores (string_to_unitized_int, by thousands): an
 * integer, or a decimal rounded as (int)(v + .5), with an optional K, M or G (x 1000^n).
 * Returns 0, or -1 for anything else. */
/* The number part of a unitized value (utilities.c string_to_unitized_int): a
 * last K, M or G (either case) sets *mult (by thousands, or by 1,024) and is cut off in buf;
 * a string too long for buf is parsed as it is (as there). */
static const char *unit_split(const char *s, char buf[20], int by_thousands, int64_t *mult)
{
    const size_t len = strlen(s);
    *mult = 1;
    if (len >= 20) return s;
    memcpy(buf, s, len + 1);
    if (len > 0) {
        const char u = buf[len - 1];
        const int64_t k = by_thousands ? 1000 : 1024;
        *mult = u == 'K' || u == 'k' ? k : u == 'M' || u == 'm' ? k * k : u == 'G' || u == 'g' ? k * k * k : 1;
        if (*mult != 1) buf[len - 1] = 0;
    }
    return buf;
}

int unitized_value(const char *s, int by_thousands, int32_t *out)
{
    char buf[20], extra;
    int64_t mult;
    const char *parse = unit_split(s, buf, by_thousands, &mult);
    int v;
    float vf;
    if (sscanf(parse, "%d%c", &v, &extra) == 1) {
        if (mult != 1 && (v > INT_MAX / mult || v < -(INT_MAX / mult))) return -1;
        *out = (int32_t)(v * mult);
        return 0;
    }
    if (sscanf(parse, "%f%c", &vf, &extra) != 1) return -1;
    /* lastz's test: the float product, then compared in double (2.0 times 2^30 overflows) */
    if ((vf > 0 && (double)(vf * (float)mult) > (double)INT_MAX) || (vf < 0 && (double)(-vf * (float)mult) > (double)INT_MAX))
        return -1;
    *out = (int32_t)(vf * (float)mult + .5);
    return 0;
}

int score_value(const char *s, int32_t *out)
{
    return unitized_value(s, 1, out);
}

/* blanks off both ends, in place */
static char *trim(char *s)
{
    char *e;
    while (*s == ' ' || *s == '\t' || *s == '\r') s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) *--e = 0;
    return s;
}

/* a scoring file's row or column label: one upper-case A, C, G or T */
static int nuc_index(const char *tok) { return tok[0] && !tok[1] ? lastz_nuc(tok[0]) : -1; }

int read_scores(const char *path, lastz_scores *sc)
{
    FILE *f = fopen(path, "r");
    char *line = NULL, *l;
    size_t cap = 0;
    long lineno = 0;
    int have_bad = 0, have_fill = 0, have_step = 0, have_ball = 0, have_seed = 0, stage = 0, ncols = 0, nrows = 0;
    int fields = -1, col_of[4], row_seen[4] = {0, 0, 0, 0}, rc = -1;
    memset(sc, 0, sizeof *sc);
    sc->bad = -1000; /* LASTZ's defaults (blastz's) */
    sc->fill = -100;
    sc->gap_open = 400;
    sc->gap_extend = 30;
    if (!f) {
        msg("--scores: %s: %s", path, strerror(errno));
        return -1;
    }
    while (getline(&line, &cap, f) >= 0) {
        char *hash, *eq;
        lineno++;
        line[strcspn(line, "\n")] = 0;
        if ((hash = strchr(line, '#')) != NULL) *hash = 0;
        l = trim(line);
        if (!*l) continue;
        eq = stage == 0 ? strchr(l, '=') : NULL;
        if (eq) { /* a setting: each name once (lastz: a repeated one is an invalid name) */
            char *name, *val;
            int ok;
            *eq = 0;
            name = trim(l);
            val = trim(eq + 1);
#define IS(a) (strcmp(name, a) == 0)
            if (!have_bad && (IS("bad") || IS("bad_score"))) {
                /* [ROW:[COL:]]SCORE: gale takes X (the default) as the bad character */
                char *v2 = val, *colon;
                while ((colon = strchr(v2, ':')) != NULL) {
                    if (colon - v2 != 1 || *v2 != 'X') {
                        msg("--scores: %s line %ld: %s=%s: gale lastz takes X as the bad_score character only", path,
                            lineno, name, val);
                        goto done;
                    }
                    v2 = colon + 1;
                }
                ok = score_value(v2, &sc->bad) == 0;
                have_bad = 1;
            } else if (!have_fill && (IS("fill") || IS("fill_score"))) {
                ok = score_value(val, &sc->fill) == 0;
                have_fill = 1;
            } else if (!sc->have_gap_open && (IS("O") || IS("open") || IS("gap_open") || IS("gap_open_penalty"))) {
                ok = score_value(val, &sc->gap_open) == 0;
                sc->have_gap_open = 1;
            } else if (!sc->have_gap_extend &&
                       (IS("E") || IS("extend") || IS("gap_extend") || IS("gap_extend_penalty"))) {
                ok = score_value(val, &sc->gap_extend) == 0;
                sc->have_gap_extend = 1;
            } else if (!sc->have_hsp && (IS("K") || IS("hsp_thresh") || IS("hsp_threshold"))) {
                ok = score_value(val, &sc->hsp_thresh) == 0;
                sc->have_hsp = 1;
            } else if (!sc->have_gapped && (IS("L") || IS("gapped_thresh") || IS("gapped_threshold"))) {
                ok = score_value(val, &sc->gapped_thresh) == 0;
                sc->have_gapped = 1;
            } else if (!sc->have_x_drop && (IS("X") || IS("x_drop"))) {
                ok = score_value(val, &sc->x_drop) == 0 && sc->x_drop > 0;
                sc->have_x_drop = 1;
            } else if (!sc->have_y_drop && (IS("Y") || IS("y_drop"))) {
                ok = score_value(val, &sc->y_drop) == 0 && sc->y_drop > 0;
                sc->have_y_drop = 1;
            } else if (!have_step && (IS("Z") || IS("step"))) { /* seeding's: no effect on the gapped stage */
                int32_t step;
                ok = score_value(val, &step) == 0 && step > 0;
                have_step = 1;
            } else if (!have_ball && IS("ball")) { /* quantum DNA's: no effect here */
                int32_t b;
                ok = score_value(val, &b) == 0 && b > 0;
                have_ball = 1;
            } else if (!have_seed && (IS("T") || IS("seed"))) { /* seeding's: no effect on the gapped stage */
                static const char *const seeds[] = {"1", "2", "3", "4", "12of19,transition", "12_of_19,transition",
                                                    "12of19,notransition", "12_of_19,no_transition",
                                                    "14of22,transition", "14_of_22,transition",
                                                    "14of22,notransition", "14_of_22,no_transition"};
                ok = 0;
                for (size_t k = IS("T") ? 0 : 4; k < (IS("T") ? 4u : sizeof seeds / sizeof seeds[0]); k++)
                    ok = ok || strcmp(val, seeds[k]) == 0;
                have_seed = 1;
            } else if (IS("bottleneck")) {
                msg("--scores: %s line %ld: %s=%s: a bottleneck alphabet is for quantum DNA, which gale lastz does "
                    "not take", path, lineno, name, val);
                goto done;
            } else {
                msg("--scores: %s line %ld: invalid name in assignment %s=%s", path, lineno, name, val);
                goto done;
            }
#undef IS
            if (!ok) {
                msg("--scores: %s line %ld: invalid value in %s=%s", path, lineno, name, val);
                goto done;
            }
            continue;
        }
        if (stage == 0) { /* the column labels: A C G T in any order */
            for (char *tok = strtok(l, " \t"); tok; tok = strtok(NULL, " \t")) {
                const int x = nuc_index(tok);
                if (x < 0 || ncols == 4) {
                    msg("--scores: %s line %ld: column '%s': gale lastz takes matrices of A, C, G and T only", path,
                        lineno, tok);
                    goto done;
                }
                for (int k = 0; k < ncols; k++)
                    if (sc->cols[k] == tok[0]) {
                        msg("--scores: %s line %ld: duplicate column '%s'", path, lineno, tok);
                        goto done;
                    }
                col_of[ncols] = x;
                sc->cols[ncols++] = tok[0];
            }
            if (ncols != 4) {
                msg("--scores: %s line %ld: %d columns: gale lastz takes matrices of A, C, G and T only", path, lineno,
                    ncols);
                goto done;
            }
            stage = 1;
            continue;
        }
        { /* a row: [LABEL] then 4 scores; without labels the rows follow the columns' order */
            char *tok[6];
            int n = 0, r;
            for (char *t = strtok(l, " \t"); t; t = strtok(NULL, " \t")) {
                if (n == 6) break;
                tok[n++] = t;
            }
            if (fields < 0) {
                if (n != 4 && n != 5) {
                    msg("--scores: %s line %ld: wrong number of score columns", path, lineno);
                    goto done;
                }
                fields = n;
            } else if (n != fields) {
                msg("--scores: %s line %ld: inconsistent number of score columns", path, lineno);
                goto done;
            }
            if (nrows == 4) {
                msg("--scores: %s line %ld: too many score rows", path, lineno);
                goto done;
            }
            if (fields == 4) {
                r = col_of[nrows];
            } else if ((r = nuc_index(tok[0])) < 0) {
                msg("--scores: %s line %ld: row '%s': gale lastz takes matrices of A, C, G and T only", path, lineno,
                    tok[0]);
                goto done;
            } else if (row_seen[r]) {
                msg("--scores: %s line %ld: duplicate row '%s'", path, lineno, tok[0]);
                goto done;
            }
            row_seen[r] = 1;
            sc->rows[nrows++] = "ACGT"[r];
            for (int c = 0; c < 4; c++)
                if (score_value(tok[fields - 4 + c], &sc->matrix[r][col_of[c]]) != 0) {
                    msg("--scores: %s line %ld: '%s' is not a score", path, lineno, tok[fields - 4 + c]);
                    goto done;
                }
        }
    }
    if (ferror(f)) {
        msg("--scores: %s: %s", path, strerror(errno));
    } else if (stage == 0 || nrows == 0) {
        msg("--scores: %s: no score matrix", path);
    } else if (nrows != 4) {
        msg("--scores: %s: %d score rows: gale lastz takes matrices of A, C, G and T only", path, nrows);
    } else if (sc->have_gap_open && (int64_t)sc->gap_open + sc->gap_extend <= 0) {
        msg("--scores: %s: %d is not a valid gap open penalty with extension penalty %d", path, sc->gap_open,
            sc->gap_extend);
    } else if (sc->have_gap_extend && sc->gap_extend < 0) {
        msg("--scores: %s: %d is not a valid gap extension penalty", path, sc->gap_extend);
    } else {
        rc = 0;
    }
done:
    free(line);
    fclose(f);
    return rc;
}
