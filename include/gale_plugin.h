/*
 * gale_plugin.h - gale's plugin ABI and the loader in libgale.
 *
 * Plain C99; compiles as C and as C++. Needs gale.h (gale_status, GALE_API).
 *
 * What a plugin is
 * ----------------
 * A plugin is a shared module (a .so loaded with dlopen, not linked) named
 * gale-<name>.so that adapts gale to one kind of caller (plugins/bella: BELLA
 * and LOGAN users). It exports one symbol,
 *
 *     const gale_plugin_info *gale_plugin_entry(void);
 *
 * plus, where its own header documents them, functions a caller may link to
 * directly. Nothing else is exported. gale_plugin_entry returns a pointer to a
 * constant gale_plugin_info that lives as long as the module is loaded. The
 * struct begins with the plugin ABI version the plugin was built against and
 * the struct's size, so that later ABI versions can append fields; then come
 * the plugin's name, version string, a one-line description, and `api`, a
 * pointer to the caller-specific function table that the plugin's own header
 * declares (for "bella": gale_bella_api in gale_bella.h). Each table begins
 * with its own size field.
 *
 * Plugins call libgale through its public API only (they link libgale.so.0).
 *
 * Finding and loading a plugin (gale_plugin_open)
 * -----------------------------------------------
 * gale_plugin_open("bella", &p) looks for gale-bella.so in each directory of
 * the environment variable GALE_PLUGIN_PATH (colon-separated; empty entries
 * are skipped; read at every call; ignored in set-uid programs), then in the
 * installed plugin directory (gale_plugin_dir(); also `pkg-config
 * --variable=plugindir gale`). The first file that exists is the one loaded:
 * if it is refused, gale_plugin_open reports why and does not go on to look
 * for another copy. A name that contains '/' is taken as the path of the
 * module itself and is not searched for. A plain name may use only letters,
 * digits, '_', '-' and '.', and may not begin with '.'.
 *
 * The module is loaded with dlopen(RTLD_NOW | RTLD_LOCAL), so that its
 * symbols never resolve anyone else's. Then its entry is checked:
 *   - no gale_plugin_entry symbol, a NULL info, an ABI of 0, a size smaller
 *     than gale_plugin_info, a NULL field, or (when opened by name) an
 *     info->name other than the name asked for: GALE_E_INVALID, "not a gale
 *     plugin" and what is wrong;
 *   - an ABI newer than GALE_PLUGIN_ABI of the libgale loaded:
 *     GALE_E_ABI, a message naming both versions (the plugin needs a
 *     newer libgale). Note that dlopen has run the module's constructors by
 *     then; gale's own plugins have none.
 * Statuses: GALE_E_NOT_FOUND when no module is found (the message lists
 * every place searched); GALE_E_INVALID for a bad name or a module dlopen
 * refuses (dlerror's text is in the message; this includes a plugin that
 * needs symbols of a newer libgale); GALE_E_NOMEM.
 *
 * Every successful gale_plugin_open returns a new handle (the module itself
 * is loaded once and reference-counted by the dynamic loader);
 * gale_plugin_close unloads it when its last handle is closed. The info and
 * api pointers are valid until the handle is closed. The functions may be
 * called from any thread; a handle must not be closed while another thread
 * uses it or its api.
 *
 * Using a plugin without linking libgale at build time
 * ----------------------------------------------------
 * A caller that must not depend on libgale at link time (for example one
 * that makes gale optional) can load a plugin itself. It needs only this
 * header, gale.h and the plugin's header (types and macros; no libgale
 * function is called), and -ldl on old glibc:
 *
 *     #include <dlfcn.h>
 *     #include <gale.h>
 *     #include <gale_plugin.h>
 *     #include <gale_bella.h>
 *
 *     void *h = dlopen(PLUGINDIR "/gale-bella.so", RTLD_NOW | RTLD_LOCAL);
 *     gale_plugin_entry_fn entry = NULL;
 *     if (h) *(void **)&entry = dlsym(h, GALE_PLUGIN_ENTRY_SYMBOL);
 *     const gale_plugin_info *info = entry ? entry() : NULL;
 *     if (!info || info->abi == 0 || info->abi > GALE_PLUGIN_ABI ||
 *         info->size < sizeof(gale_plugin_info))
 *         ... not usable: dlclose(h) and fall back ...
 *     const gale_bella_api *api = (const gale_bella_api *)info->api;
 *     ... api->extend(...) ...
 *     dlclose(h);
 *
 * where PLUGINDIR comes from `pkg-config --variable=plugindir gale` at build
 * time (or from GALE_PLUGIN_PATH at run time). The plugin itself depends on
 * libgale.so.0, which the dynamic loader loads with it (the installed plugin
 * carries a run path to the installed library directory). The same checks
 * as gale_plugin_open's are the caller's to make.
 */
#ifndef GALE_PLUGIN_H
#define GALE_PLUGIN_H

#include <stdint.h>

#include "gale.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The plugin ABI this header describes. Bumped when gale_plugin_info or the
 * rules above change; libgale loads plugins built for this ABI or older. */
#define GALE_PLUGIN_ABI 1

/* Name of the one symbol every plugin exports. */
#define GALE_PLUGIN_ENTRY_SYMBOL "gale_plugin_entry"

/* What gale_plugin_entry returns (ABI 1). A plugin fills it statically:
 *     static const gale_plugin_info info = {
 *         GALE_PLUGIN_ABI, sizeof(gale_plugin_info),
 *         "name", "1.0", "one line", &my_function_table };
 */
typedef struct gale_plugin_info {
    uint32_t abi;            /* GALE_PLUGIN_ABI the plugin was built against */
    uint32_t size;           /* sizeof(gale_plugin_info) as the plugin knows it */
    const char *name;        /* the name it is opened by: "bella" for gale-bella.so */
    const char *version;     /* the plugin's version, e.g. "0.2.0" */
    const char *description; /* one line, no newline */
    const void *api;         /* the caller-specific function table (plugin's header) */
} gale_plugin_info;

/* The type of gale_plugin_entry, for dlsym. */
typedef const gale_plugin_info *(*gale_plugin_entry_fn)(void);

/* For a plugin's source: marks gale_plugin_entry (and documented caller
 * functions) as exported; build the module with hidden visibility. */
#if defined(__GNUC__)
#define GALE_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define GALE_PLUGIN_EXPORT
#endif

typedef struct gale_plugin gale_plugin;

/* Finds, loads and checks a plugin (see above). *out is NULL on failure. */
GALE_API gale_status gale_plugin_open(const char *name, gale_plugin **out);

/* The plugin's info (valid until gale_plugin_close). */
GALE_API gale_status gale_plugin_get_info(const gale_plugin *plugin, const gale_plugin_info **info);

/* The path the module was loaded from (valid until gale_plugin_close). */
GALE_API gale_status gale_plugin_get_path(const gale_plugin *plugin, const char **path);

/* Closes the handle; the module is unloaded with its last handle. NULL is a
 * no-op (GALE_OK); a closed handle gives GALE_E_HANDLE. */
GALE_API gale_status gale_plugin_close(gale_plugin *plugin);

/* The installed plugin directory compiled into this libgale (searched after
 * GALE_PLUGIN_PATH). Never NULL. */
GALE_API const char *gale_plugin_dir(void);

#ifdef __cplusplus
}
#endif

#endif /* GALE_PLUGIN_H */
