/*
 * gale graph-align [options] GRAPH.gfa READS...
 *
 * Sequence-to-graph alignment with SPOA 4.0.8's engine (the GALE_POA kind's; library
 * entry gale_poa_graph_*): each read of the FASTA/FASTQ files is aligned to the graph
 * of GRAPH.gfa, which does not change, and written as one GAF line. The GFA holds
 * segments (S) and links (L) between forward strands, forming a DAG; other record types
 * (H, P, W, ...) are skipped. See doc/cli.md ("gale graph-align").
 */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <htslib/khash.h>

#include "gale.h"
#include "input.h"
#include "options.h"
#include "poa_scores.h"
#include "subcommands.h"

void usage_graph_align(FILE *out)
{
    fprintf(out,
        "Usage: gale graph-align [options] GRAPH.gfa READS...\n"
        "\n"
        "Aligns each read of the FASTA/FASTQ files READS (plain or gzip/bgzf; '-' =\n"
        "stdin) to the graph of GRAPH.gfa with SPOA 4.0.8's recurrences and tie-breaks\n"
        "(what spoa::AlignmentEngine::Align gives against that graph) and writes one GAF\n"
        "line per read: name, length, start, end, strand (+), path (>seg>seg...), path\n"
        "length, start, end, matches, block length, 255, AS:i:score, cg:Z:CIGAR (=, X, I,\n"
        "D against the path). A read with nothing aligned has '*' as strand and path.\n"
        "The graph: S lines (name, sequence) and L lines between forward strands with\n"
        "overlap 0M (or OM, as SPOA writes it), forming a DAG, ordered as SPOA's\n"
        "topological sort orders it; H, P, W and other lines are skipped. A link on a\n"
        "reverse strand, a cycle or a malformed line is refused, naming its line.\n"
        "\n"
        "Options (as gale poa / spoa):\n");
    usage_poa_scores(out, "");
    fprintf(out,
        "\n"
        "gale's:\n"
        "  -h, --help           show this help\n"
        "  --version            show the versions\n");
}

KHASH_MAP_INIT_STR(seg, uint32_t)

typedef struct {
    khash_t(seg) *index; /* name -> segment index (keys: the names below) */
    char **names;
    char **seqs;
    int64_t *lens;
    uint64_t *lines;
    size_t n, cap;
    uint32_t *edges; /* 2 per link: segment indices */
    uint64_t *link_lines;
    size_t n_links, cap_links;
} gfa;

static void gfa_free(gfa *g)
{
    size_t i;
    if (g->index) kh_destroy(seg, g->index);
    for (i = 0; i < g->n; i++) {
        free(g->names[i]);
        free(g->seqs[i]);
    }
    free(g->names);
    free(g->seqs);
    free(g->lens);
    free(g->lines);
    free(g->edges);
    free(g->link_lines);
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

/* Splits a line at tabs into at most max fields; returns the count. */
static size_t split_tabs(char *s, char **f, size_t max)
{
    size_t n = 0;
    while (n < max) {
        char *t = strchr(s, '\t');
        f[n++] = s;
        if (!t) break;
        *t = 0;
        s = t + 1;
    }
    return n;
}

static long find_segment(const gfa *g, const char *name)
{
    khint_t k = kh_get(seg, g->index, name);
    return k == kh_end(g->index) ? -1 : (long)kh_value(g->index, k);
}

/* Reads GRAPH.gfa into g and checks it: 0, or EXIT_FAIL after a message. */
static int read_gfa(const char *path, gfa *g, in_file *f)
{
    int r, rc = EXIT_FAIL;
    char *links_raw = NULL; /* link names, NUL-separated pairs, resolved once all segments are read */
    size_t raw_len = 0, raw_cap = 0, i;
    char q[64];
    if (!(g->index = kh_init(seg))) return EXIT_FAIL;
    if ((r = in_open(f, path))) return r;
    while ((r = in_getline(f)) > 0) {
        char *fl[8] = {0};
        size_t nf, k;
        char *s = f->line.s;
        if (f->line.l == 0 || s[0] == '#') continue;
        if (s[0] != 'S' && s[0] != 'L') {
            if (s[1] != '\t' && s[1] != 0) {
                quote_field(q, sizeof q, s, f->line.l);
                in_error(f, f->lineno, 0, "malformed line %s: a record type is one letter followed by a tab", q);
                goto out;
            }
            continue;
        }
        nf = split_tabs(s, fl, 8);
        if (strlen(fl[0]) != 1) {
            in_error(f, f->lineno, 0, "malformed line: a record type is one letter followed by a tab");
            goto out;
        }
        if (s[0] == 'S') {
            size_t len;
            if (nf < 3 || fl[1][0] == 0) {
                in_error(f, f->lineno, 0, "malformed S line: expected S, a name and a sequence, tab-separated");
                goto out;
            }
            len = strlen(fl[2]);
            if (strcmp(fl[2], "*") == 0 || len == 0) {
                in_error(f, f->lineno, 0, "segment %s has no sequence ('*'): gale aligns to the bases", fl[1]);
                goto out;
            }
            for (k = 0; k < len; k++)
                if (fl[2][k] < '!' || fl[2][k] > '~') {
                    in_error(f, f->lineno, 0, "segment %s: byte 0x%02x at position %zu is not printable ASCII", fl[1],
                             (unsigned char)fl[2][k], k);
                    goto out;
                }
            if (strpbrk(fl[1], "<>")) {
                in_error(f, f->lineno, 0, "segment name %s holds '<' or '>' (GAF paths could not name it)", fl[1]);
                goto out;
            }
            if (find_segment(g, fl[1]) >= 0) {
                in_error(f, f->lineno, 0, "segment %s is defined twice (first on line %" PRIu64 ")", fl[1],
                         g->lines[find_segment(g, fl[1])]);
                goto out;
            }
            if (g->n == g->cap) {
                size_t c = g->cap ? 2 * g->cap : 256;
                char **a = realloc(g->names, c * sizeof *a), **b;
                if (a) g->names = a;
                b = realloc(g->seqs, c * sizeof *b);
                if (b) g->seqs = b;
                int64_t *l = realloc(g->lens, c * sizeof *l);
                if (l) g->lens = l;
                uint64_t *ln = realloc(g->lines, c * sizeof *ln);
                if (ln) g->lines = ln;
                if (!a || !b || !l || !ln) goto oom;
                g->cap = c;
            }
            g->names[g->n] = dup_n(fl[1], strlen(fl[1]));
            g->seqs[g->n] = dup_n(fl[2], len);
            if (!g->names[g->n] || !g->seqs[g->n]) {
                free(g->names[g->n]);
                free(g->seqs[g->n]);
                goto oom;
            }
            {
                int absent;
                khint_t kk = kh_put(seg, g->index, g->names[g->n], &absent);
                if (absent < 0) {
                    free(g->names[g->n]);
                    free(g->seqs[g->n]);
                    goto oom;
                }
                kh_value(g->index, kk) = (uint32_t)g->n;
            }
            g->lens[g->n] = (int64_t)len;
            g->lines[g->n++] = f->lineno;
        } else {
            size_t need;
            if (nf < 6) {
                in_error(f, f->lineno, 0,
                         "malformed L line: expected L, from, orientation, to, orientation, overlap, tab-separated");
                goto out;
            }
            for (k = 2; k <= 4; k += 2)
                if (strcmp(fl[k], "+") != 0 && strcmp(fl[k], "-") != 0) {
                    quote_field(q, sizeof q, fl[k], strlen(fl[k]));
                    in_error(f, f->lineno, 0, "malformed L line: orientation %s is not + or -", q);
                    goto out;
                }
            if (fl[2][0] == '-' || fl[4][0] == '-') {
                in_error(f, f->lineno, 0,
                         "link %s%s -> %s%s is on a reverse strand: bidirected graphs are not supported "
                         "(links between forward strands only)",
                         fl[1], fl[2], fl[3], fl[4]);
                goto out;
            }
            if (strcmp(fl[5], "0M") != 0 && strcmp(fl[5], "OM") != 0) {
                quote_field(q, sizeof q, fl[5], strlen(fl[5]));
                in_error(f, f->lineno, 0, "link %s -> %s: overlap %s is not supported (0M, or OM as SPOA writes it)",
                         fl[1], fl[3], q);
                goto out;
            }
            if (g->n_links == g->cap_links) {
                size_t c = g->cap_links ? 2 * g->cap_links : 256;
                uint32_t *e = realloc(g->edges, 2 * c * sizeof *e);
                if (e) g->edges = e;
                uint64_t *ln = realloc(g->link_lines, c * sizeof *ln);
                if (ln) g->link_lines = ln;
                if (!e || !ln) goto oom;
                g->cap_links = c;
            }
            need = strlen(fl[1]) + strlen(fl[3]) + 2;
            if (raw_len + need > raw_cap) {
                size_t c = raw_cap ? 2 * raw_cap : 4096;
                char *nr;
                while (c < raw_len + need) c *= 2;
                if (!(nr = realloc(links_raw, c))) goto oom;
                links_raw = nr;
                raw_cap = c;
            }
            memcpy(links_raw + raw_len, fl[1], strlen(fl[1]) + 1);
            raw_len += strlen(fl[1]) + 1;
            memcpy(links_raw + raw_len, fl[3], strlen(fl[3]) + 1);
            raw_len += strlen(fl[3]) + 1;
            g->link_lines[g->n_links++] = f->lineno;
        }
    }
    if (r < 0) goto out;
    {
        const char *p = links_raw;
        for (i = 0; i < g->n_links; i++) {
            const char *to = p + strlen(p) + 1;
            long a = find_segment(g, p), b = find_segment(g, to);
            if (a < 0 || b < 0) {
                in_error(f, g->link_lines[i], 0, "link %s -> %s: no segment named %s", p, to, a < 0 ? p : to);
                goto out;
            }
            g->edges[2 * i] = (uint32_t)a;
            g->edges[2 * i + 1] = (uint32_t)b;
            p = to + strlen(to) + 1;
        }
    }
    if (g->n == 0) {
        in_error(f, f->lineno, 0, "no segments (S lines): nothing to align to");
        goto out;
    }
    rc = 0;
    goto out;
oom:
    in_error(f, f->lineno, 0, "out of memory");
out:
    free(links_raw);
    in_close(f);
    return rc;
}

static void put_name(FILE *out, const char *h, size_t n)
{
    size_t k = 0;
    while (k < n && h[k] != ' ' && h[k] != '\t') k++;
    fwrite(h, 1, k, out);
}

static int align_one(gale_poa_graph *h, const gfa *g, const int64_t *p, const char *name, size_t name_len,
                     const char *seq, size_t len, const in_file *f, uint64_t line)
{
    gale_poa_graph_alignment a;
    gale_status st;
    uint32_t i;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    st = gale_poa_graph_align(h, (int)p[POA_ALGORITHM], (int)p[POA_M], (int)p[POA_N], (int)p[POA_G], (int)p[POA_E], (int)p[POA_Q], (int)p[POA_C], seq,
                              (int64_t)len, &a);
    if (st != GALE_OK) {
        in_error(f, line, 0, "%s", gale_last_error());
        return EXIT_FAIL;
    }
    put_name(stdout, name, name_len);
    if (a.n_path == 0) {
        printf("\t%zu\t0\t0\t*\t*\t0\t0\t0\t0\t0\t255\tAS:i:%d\n", len, a.score);
        return 0;
    }
    printf("\t%zu\t%" PRId64 "\t%" PRId64 "\t+\t", len, a.query_start, a.query_end);
    for (i = 0; i < a.n_path; i++) printf(">%s", g->names[a.path[i]]);
    printf("\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t255\tAS:i:%d\tcg:Z:", a.path_len,
           a.path_start, a.path_end, a.matches, a.block_len, a.score);
    for (i = 0; i < a.n_ops; i++)
        printf("%u%c", GALE_CIGAR_LEN(a.cigar[i]), GALE_CIGAR_STR[GALE_CIGAR_OP(a.cigar[i])]);
    putchar('\n');
    return 0;
}

/* FASTA (multi-line) or FASTQ (four lines a record) reads, aligned as they are read. */
static int align_file(const char *path, gale_poa_graph *h, const gfa *g, const int64_t *p)
{
    in_file f;
    int r, rc = 0, fmt = 0, have = 0;
    kstring_t name = {0, 0, NULL}, seq = {0, 0, NULL};
    uint64_t hdr = 0;
    int st = in_open(&f, path);
    if (st) return st;
    f.records = 0;
    while (rc == 0 && (r = in_getline(&f)) > 0) {
        const char *s = f.line.s;
        size_t n = f.line.l;
        while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
        if (fmt == 0) {
            if (n == 0) continue;
            if (s[0] != '>' && s[0] != '@') {
                in_error(&f, f.lineno, 0, "not FASTA ('>') or FASTQ ('@')");
                rc = EXIT_FAIL;
                break;
            }
            fmt = s[0];
        }
        if (fmt == '>' && n > 0 && s[0] == '>') {
            if (have) rc = align_one(h, g, p, name.s + 1, name.l - 1, seq.s ? seq.s : "", seq.l, &f, hdr);
            name.l = seq.l = 0;
            kputsn(s, n, &name);
            hdr = f.lineno;
            have = 1;
        } else if (fmt == '>') {
            kputsn(s, n, &seq);
        } else {
            if (n == 0 && !have) continue;
            if (s[0] != '@') {
                in_error(&f, f.lineno, 0, "FASTQ: expected a header ('@')");
                rc = EXIT_FAIL;
                break;
            }
            name.l = seq.l = 0;
            kputsn(s, n, &name);
            hdr = f.lineno;
            if (in_getline(&f) <= 0) goto truncated;
            kputsn(f.line.s, f.line.l, &seq);
            if (in_getline(&f) <= 0 || f.line.s[0] != '+') goto truncated;
            if (in_getline(&f) <= 0) goto truncated;
            rc = align_one(h, g, p, name.s + 1, name.l - 1, seq.s, seq.l, &f, hdr);
            continue;
        truncated:
            in_error(&f, hdr, 0, "FASTQ record cut short (header, sequence, '+', qualities)");
            rc = EXIT_FAIL;
        }
    }
    if (rc == 0 && r < 0) rc = EXIT_FAIL;
    if (rc == 0 && fmt == '>' && have) rc = align_one(h, g, p, name.s + 1, name.l - 1, seq.s ? seq.s : "", seq.l, &f, hdr);
    free(name.s);
    free(seq.s);
    in_close(&f);
    return rc;
}

int cmd_graph_align(int argc, char **argv)
{
    static const struct option longopts[] = {
        POA_SCORE_LONGOPTS,
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 1003},
        {NULL, 0, NULL, 0},
    };
    int64_t p[POA_N_SCORES]; /* m n g e q c algorithm (poa_scores.h) */
    int opt, rc = 0;
    gfa g;
    in_file gf;
    gale_poa_graph *h = NULL;
    gale_graph gg;
    size_t bad = SIZE_MAX;
    gale_status st;

    memset(&g, 0, sizeof g);
    poa_scores_init(p);
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, POA_SCORE_OPTSTRING "h", longopts, NULL)) != -1) {
        const int sc = poa_score_option("graph-align", opt, optarg, p);
        if (sc < 0) return EXIT_USAGE;
        if (sc > 0) continue;
        switch (opt) {
        case 'h':
            usage_graph_align(stdout);
            return stdout_status();
        case 1003:
            print_version();
            return stdout_status();
        default:
            return usage_error("graph-align", "unknown option or missing value: %s", argv[optind - 1]);
        }
    }
    if (argc - optind < 2) return usage_error("graph-align", "expected GRAPH.gfa and at least one READS file");
    if ((rc = read_gfa(argv[optind], &g, &gf))) {
        gfa_free(&g);
        return rc;
    }
    gale_graph_init(&gg);
    gg.n_nodes = g.n;
    gg.node_seqs = (const char *const *)g.seqs;
    gg.node_lens = g.lens;
    gg.n_edges = g.n_links;
    gg.edges = g.edges;
    st = gale_poa_graph_create(&gg, &h, &bad);
    if (st != GALE_OK) {
        if (bad != SIZE_MAX)
            in_error(&gf, g.link_lines[bad], 0, "link %s -> %s closes a cycle: the graph must be a DAG",
                     g.names[g.edges[2 * bad]], g.names[g.edges[2 * bad + 1]]);
        else
            gale_msg("reading the graph", st);
        gfa_free(&g);
        return EXIT_FAIL;
    }
    for (optind++; optind < argc && rc == 0; optind++) rc = align_file(argv[optind], h, &g, p);
    gale_poa_graph_free(h);
    gfa_free(&g);
    if (rc == 0) rc = stdout_status();
    return rc;
}
