// The plugin loader: search GALE_PLUGIN_PATH then the installed plugin directory,
// dlopen(RTLD_NOW | RTLD_LOCAL), check the entry's ABI, size and fields.
// Rules and statuses: include/gale_plugin.h.
#include "plugin.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "context.h"
#include "errors.h"

#ifndef GALE_PLUGINDIR
#error "GALE_PLUGINDIR (the installed plugin directory) must be defined by the build"
#endif

namespace gale {

namespace {

// secure_getenv: a set-uid program must not load code from a path its caller chose.
const char *plugin_path_env() {
#if defined(__GLIBC__)
    return secure_getenv("GALE_PLUGIN_PATH");
#else
    return getenv("GALE_PLUGIN_PATH");
#endif
}

bool plain_name_ok(const char *name) {
    if (!*name || name[0] == '.') return false;
    for (const char *p = name; *p; ++p) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                  c == '-' || c == '.';
        if (!ok) return false;
    }
    return true;
}

std::vector<std::string> split_path(const char *s) {
    std::vector<std::string> dirs;
    if (!s) return dirs;
    std::string cur;
    for (const char *p = s;; ++p) {
        if (*p == ':' || *p == '\0') {
            if (!cur.empty()) dirs.push_back(cur);
            cur.clear();
            if (!*p) break;
        } else {
            cur += *p;
        }
    }
    return dirs;
}

std::string dl_error() {
    const char *e = dlerror();
    return e ? e : "unknown dlopen error";
}

// dlclose on every exit path until the module is handed over.
struct Module {
    void *h = nullptr;
    ~Module() {
        if (h) dlclose(h);
    }
};

}  // namespace

const char *plugin_dir() { return GALE_PLUGINDIR; }

gale_plugin *plugin_open(const char *name) {
    if (!name) fail(GALE_E_INVALID, "plugin name is NULL");
    const bool by_path = std::strchr(name, '/') != nullptr;
    std::string path;
    if (by_path) {
        path = name;
        if (access(path.c_str(), F_OK) != 0)
            fail(GALE_E_NOT_FOUND, "no plugin module at %s", path.c_str());
    } else {
        if (!plain_name_ok(name))
            fail(GALE_E_INVALID,
                 "invalid plugin name '%.100s' (letters, digits, '_', '-', '.'; not empty, not starting with '.'; "
                 "or a path containing '/')",
                 name);
        const std::string file = std::string("gale-") + name + ".so";
        std::vector<std::string> dirs = split_path(plugin_path_env());
        const size_t n_env = dirs.size();
        dirs.push_back(plugin_dir());
        for (const std::string &d : dirs) {
            std::string candidate = d + "/" + file;
            if (access(candidate.c_str(), F_OK) == 0) {
                path = candidate;
                break;
            }
        }
        if (path.empty()) {
            std::string where;
            for (size_t i = 0; i < n_env; ++i) where += dirs[i] + ", ";
            if (n_env) where += "(GALE_PLUGIN_PATH) and ";
            else where += "(GALE_PLUGIN_PATH unset or empty) ";
            where += std::string(plugin_dir()) + " (installed plugin directory)";
            fail(GALE_E_NOT_FOUND, "plugin '%s' not found: no %s in %s", name, file.c_str(), where.c_str());
        }
    }

    Module m;
    dlerror();
    m.h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!m.h) fail(GALE_E_INVALID, "cannot load plugin module %s: %s", path.c_str(), dl_error().c_str());

    dlerror();
    void *sym = dlsym(m.h, GALE_PLUGIN_ENTRY_SYMBOL);
    if (!sym)
        fail(GALE_E_INVALID, "%s is not a gale plugin: it exports no %s symbol", path.c_str(),
             GALE_PLUGIN_ENTRY_SYMBOL);
    gale_plugin_entry_fn entry;
    static_assert(sizeof entry == sizeof sym, "function and object pointers differ in size");
    std::memcpy(&entry, &sym, sizeof entry);
    const gale_plugin_info *info = entry();
    if (!info) fail(GALE_E_INVALID, "%s is not a gale plugin: %s() returned NULL", path.c_str(), GALE_PLUGIN_ENTRY_SYMBOL);
    if (info->abi == 0)
        fail(GALE_E_INVALID, "%s is not a gale plugin: its plugin ABI version is 0", path.c_str());
    if (info->abi > GALE_PLUGIN_ABI)
        fail(GALE_E_ABI,
             "plugin %s was built for gale plugin ABI %u, newer than the ABI %u of this libgale %s: "
             "it needs a newer libgale",
             path.c_str(), (unsigned)info->abi, (unsigned)GALE_PLUGIN_ABI, gale_version_string());
    if (info->size < sizeof(gale_plugin_info))
        fail(GALE_E_INVALID, "%s is not a gale plugin: its info is %u bytes, plugin ABI %u needs at least %zu",
             path.c_str(), (unsigned)info->size, (unsigned)info->abi, sizeof(gale_plugin_info));
    const char *missing = !info->name ? "name" : !info->version ? "version" : !info->description ? "description"
                                               : !info->api ? "api" : nullptr;
    if (missing) fail(GALE_E_INVALID, "%s is not a gale plugin: its info has no %s (NULL)", path.c_str(), missing);
    if (!by_path && std::strcmp(info->name, name) != 0)
        fail(GALE_E_INVALID, "%s is not the gale plugin '%s': it calls itself '%.100s'", path.c_str(), name,
             info->name);

    auto p = std::make_unique<gale_plugin>();
    p->info = info;
    p->path = path;
    p->module = m.h;
    m.h = nullptr;
    handle_add(p.get());
    return p.release();
}

void plugin_close(gale_plugin *p) {
    handle_remove(p);
    void *h = p->module;
    delete p;
    if (h && dlclose(h) != 0) fail(GALE_E_INTERNAL, "dlclose failed: %s", dl_error().c_str());
}

}  // namespace gale
