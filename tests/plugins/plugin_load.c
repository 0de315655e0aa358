/*
 * plugin_load.c - gale_plugin_open and friends (gale_plugin.h).
 *
 *   plugin_load BELLA_DIR MODULE_DIR PLUGINDIR
 *
 * BELLA_DIR: the build directory of gale-bella.so; MODULE_DIR: where the test
 * modules of tests/plugins are built (gale-dummy.so, gale-newabi.so, ...);
 * PLUGINDIR: the installed plugin directory the build compiled in.
 *
 * Checks: found through GALE_PLUGIN_PATH (order, empty entries, first found
 * wins even when refused); the installed directory when GALE_PLUGIN_PATH is
 * unset (gale_plugin_dir() is the configured one; when gale-bella.so is
 * installed there it is the one loaded, else the failure names that directory
 * - tools/test.sh checks the installed case for real on a prefix install); a
 * missing plugin; a newer ABI refused (GALE_E_ABI); modules that
 * are not gale plugins refused (no entry symbol, NULL info, info too small,
 * NULL api, wrong name, not ELF at all: GALE_E_INVALID); bad names; open by
 * path; info and path of a loaded plugin; handles (close twice, NULL);
 * RTLD_LOCAL (the plugin's symbols are not in the global scope); unloading
 * (after calls to the bella plugin from main and from a thread that is still
 * alive, gale_plugin_close of the last handle really unloads the module:
 * dlopen(RTLD_NOLOAD) finds nothing).
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gale.h"
#include "gale_bella.h"
#include "gale_plugin.h"
#include "testutil.h"

static const char *bella_dir, *module_dir, *plugindir;
static char tmpdir[256];

typedef struct test_api {
    size_t size;
    int (*answer)(void);
} test_api;

static void set_path(const char *p)
{
    if (p)
        setenv("GALE_PLUGIN_PATH", p, 1);
    else
        unsetenv("GALE_PLUGIN_PATH");
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = (char *)malloc(n);
    REQUIRE(s != NULL);
    snprintf(s, n, "%s/%s", a, b);
    return s;
}

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out;
    char buf[65536];
    size_t k;
    REQUIRE(in != NULL);
    out = fopen(to, "wb");
    REQUIRE(out != NULL);
    while ((k = fread(buf, 1, sizeof buf, in)) > 0) REQUIRE(fwrite(buf, 1, k, out) == k);
    fclose(in);
    REQUIRE(fclose(out) == 0);
}

/* Opens name; expects status want; when want != OK, the message must contain
 * each of the needles (NULL-terminated list). Closes what was opened. */
static void expect_open(const char *name, gale_status want, const char *needle1, const char *needle2)
{
    gale_plugin *p = (gale_plugin *)0x1;
    gale_status st = gale_plugin_open(name, &p);
    tu_count_check();
    if (st != want) {
        tu_fail_at(__FILE__, __LINE__, "gale_plugin_open(%s) with GALE_PLUGIN_PATH=%s: got %d (%s), expected %d (%s); %s",
                   name ? name : "NULL", getenv("GALE_PLUGIN_PATH") ? getenv("GALE_PLUGIN_PATH") : "(unset)", st,
                   gale_status_string(st), want, gale_status_string(want), gale_last_error());
    } else if (want != GALE_OK) {
        const char *msg = gale_last_error();
        CHECK_MSG(p == NULL, "gale_plugin_open(%s) failed but left *out set", name ? name : "NULL");
        CHECK_MSG(!needle1 || strstr(msg, needle1), "gale_plugin_open(%s): message '%s' lacks '%s'",
                  name ? name : "NULL", msg, needle1);
        CHECK_MSG(!needle2 || strstr(msg, needle2), "gale_plugin_open(%s): message '%s' lacks '%s'",
                  name ? name : "NULL", msg, needle2);
        printf("  %-28s -> %s: %s\n", name ? name : "NULL", gale_status_string(st), msg);
    }
    if (st == GALE_OK) REQUIRE_OK(gale_plugin_close(p));
}

/* Opens name, expects success from the given directory. Returns the handle. */
static gale_plugin *expect_loaded_from(const char *name, const char *dir)
{
    gale_plugin *p = NULL;
    const char *path = NULL;
    char want[1024];
    gale_status st = gale_plugin_open(name, &p);
    tu_count_check();
    if (st != GALE_OK) {
        tu_fail_at(__FILE__, __LINE__, "gale_plugin_open(%s) with GALE_PLUGIN_PATH=%s: %s: %s", name,
                   getenv("GALE_PLUGIN_PATH") ? getenv("GALE_PLUGIN_PATH") : "(unset)", gale_status_string(st),
                   gale_last_error());
        return NULL;
    }
    REQUIRE_OK(gale_plugin_get_path(p, &path));
    snprintf(want, sizeof want, "%s/gale-%s.so", dir, name);
    CHECK_MSG(strcmp(path, want) == 0, "%s loaded from %s, expected %s", name, path, want);
    return p;
}

static void test_path_search(void)
{
    gale_plugin *p;
    const gale_plugin_info *info = NULL;
    char path[2048];
    char *copy;

    /* the bella plugin through GALE_PLUGIN_PATH, after a missing directory and empty entries */
    snprintf(path, sizeof path, "::/nonexistent/gale-dir::%s:", bella_dir);
    set_path(path);
    p = expect_loaded_from("bella", bella_dir);
    if (p) {
        REQUIRE_OK(gale_plugin_get_info(p, &info));
        CHECK_EQ_I64(info->abi, GALE_PLUGIN_ABI);
        CHECK(info->size >= sizeof(gale_plugin_info));
        CHECK(strcmp(info->name, "bella") == 0);
        CHECK_MSG(strcmp(info->version, gale_version_string()) == 0, "bella's version %s, libgale's %s",
                  info->version, gale_version_string());
        CHECK(info->description && strlen(info->description) > 10 && !strchr(info->description, '\n'));
        CHECK(info->api != NULL);
        CHECK(*(const size_t *)info->api >= 2 * sizeof(void *)); /* the table begins with its size */
        printf("  bella: ABI %u, version %s: %s\n", (unsigned)info->abi, info->version, info->description);
        /* RTLD_LOCAL: the plugin's functions are not in the global scope */
        CHECK_MSG(dlsym(RTLD_DEFAULT, "gale_bella_extend") == NULL, "gale_bella_extend is visible globally");
        CHECK_MSG(dlsym(RTLD_DEFAULT, "gale_plugin_entry") == NULL, "gale_plugin_entry is visible globally");
        REQUIRE_OK(gale_plugin_close(p));
    }

    /* order: the first directory that has the module wins */
    copy = join(tmpdir, "gale-dummy.so");
    {
        char *src = join(module_dir, "gale-dummy.so");
        copy_file(src, copy);
        free(src);
    }
    snprintf(path, sizeof path, "%s:%s", tmpdir, module_dir);
    set_path(path);
    p = expect_loaded_from("dummy", tmpdir);
    if (p) {
        const test_api *api;
        REQUIRE_OK(gale_plugin_get_info(p, &info));
        api = (const test_api *)info->api;
        CHECK_EQ_I64(api->answer(), 4242);
        REQUIRE_OK(gale_plugin_close(p));
    }
    snprintf(path, sizeof path, "%s:%s", module_dir, tmpdir);
    set_path(path);
    p = expect_loaded_from("dummy", module_dir);
    if (p) REQUIRE_OK(gale_plugin_close(p));
    unlink(copy);
    free(copy);

    /* the first module found is used even when refused: no fall-back to a later copy */
    copy = join(tmpdir, "gale-bella.so");
    {
        char *src = join(module_dir, "gale-newabi.so");
        copy_file(src, copy);
        free(src);
    }
    snprintf(path, sizeof path, "%s:%s", tmpdir, bella_dir);
    set_path(path);
    expect_open("bella", GALE_E_ABI, "ABI", tmpdir);
    unlink(copy);
    free(copy);

    /* two handles on one module; each closes on its own */
    set_path(bella_dir);
    {
        gale_plugin *a = NULL, *b = NULL;
        const gale_plugin_info *ia = NULL, *ib = NULL;
        REQUIRE_OK(gale_plugin_open("bella", &a));
        REQUIRE_OK(gale_plugin_open("bella", &b));
        CHECK(a != b);
        REQUIRE_OK(gale_plugin_get_info(a, &ia));
        REQUIRE_OK(gale_plugin_close(a));
        REQUIRE_OK(gale_plugin_get_info(b, &ib));
        CHECK(ia == ib); /* still loaded: b holds it */
        CHECK(strcmp(ib->name, "bella") == 0);
        REQUIRE_OK(gale_plugin_close(b));
        CHECK_ST(gale_plugin_close(b), GALE_E_HANDLE);
        CHECK_ST(gale_plugin_get_info(b, &ib), GALE_E_HANDLE);
    }
}

static void test_installed_dir(void)
{
    char *installed = join(plugindir, "gale-bella.so");
    set_path(NULL);
    CHECK_MSG(strcmp(gale_plugin_dir(), plugindir) == 0, "gale_plugin_dir() is %s, the build configured %s",
              gale_plugin_dir(), plugindir);
    if (access(installed, F_OK) == 0) {
        gale_plugin *p = expect_loaded_from("bella", plugindir);
        printf("  installed plugin directory %s: gale-bella.so found there and loaded\n", plugindir);
        if (p) REQUIRE_OK(gale_plugin_close(p));
    } else {
        expect_open("bella", GALE_E_NOT_FOUND, plugindir, "installed plugin directory");
        printf("  installed plugin directory %s: not installed here; the failure names it (tools/test.sh loads "
               "from a real install)\n",
               plugindir);
    }
    /* an empty GALE_PLUGIN_PATH is the same as unset */
    set_path("");
    expect_open("nosuchplugin", GALE_E_NOT_FOUND, plugindir, "nosuchplugin");
    free(installed);
}

static void test_refusals(void)
{
    char path[2048], *garbage, *p;
    FILE *f;
    snprintf(path, sizeof path, "%s:%s", module_dir, bella_dir);
    set_path(path);

    expect_open("nosuchplugin", GALE_E_NOT_FOUND, "gale-nosuchplugin.so", module_dir);
    expect_open("newabi", GALE_E_ABI, "ABI 2", "newer");
    expect_open("notaplugin", GALE_E_INVALID, "not a gale plugin", "gale_plugin_entry");
    expect_open("nullinfo", GALE_E_INVALID, "not a gale plugin", "NULL");
    expect_open("tiny", GALE_E_INVALID, "not a gale plugin", "8 bytes");
    expect_open("nullapi", GALE_E_INVALID, "not a gale plugin", "api");
    expect_open("misnamed", GALE_E_INVALID, "calls itself 'other'", NULL);
    /* a file that is not a shared object at all */
    garbage = join(tmpdir, "gale-garbage.so");
    f = fopen(garbage, "w");
    REQUIRE(f != NULL);
    fputs("this is not an ELF file\n", f);
    fclose(f);
    set_path(tmpdir);
    expect_open("garbage", GALE_E_INVALID, "cannot load plugin module", garbage);
    unlink(garbage);
    free(garbage);

    /* names */
    expect_open(NULL, GALE_E_INVALID, "NULL", NULL);
    expect_open("", GALE_E_INVALID, "invalid plugin name", NULL);
    expect_open(".hidden", GALE_E_INVALID, "invalid plugin name", NULL);
    expect_open("a b", GALE_E_INVALID, "invalid plugin name", NULL);
    expect_open("a\\b", GALE_E_INVALID, "invalid plugin name", NULL);
    CHECK_ST(gale_plugin_open("bella", NULL), GALE_E_INVALID);

    /* by path: no search, the name check does not apply */
    set_path(NULL);
    p = join(module_dir, "gale-misnamed.so");
    expect_open(p, GALE_OK, NULL, NULL);
    free(p);
    p = join(bella_dir, "gale-bella.so");
    expect_open(p, GALE_OK, NULL, NULL);
    free(p);
    p = join(module_dir, "gale-newabi.so");
    expect_open(p, GALE_E_ABI, "ABI", NULL);
    free(p);
    expect_open("/nonexistent/gale-bella.so", GALE_E_NOT_FOUND, "/nonexistent/gale-bella.so", NULL);

    /* handles */
    CHECK_ST(gale_plugin_close(NULL), GALE_OK);
    CHECK_ST(gale_plugin_get_info(NULL, NULL), GALE_E_INVALID);
    {
        const gale_plugin_info *info;
        const char *s;
        CHECK_ST(gale_plugin_get_info(NULL, &info), GALE_E_HANDLE);
        CHECK_ST(gale_plugin_get_path(NULL, &s), GALE_E_HANDLE);
    }
}

/* A thread that calls the bella plugin (a success, then a failure) and stays alive
 * until main has closed the module. */
typedef struct bella_caller {
    const gale_bella_api *api;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stage; /* 1: calls made; 2: main is done */
    gale_status ok, bad;
    int32_t res;
} bella_caller;

static const char unload_read[] = "ACGTTGCAAGGCTTACCGATTGACCATGGTACAGTCAGTA"; /* 40 bases */

static gale_status bella_call(const gale_bella_api *api, int32_t begin_h, int32_t *res)
{
    const char *t[1];
    int64_t len[1];
    gale_bella_scoring sc = {1, -1, -1};
    gale_bella_seed s;
    t[0] = unload_read;
    len[0] = 40;
    s.begin_h = begin_h, s.end_h = begin_h + 17, s.begin_v = 10, s.end_v = 27;
    return api->extend(&s, GALE_DIR_BOTH, t, len, t, len, &sc, 1, 7, 17, res, 1, 0, 2);
}

static void *bella_caller_main(void *arg)
{
    bella_caller *c = (bella_caller *)arg;
    c->ok = bella_call(c->api, 10, &c->res);
    c->bad = bella_call(c->api, 30, &c->res); /* the seed runs past the read's end */
    pthread_mutex_lock(&c->mu);
    c->stage = 1;
    pthread_cond_broadcast(&c->cv);
    while (c->stage != 2) pthread_cond_wait(&c->cv, &c->mu);
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

static void test_unload(void)
{
    gale_plugin *p = NULL;
    const gale_plugin_info *info = NULL;
    const char *where = NULL;
    char path[2048];
    int32_t res = 0;
    bella_caller c;
    pthread_t tid;
    void *h;

    set_path(bella_dir);
    REQUIRE_OK(gale_plugin_open("bella", &p));
    REQUIRE_OK(gale_plugin_get_info(p, &info));
    REQUIRE_OK(gale_plugin_get_path(p, &where));
    snprintf(path, sizeof path, "%s", where);
    c.api = (const gale_bella_api *)info->api;
    /* main: a failing call (the message is kept in the plugin's thread-local storage) */
    CHECK_EQ_I64(bella_call(c.api, 30, &res), GALE_E_INPUT);
    CHECK_MSG(strstr(c.api->last_error(), "alignment 0") != NULL, "bella's message: %s", c.api->last_error());
    c.stage = 0;
    c.res = 0;
    pthread_mutex_init(&c.mu, NULL);
    pthread_cond_init(&c.cv, NULL);
    REQUIRE(pthread_create(&tid, NULL, bella_caller_main, &c) == 0);
    pthread_mutex_lock(&c.mu);
    while (c.stage != 1) pthread_cond_wait(&c.cv, &c.mu);
    pthread_mutex_unlock(&c.mu);
    CHECK_EQ_I64(c.ok, GALE_OK);
    CHECK_EQ_I64(c.res, 40);
    CHECK_EQ_I64(c.bad, GALE_E_INPUT);

    h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    CHECK_MSG(h != NULL, "RTLD_NOLOAD does not find the loaded %s", path);
    if (h) dlclose(h);
    REQUIRE_OK(gale_plugin_close(p));
    h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    CHECK_MSG(h == NULL, "%s is still loaded after gale_plugin_close of its last handle", path);
    if (h) dlclose(h);
    else printf("  %s: unloaded by gale_plugin_close (RTLD_NOLOAD finds nothing), a caller thread still alive\n",
                path);

    pthread_mutex_lock(&c.mu);
    c.stage = 2;
    pthread_cond_broadcast(&c.cv);
    pthread_mutex_unlock(&c.mu);
    pthread_join(tid, NULL);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s BELLA_DIR MODULE_DIR PLUGINDIR\n", argv[0]);
        return 2;
    }
    bella_dir = argv[1];
    module_dir = argv[2];
    plugindir = argv[3];
    snprintf(tmpdir, sizeof tmpdir, "%s/gale-plugin-test.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    REQUIRE(mkdtemp(tmpdir) != NULL);

    printf("GALE_PLUGIN_PATH search:\n");
    test_path_search();
    printf("installed plugin directory:\n");
    test_installed_dir();
    printf("refusals:\n");
    test_refusals();
    printf("unloading:\n");
    test_unload();

    rmdir(tmpdir);
    return tu_finish("plugin_load");
}
