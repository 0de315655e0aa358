/* SPOA's scoring options (poa_scores.h). */
#include "poa_scores.h"

#include <string.h>

#include "options.h"

void poa_scores_init(int64_t *p)
{
    static const int64_t spoa_defaults[POA_N_SCORES] = {5, -4, -8, -6, -10, -4, 0};
    memcpy(p, spoa_defaults, sizeof spoa_defaults);
}

int poa_score_option(const char *cmd, int opt, const char *arg, int64_t *p)
{
    static const char letters[] = "mngeqc";
    const char *at = opt > 0 && opt < 128 ? strchr(letters, opt) : NULL;
    if (opt == 'l')
        return option_number(cmd, "-l", arg, 0, 2, &p[POA_ALGORITHM]) ? -1 : 1;
    if (!at || !*at)
        return 0;
    {
        const char flag[3] = {'-', (char)opt, 0};
        const int k = (int)(at - letters);
        int64_t v;
        if (option_number(cmd, flag, arg, -128, k < 2 ? 127 : 0, &v)) return -1;
        p[k] = v;
    }
    return 1;
}

void usage_poa_scores(FILE *out, const char *more)
{
    fprintf(out,
        "  -m N                 score for matching bases (default 5)\n"
        "  -n N                 score for mismatching bases (default -4)\n"
        "  -g N                 gap opening penalty, <= 0 (default -8)\n"
        "  -e N                 gap extension penalty, <= 0 (default -6)\n"
        "  -q N                 gap opening penalty of the second affine function, <= 0\n"
        "                       (default -10)\n"
        "  -c N                 gap extension penalty of the second affine function, <= 0\n"
        "                       (default -4)\n"
        "  -l, --algorithm N    0 local (default), 1 global, 2 semi-global\n"
        "%s"
        "  gap mode: linear if g >= e, affine if g <= q or e >= c, else convex (default)\n",
        more);
}
