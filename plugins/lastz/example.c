/*
 * example.c - the lastz plugin's round trip (plugins/lastz/README.md): load the plugin,
 * register a target and the query records, pass the anchors, print the alignments.
 *
 *   lastz_example TARGET.fa QUERY.fa SEGMENTS
 *
 * TARGET.fa: one record; QUERY.fa: any number; SEGMENTS: lastz's segments lines
 * (name1 start1 end1 name2 start2 end2 strand2 [score]; '#' comments), as
 * `lastz TARGET QUERY --nogapped --format=segments` writes them. Writes what
 * `lastz TARGET QUERY --segments=SEGMENTS
 *  --format=general-:score,name1,zstart1,end1,name2,strand2,zstart2,end2,cigar`
 * writes (tests/plugins/lastz_plugin.sh compares the two). Finds gale-lastz.so through
 * GALE_PLUGIN_PATH or the installed plugin directory (gale_plugin_open).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "gale_lastz_plugin.h"
#include "gale_plugin.h"

typedef struct {
    char *name, *seq;
    size_t len;
} rec;

/* a small FASTA reader: the name is the header's first word */
static size_t read_fasta(const char *path, rec **out)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, n = 0, scap = 0;
    rec *r = NULL;
    if (!f) {
        perror(path);
        exit(1);
    }
    while (getline(&line, &cap, f) >= 0) {
        if (line[0] == '>') {
            char *p = line + 1;
            r = realloc(r, (n + 1) * sizeof *r);
            while (isspace((unsigned char)*p)) p++;
            p[strcspn(p, " \t\r\n")] = 0;
            r[n].name = strdup(p);
            r[n].seq = NULL;
            r[n].len = 0;
            scap = 0;
            n++;
        } else if (n) {
            for (char *p = line; *p; p++) {
                if (isspace((unsigned char)*p)) continue;
                if (r[n - 1].len + 1 >= scap) r[n - 1].seq = realloc(r[n - 1].seq, scap = scap ? 2 * scap : 4096);
                r[n - 1].seq[r[n - 1].len++] = *p;
            }
        }
    }
    free(line);
    fclose(f);
    *out = r;
    return n;
}

int main(int argc, char **argv)
{
    gale_plugin *plugin = NULL;
    const gale_plugin_info *info = NULL;
    const gale_lastz_plugin_api *api;
    gale_lastz_session *s = NULL;
    gale_lastz_hits *hits = NULL;
    gale_lastz_seed *seeds = NULL;
    rec *t, *q;
    size_t nt, nq, ns = 0;
    char *line = NULL;
    size_t cap = 0;
    FILE *f;
    int rc = 1;
    if (argc != 4) {
        fprintf(stderr, "usage: %s TARGET.fa QUERY.fa SEGMENTS\n", argv[0]);
        return 2;
    }
    nt = read_fasta(argv[1], &t);
    nq = read_fasta(argv[2], &q);
    if (nt != 1) {
        fprintf(stderr, "%s: %zu records, the target must have one\n", argv[1], nt);
        return 1;
    }
    if (gale_plugin_open("lastz", &plugin) != GALE_OK || gale_plugin_get_info(plugin, &info) != GALE_OK) {
        fprintf(stderr, "loading the lastz plugin: %s\n", gale_last_error());
        return 1;
    }
    api = (const gale_lastz_plugin_api *)info->api;
    if (api->size < sizeof *api) {
        fprintf(stderr, "the lastz plugin's function table is older than this program's\n");
        goto done;
    }
    /* the session, with lastz's defaults; the sequences, registered once */
    if (api->session_create(NULL, &s) != GALE_OK || api->session_add_target(s, t[0].seq, (int64_t)t[0].len, NULL))
        goto fail;
    for (size_t k = 0; k < nq; k++)
        if (api->session_add_query(s, q[k].seq, (int64_t)q[k].len, NULL) != GALE_OK) goto fail;
    /* the anchor table */
    if (!(f = fopen(argv[3], "r"))) {
        perror(argv[3]);
        goto done;
    }
    for (long lineno = 1; getline(&line, &cap, f) >= 0; lineno++) {
        char n1[256], n2[256], st[4];
        unsigned s1, e1, s2, e2;
        int score = 0, k;
        size_t qi;
        line[strcspn(line, "#")] = 0;
        k = sscanf(line, "%255s %u %u %255s %u %u %3s %d", n1, &s1, &e1, n2, &s2, &e2, st, &score);
        if (k <= 0) continue;
        for (qi = 0; qi < nq && strcmp(q[qi].name, n2) != 0; qi++) {}
        if (k < 7 || qi == nq || e1 < s1 || e1 - s1 != e2 - s2 || (st[0] != '+' && st[0] != '-')) {
            fprintf(stderr, "%s line %ld: not a segment of these sequences\n", argv[3], lineno);
            fclose(f);
            goto done;
        }
        seeds = realloc(seeds, (ns + 1) * sizeof *seeds);
        seeds[ns].target = 0;
        seeds[ns].query = (uint32_t)qi;
        seeds[ns].start1 = s1;
        seeds[ns].start2 = s2;
        seeds[ns].length = e1 - s1 + 1;
        seeds[ns].score = score;
        seeds[ns].strand = st[0];
        ns++;
    }
    fclose(f);
    /* the alignments, in lastz's order */
    if (api->session_run(s, seeds, ns, &hits) != GALE_OK) goto fail;
    for (size_t k = 0; k < api->hits_count(hits); k++) {
        gale_lastz_hit h;
        if (api->hits_get(hits, k, &h) != GALE_OK) goto fail;
        printf("%d\t%s\t%u\t%u\t%s\t%c\t%u\t%u\t", h.score, t[0].name, h.beg1 - 1, h.end1, q[h.query].name, h.strand,
               h.beg2 - 1, h.end2);
        for (uint32_t j = 0; j < h.n_ops; j++)
            printf("%u%c", GALE_CIGAR_LEN(h.cigar[j]), GALE_CIGAR_STR[GALE_CIGAR_OP(h.cigar[j])]);
        putchar('\n');
    }
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "lastz plugin: %s\n", api->last_error());
done:
    if (api) {
        api->hits_free(hits);
        api->session_destroy(s);
    }
    gale_plugin_close(plugin);
    free(seeds);
    free(line);
    for (size_t k = 0; k < nt; k++) { free(t[k].name); free(t[k].seq); }
    for (size_t k = 0; k < nq; k++) { free(q[k].name); free(q[k].seq); }
    free(t);
    free(q);
    return rc;
}
