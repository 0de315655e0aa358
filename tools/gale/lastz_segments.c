/*
 * gale lastz's anchors (lastz_int.h): the --segments file as LASTZ 1.04.22's segment.c
 * reads it.
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
            free_seg_lines(segs, (long)n);
            return -1;
        }
        if (n == scap) {
            scap = scap ? 2 * scap : 1024;
            segs = realloc(segs, scap * sizeof *segs);
        }
        segs[n].name1 = strdup(n1);
        segs[n].name2 = strdup(n2);
        segs[n].start1 = (uint32_t)s1;
        segs[n].end1 = (uint32_t)e1;
        segs[n].start2 = (uint32_t)s2;
        segs[n].end2 = (uint32_t)e2;
        segs[n].strand = strand[0];
        segs[n].score = (int32_t)sc;
        segs[n].line = lineno;
        segs[n].rec = -1;
        n++;
    }
    fclose(f);
    free(line);
    *out = segs;
    return (long)n;
}

void free_seg_lines(seg_line *v, long n)
{
    for (long k = 0; k < n; k++)
        if (v[k].rec < 0) {
            free(v[k].name1);
            free(v[k].name2);
        }
    free(v);
}
