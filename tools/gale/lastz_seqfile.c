/*
 * gale lastz's sequence files (lastz_int.h): FASTA, FASTQ, 2bit and nib as LASTZ 1.04.22
 * reads them (sequences.c), told apart as it tells them; the records they give, and a
 * subset file's names, which leave a 2bit file's other records undecoded.
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
static long read_fasta(const char *path, record **out)
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
            recs[n].header = strdup(line);
            e = p;
            while (*e && !isspace((unsigned char)*e)) e++;
            *e = 0;
            recs[n].name = strdup(p);
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
        r->header = strdup(line + 1); /* (lav's h stanza writes it so, without the '@') */
        if (!r->header) goto out_of_memory;
        {
            char *p = line + 1, *e;
            while (*p && isspace((unsigned char)*p)) p++;
            for (e = p; *e && !isspace((unsigned char)*e); e++) {}
            *e = 0;
            if (!(r->name = strdup(p))) goto out_of_memory;
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
    r->name = r->header ? strdup(r->header) : NULL;
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

const char *subset_line_name(char *line)
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
        if (!(out->v[out->n] = strdup(p))) goto oom;
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
    if (type == SEQ_2BIT) n = read_2bit(path, f, only, wanted, out); /* (read by offsets in f) */
    else if (type == SEQ_NIB) n = read_nib(path, f, v == 0x3A3DE96Bu, out);
    fclose(f);
    if (type == SEQ_2BIT || type == SEQ_NIB) return n;
    return type == SEQ_FASTQ ? read_fastq(path, out) : read_fasta(path, out); /* (text: opened again) */
}
