// bella_check PLUGINDIR: a LOGAN-style caller, built with `pkg-config --cflags --libs gale`
// only, opens the bella plugin with gale_plugin_open (GALE_PLUGIN_PATH unset: the
// installed plugin directory, which must be PLUGINDIR, gale.pc's plugindir) and makes
// one BELLA-style call. Used by tools/test.sh (a prefix install) and tools/deb-test.sh
// (the Debian packages).
#include <gale_bella.hpp>
#include <cstdio>
#include <cstring>
int main(int, char **argv) {
    gale_plugin *p = nullptr;
    const char *path = nullptr;
    if (gale_plugin_open("bella", &p) != GALE_OK || gale_plugin_get_path(p, &path) != GALE_OK) {
        std::printf("gale_plugin_open: %s\n", gale_last_error());
        return 1;
    }
    std::string want = std::string(argv[1]) + "/gale-bella.so";
    std::printf("bella plugin loaded from %s (gale_plugin_dir %s)\n", path, gale_plugin_dir());
    if (want != path || std::strcmp(gale_plugin_dir(), argv[1]) != 0) return 1;
    gale_plugin_close(p);
    // One BELLA-style call: identical 40-base reads, k-mer at 10: 10 + 13 + 17 = 40.
    std::string a = "ACGTTGCAAGGCTTACCGATTGACCATGGTACAGTCAGTA";
    std::vector<SeedL> seeds(1, SeedL(10, 10, 27, 27));
    std::vector<std::string> t(1, a), q(1, a);
    std::vector<ScoringSchemeL> sc(1, ScoringSchemeL(1, -1, -1, -1));
    int res = 0;
    extendSeedL(seeds, EXTEND_BOTHL, t, q, sc, 7, 17, &res, 1, 1);
    std::printf("extendSeedL: res %d, seed H [%d, %d)\n", res, getBeginPositionH(seeds[0]), getEndPositionH(seeds[0]));
    return res == 40 && getBeginPositionH(seeds[0]) == 0 && getEndPositionV(seeds[0]) == 40 ? 0 : 1;
}
