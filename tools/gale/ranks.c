/*
 * gale CLI: MPI ranks (ranks.h). The only file of the CLI that calls MPI;
 * without GALE_HAVE_MPI it is one rank of one.
 *
 * MPI's own failures (a lost peer, a broken connection) keep MPI's default
 * handler, MPI_ERRORS_ARE_FATAL: the job is aborted, every rank with it, and
 * none is left waiting (-o FILE's temporary goes with SIGTERM's handler,
 * output.c). gale's own failures - a bad record, a batch that fails, a
 * write error - are agreed on (ranks_agree, the stream's rounds): every rank
 * stops cleanly, the job with exit status 1 (the rank that failed exits 1;
 * ranks_exit_status says why the others may exit 0).
 */
#define _POSIX_C_SOURCE 200809L

#include "ranks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GALE_HAVE_MPI
#include <mpi.h>
#endif

static int me = 0, n = 1, local = 0;

/* The ranks mpirun says this process is one of: 0 when no launcher
 * started it (Open MPI's mpirun, and the PMI/PMIx launchers, set these). */
static long launched_size(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"};
    size_t i;
    for (i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return strtol(v, NULL, 10);
    }
    return getenv("PMIX_RANK") ? 1 : 0;
}

#ifdef GALE_HAVE_MPI

static int started; /* ranks_init started MPI */

int ranks_init(int *argc, char ***argv)
{
    int provided = 0;
    MPI_Comm node;
    if (launched_size() == 0)
        return 0; /* a plain run: no MPI at all */
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        msg("cannot start MPI");
        return EXIT_FAIL;
    }
    started = 1;
    /* FUNNELED: only the main thread calls MPI (the reader thread and the
     * library's threads never do). Every MPI provides at least that in
     * practice; refuse rather than risk it where one does not. */
    if (provided < MPI_THREAD_FUNNELED) {
        msg("MPI provides no MPI_THREAD_FUNNELED, which gale needs (its reader thread runs beside MPI)");
        return EXIT_FAIL;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &local);
        MPI_Comm_free(&node);
    }
    if (me > 0 && !freopen("/dev/null", "w", stdout)) {
        msg("rank %d: cannot send standard output to /dev/null", me);
        return EXIT_FAIL;
    }
    return 0;
}

void ranks_finalize(void)
{
    if (started)
        MPI_Finalize();
    started = 0;
}

int ranks_exit_status(int rc)
{
    /* [0]: this rank failed and said so; [1]: this rank failed */
    int mine[2], all[2] = {0, 0};
    mine[0] = rc != 0 && msg_count() > 0;
    mine[1] = rc != 0;
    if (!started || n == 1)
        return rc;
    if (MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
        return rc;
    if (all[0] && !mine[0])
        return 0; /* another rank failed and says why: it alone exits non-zero (ranks.h) */
    return rc;
}

const char *ranks_library(void)
{
    static char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(v, &len);
    /* "Open MPI v4.1.4, package: ...": the name and version */
    v[strcspn(v, ",\n")] = '\0';
    return v;
}

int ranks_agree(int rc)
{
    int worst = rc;
    if (n > 1)
        MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

int ranks_allgather(const uint64_t mine[], int k, uint64_t all[])
{
    if (n == 1) {
        memcpy(all, mine, (size_t)k * sizeof *all);
        return 0;
    }
    return MPI_Allgather(mine, k, MPI_UINT64_T, all, k, MPI_UINT64_T, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

/* Results go to rank 0 in pieces of 1 MiB (MPI counts are ints, and rank 0
 * receives into one buffer of that size); MPI keeps the messages of one
 * sender with one tag in order. */
#define PIECE ((size_t)1 << 20)
#define TAG_RESULTS 1

int ranks_send0(const void *buf, size_t len)
{
    const char *p = buf;
    size_t off = 0;
    do {
        size_t m = len - off < PIECE ? len - off : PIECE;
        if (MPI_Send(p + off, (int)m, MPI_BYTE, 0, TAG_RESULTS, MPI_COMM_WORLD) != MPI_SUCCESS)
            return -1;
        off += m;
    } while (off < len);
    return 0;
}

int ranks_recv_write(int from, size_t len, FILE *out)
{
    static char piece[PIECE];
    size_t off = 0;
    int rc = 0;
    do {
        size_t m = len - off < PIECE ? len - off : PIECE;
        if (MPI_Recv(piece, (int)m, MPI_BYTE, from, TAG_RESULTS, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return -1;
        if (out && rc == 0 && fwrite(piece, 1, m, out) != m)
            rc = -1;
        off += m;
    } while (off < len);
    return rc;
}

int ranks_totals(int rc, run_totals *t)
{
    uint64_t mine[2], sum[2];
    if (n == 1)
        return rc;
    rc = ranks_agree(rc);
    mine[0] = t->cells;
    mine[1] = t->rescued;
    MPI_Reduce(mine, sum, 2, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0) {
        t->cells = sum[0];
        t->rescued = sum[1];
    }
    return rc;
}

#else /* no MPI: one rank of one */

int ranks_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* mpirun -np N with a gale built without MPI: each of the N would read
     * the whole input and write the whole output */
    if (launched_size() > 1) {
        msg("this gale was built without MPI (meson option -Dmpi, needs Open MPI): it cannot run as one of "
            "%ld ranks", launched_size());
        return EXIT_FAIL;
    }
    return 0;
}

void ranks_finalize(void)
{
}

int ranks_exit_status(int rc)
{
    return rc;
}

const char *ranks_library(void)
{
    return NULL;
}

int ranks_agree(int rc)
{
    return rc;
}

int ranks_allgather(const uint64_t mine[], int k, uint64_t all[])
{
    memcpy(all, mine, (size_t)k * sizeof *all);
    return 0;
}

int ranks_send0(const void *buf, size_t len)
{
    (void)buf;
    (void)len;
    return -1;
}

int ranks_recv_write(int from, size_t len, FILE *out)
{
    (void)from;
    (void)len;
    (void)out;
    return -1;
}

int ranks_totals(int rc, run_totals *t)
{
    (void)t;
    return rc;
}

#endif

int ranks_me(void)
{
    return me;
}

int ranks_n(void)
{
    return n;
}

int ranks_local(void)
{
    return local;
}
