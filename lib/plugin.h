// Plugin loader internals (gale_plugin.h). The C API (lib/api.cpp) is the only caller.
#ifndef GALE_PLUGIN_INTERNAL_H
#define GALE_PLUGIN_INTERNAL_H

#include <string>

#include "gale_plugin.h"

struct gale_plugin {
    void *module = nullptr;                  // dlopen handle
    const gale_plugin_info *info = nullptr;  // from gale_plugin_entry, checked
    std::string path;                        // where the module was loaded from
};

namespace gale {

// Searches, loads and checks a plugin; throws Error (nothing is left loaded then).
gale_plugin *plugin_open(const char *name);
void plugin_close(gale_plugin *p);
const char *plugin_dir();

}  // namespace gale

#endif
