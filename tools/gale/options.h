/*
 * gale CLI: what every subcommand shares before and around its own work -
 * messages and exit statuses, the common options (--backend, --threads,
 * --device, --batch-size, -o, -q, -h, --version) and what they set up: the
 * context, the batches' parameters and the progress bar.
 */
#ifndef GALE_CLI_OPTIONS_H
#define GALE_CLI_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "gale.h"

/* A macro's value as a string literal (help texts name the library's limits). */
#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)

#define EXIT_OK    0
#define EXIT_FAIL  1
#define EXIT_USAGE 2

#if defined(__GNUC__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

/* The program's name in every message. */
extern const char *const prog;

/* "gale: MESSAGE" on stderr. */
void msg(const char *fmt, ...) CLI_PRINTF(1, 2);
/* How many messages this process has printed (ranks_exit_status). */
int msg_count(void);
/* A failed gale call: "gale: WHAT: STATUS (DETAIL)". */
void gale_msg(const char *what, gale_status st);
/* A usage error of command cmd: the message, then where to read more
 * (printed by MPI rank 0 alone: every rank reads the same command line).
 * Returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) CLI_PRINTF(2, 3);
/* "invalid value 'VAL' for OPT: WHY" as a usage error of cmd. */
int bad_value(const char *cmd, const char *opt, const char *val, const char *why);
/* The library names a task of a batch "task N: ..."; the CLI knows better
 * (line, record): the message without that prefix. */
const char *strip_task_prefix(const char *e);

/* The one number parser of the CLI, for options and input fields alike, so
 * that both accept and refuse the same text: s[0..n) must be a decimal
 * integer in [lo, hi] - a '-' sign where lo < 0, then digits, and nothing
 * else (no '+', no blanks before or after, no other character). Returns
 * NUM_OK with *out set, NUM_NOT_INTEGER or NUM_OUT_OF_RANGE. */
enum { NUM_OK = 0, NUM_NOT_INTEGER = -1, NUM_OUT_OF_RANGE = -2 };
int parse_number(const char *s, size_t n, int64_t lo, int64_t hi, int64_t *out);
/* Why parse_number refused s[0..n) with result r, for a message: "expected an
 * integer in [1, 4096]", "expected a non-negative integer (no '+' sign)", ...
 * Written to buf[0..cap); returns buf. */
const char *number_problem(int r, const char *s, size_t n, int64_t lo, int64_t hi, char *buf, size_t cap);
/* An option's value through parse_number: 0 with *out set, or the usage error
 * (exit status) after "invalid value 'VAL' for OPT: why" for command cmd. */
int option_number(const char *cmd, const char *opt, const char *val, int64_t lo, int64_t hi, int64_t *out);
/* Seconds on a monotonic clock. */
double now_s(void);

/* A larger array for a full one (NULL when out of memory, p and *cap
 * unchanged): twice *cap elements of size bytes, first when there were none. */
void *grow_array(void *p, size_t *cap, size_t size, size_t first);

/* --version: gale, libgale (backends, devices), htslib and MPI. */
void print_version(void);
/* Flushes stdout after a help or version text: EXIT_OK or EXIT_FAIL. */
int stdout_status(void);


/* The most devices one --device list names. */
#define CLI_MAX_DEVICES 64

/* The options every command has. */
typedef struct common_opts {
    int backend;
    int64_t threads, device, batch_size;
    uint64_t device_memory; /* --device-memory in bytes; 0 = the library's default */
    int device_set;     /* --device was given (else each MPI rank picks one: start_context) */
    /* --device with a list or `all`: every listed device in one context (the library splits
     * each batch across them); n_devices 0 for a single --device N, GALE_DEVICES_ALL for all */
    int n_devices;
    int devices[CLI_MAX_DEVICES];
    int quiet;
    const char *output; /* NULL = stdout */
} common_opts;

/* getopt codes of the common long options; each command numbers its own from
 * a base of its own above these. */
enum {
    OPT_BACKEND = 256,
    OPT_THREADS,
    OPT_DEVICE,
    OPT_BATCH,
    OPT_VERSION,
    OPT_DEVICE_MEMORY
};

#define COMMON_LONGOPTS \
        {"backend",     required_argument, NULL, OPT_BACKEND}, \
        {"threads",     required_argument, NULL, OPT_THREADS}, \
        {"device",      required_argument, NULL, OPT_DEVICE}, \
        {"device-memory", required_argument, NULL, OPT_DEVICE_MEMORY}, \
        {"batch-size",  required_argument, NULL, OPT_BATCH}, \
        {"output",      required_argument, NULL, 'o'}, \
        {"quiet",       no_argument,       NULL, 'q'}, \
        {"help",        no_argument,       NULL, 'h'}, \
        {"version",     no_argument,       NULL, OPT_VERSION}

void common_opts_init(common_opts *o, int64_t batch_size);
/* --device N, N,M,... (at most CLI_MAX_DEVICES) or all into o: -1 to go on, else the
 * exit status of the usage error it printed (gale lastz parses its own options). */
int device_option(const char *cmd, const char *arg, common_opts *o);

/* The help of the common options, their names padded to width: --backend,
 * --threads, --device and --device-memory; then -o, -q, -h, --version and the exit statuses. */
void usage_backend_opts(FILE *out, int width);
void usage_output_opts(FILE *out, int width);

#define OPTS_END  (-1)
#define OPTS_EXIT (-3)

struct option;

/* Starts reading a command's options (getopt_long's state). */
void opts_begin(void);
/* getopt_long over argv for command cmd, handling the common options (into
 * com) and getopt's errors on the way. Returns the next option that is the
 * command's own; OPTS_END after the last option; OPTS_EXIT with *status the
 * exit status once --help or --version was printed or after a usage error. */
int next_opt(int argc, char **argv, const char *shortopts, const struct option *longopts, const char *cmd,
             void (*usage)(FILE *), common_opts *com, int *status);

/* Creates the context the common options of command cmd ask for. --device
 * must name devices that exist when the CUDA backend runs (--backend cuda,
 * or auto with a device present; the CPU backend has no device); without
 * it, device 0, or under MPI the node-local rank modulo the devices; a list or
 * `all` gives every rank those devices. On failure
 * prints a message and returns EXIT_USAGE (a device that does not exist, or
 * a value the library refuses; with the pointer to cmd's help) or EXIT_FAIL
 * (e.g. --backend cuda without a usable GPU). */
int start_context(const char *cmd, const common_opts *o, gale_ctx **ctx);
/* A batch parameter and the option that gave it (for messages). */
typedef struct param_value {
    int id;
    int64_t v;
    const char *name;
} param_value;

/* Sets p[0..n) on b; on failure prints a message and returns the exit status
 * (2, with a hint to cmd's help, for a value out of the library's bounds). */
int set_param_values(gale_batch *b, const param_value *p, int n, const char *cmd);

/* What every command shows on stderr while it runs and when it is done:
 * the progress bar (only when stderr is a terminal and -q was not given) and
 * the closing summary (unless -q). One code for every command, so that all
 * look and behave the same. */
typedef struct progress {
    int enabled;   /* the bar is drawn */
    int quiet;     /* -q: no bar, no summary */
    int shown;
    double start;  /* the run's start: the summary's wall time */
    double last;
} progress;

void progress_init(progress *p, int quiet);
/* Draws, when due (after half a second, at most ten times a second),
 * "gale: [######........]  42%  TEXT  3.1 s" over the previous line; without
 * the bar and the percentage when frac is negative (not known). */
void progress_bar(progress *p, double frac, const char *fmt, ...) CLI_PRINTF(3, 4);
/* Removes the bar (before a message, and at the end). */
void progress_clear(progress *p);
/* How long to wait for a batch before redrawing (gale_poll): 100 ms while a
 * bar is drawn, else -1 (until it is done). */
int progress_poll_ms(const progress *p);

/* What a run did, for the summary. */
typedef struct run_totals {
    uint64_t pairs;
    uint64_t cells;    /* DP (or wavefront) cells, gale_stats.cells */
    uint64_t rescued;  /* pairs a GPU context computed on the CPU, gale_stats.rescued */
    uint64_t kernel_ns; /* GPU kernel time, gale_stats.kernel_ns (this rank's: the summary says so) */
    /* with several devices: each one's kernel time (gale_batch_device_stats), in the
     * context's device order, to show how evenly the batches were split */
    uint64_t device_kernel_ns[CLI_MAX_DEVICES];
} run_totals;

/* Adds the statistics of finished batch b (gale_batch_stats) to t. */
void run_totals_add(run_totals *t, const gale_batch *b);
/* Unless -q, the one-line summary of a successful run of command cmd on
 * stderr: "gale: CMD: N pairs in T s, backend cpu (K threads), R rescued,
 * C KIND cells" (for CUDA "backend cuda (device D)"); kind names the cells
 * (e.g. "DP"). */
void print_summary(const progress *p, const char *cmd, gale_ctx *ctx, const run_totals *t, const char *kind);

#endif
