/*
 * gale - command-line front end of the gale library.
 *
 *   gale xdrop [options] FILE
 *   gale wfa [options] PATTERNS TEXTS | PAIRS.seq
 *   gale lastz TARGET QUERY [--segments=FILE] [options]
 *   gale poa [options] FILE...
 *   gale graph-align [options] GRAPH.gfa READS...
 *   gale compare [options] A.fa B.fa
 *
 * main dispatches to the subcommands (subcommands.h: xdrop.c, wfa.c, zdrop.c); they
 * share the common options (options.c), one input module (input.c: LOGAN TSV,
 * FASTA/FASTQ, .seq over htslib's BGZF streams) and the writers (output.c).
 * Under mpirun, the ranks split the input and rank 0 writes (ranks.c).
 * See doc/cli.md. Only the public API (gale.h), htslib and MPI are used.
 */
#include <stdio.h>
#include <string.h>

#include <htslib/hts_log.h>

#include "options.h"
#include "ranks.h"
#include "subcommands.h"

static void usage_main(FILE *out)
{
    fprintf(out,
        "Usage: gale <command> [options]\n"
        "\n"
        "Commands:\n"
        "  xdrop    gapped X-drop seed extension (SeqAn 2.4 semantics) of pairs in\n"
        "           LOGAN's demo format\n"
        "  wfa      wavefront alignment (gap-affine, two-piece or edit distance; WFA2-lib\n"
        "           scores) of pairs from FASTA/FASTQ files or a .seq file\n"
        "  lastz    LASTZ 1.04.22: its gapped extension from anchors (lastz --segments),\n"
        "           or its seeding and all its stages, with lastz's output\n"
        "  zdrop    ksw2's Z-drop extension (minimap2 2.24, bit for bit) of pairs from\n"
        "           FASTA/FASTQ files or a query<TAB>target file\n"
        "  poa      partial-order alignment of windows of sequences (SPOA 4.0.8's\n"
        "           consensus, MSA and GFA; the options and output of spoa)\n"
        "  graph-align  reads aligned to a GFA graph (a DAG) with SPOA 4.0.8's engine,\n"
        "           written as GAF\n"
        "  compare  whole-genome comparison, GPUGECKO-style: every ungapped fragment of\n"
        "           two genomes on both strands (PAF, lastz segments or general)\n"
        "\n"
        "Options:\n"
        "  -h, --help     show this help\n"
        "  --version      show the versions of gale, libgale and htslib\n"
        "\n"
        "'gale xdrop --help', 'gale wfa --help' and 'gale zdrop --help' describe the\n"
        "options of each command. Manual: doc/cli.md.\n");
}

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    void (*usage)(FILE *out);
} commands[] = {
    {"xdrop", cmd_xdrop, usage_xdrop},
    {"wfa", cmd_wfa, usage_wfa},
    {"lastz", cmd_lastz, usage_lastz},
    {"zdrop", cmd_zdrop, usage_zdrop},
    {"poa", cmd_poa, usage_poa},
    {"graph-align", cmd_graph_align, usage_graph_align},
    {"compare", cmd_compare, usage_compare},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* The index of the command called name, or -1. */
static int find_command(const char *name)
{
    size_t i;
    for (i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return (int)i;
    return -1;
}

static int run_command(int argc, char **argv)
{
    int c;
    /* usage errors: said by rank 0 alone under MPI (as usage_error) */
    if (argc < 2) {
        if (ranks_me() == 0) {
            msg("missing command");
            usage_main(stderr);
        }
        return EXIT_USAGE;
    }
    c = find_command(argv[1]);
    if (c >= 0)
        return commands[c].run(argc - 1, argv + 1);
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        /* "gale help COMMAND": that command's help */
        c = argc > 2 && strcmp(argv[1], "help") == 0 ? find_command(argv[2]) : -1;
        if (c >= 0)
            commands[c].usage(stdout);
        else
            usage_main(stdout);
        return stdout_status();
    }
    if (strcmp(argv[1], "--version") == 0) {
        print_version();
        return stdout_status();
    }
    if (ranks_me() == 0) {
        msg("unknown command '%s'", argv[1]);
        usage_main(stderr);
    }
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    int rc;
    /* htslib's own "[E::...]" lines would come before (or instead of) the
     * message that names the file and the line: the input module reports
     * every failure itself */
    hts_set_log_level(HTS_LOG_OFF);
    /* under mpirun, one of several ranks (ranks.h); else nothing changes */
    rc = ranks_init(&argc, &argv);
    if (rc == 0)
        rc = ranks_exit_status(run_command(argc, argv));
    ranks_finalize();
    return rc;
}
