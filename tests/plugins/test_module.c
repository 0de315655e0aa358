/*
 * test_module.c - modules that look like gale plugins, for plugin_load.c. One
 * source, several modules (tests/plugins/meson.build sets the macros):
 *   TEST_NAME    info->name (default "dummy")
 *   TEST_ABI     info->abi (default GALE_PLUGIN_ABI; gale-newabi.so: one more)
 *   TEST_SIZE    info->size (default sizeof(gale_plugin_info))
 *   TEST_NULL_INFO  gale_plugin_entry returns NULL
 *   TEST_NULL_API   info->api is NULL
 * The function table is a single function returning a constant, so that the test
 * can call through it.
 */
#include "gale_plugin.h"

#ifndef TEST_NAME
#define TEST_NAME "dummy"
#endif
#ifndef TEST_ABI
#define TEST_ABI GALE_PLUGIN_ABI
#endif
#ifndef TEST_SIZE
#define TEST_SIZE sizeof(struct test_info)
#endif

typedef struct test_api {
    size_t size;
    int (*answer)(void);
} test_api;

static int answer(void) { return 4242; }

/* (unused in the NULL variants) */
__attribute__((unused)) static const test_api api = {sizeof(test_api), answer};

/* A newer ABI may append fields: the struct carries one more, as such a plugin would. */
struct test_info {
    gale_plugin_info base;
    uint64_t appended;
};

__attribute__((unused)) static const struct test_info info = {
    {TEST_ABI, (uint32_t)(TEST_SIZE), TEST_NAME, "9.9.9", "a test module",
#ifdef TEST_NULL_API
     0
#else
     &api
#endif
    },
    0x1234};

/* Not exported: the module is built with hidden visibility. */
int test_module_internal(void) { return 1; }

GALE_PLUGIN_EXPORT const gale_plugin_info *gale_plugin_entry(void)
{
#ifdef TEST_NULL_INFO
    return 0;
#else
    return &info.base;
#endif
}
