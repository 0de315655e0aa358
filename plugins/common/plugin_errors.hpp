// plugin_errors.hpp - the error handling every plugin module shares (plugins/bella,
// plugins/ksw2): a failure is thrown inside the module as Failure (fail, check) and
// turned into a gale_status and a message at its C boundary (guard), where nothing may
// escape; the last message of each thread is kept for the plugin's *_last_error.
//
// Each module includes this once: everything is in an unnamed namespace, so every
// module has its own thread-local message.
#ifndef GALE_PLUGIN_ERRORS_HPP
#define GALE_PLUGIN_ERRORS_HPP

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "gale.h"

namespace {

// The message of the last failing call on this thread. A plain array: a thread_local
// with a destructor (std::string) would keep the module loaded after dlclose for as
// long as a thread that failed a call lives.
thread_local char tls_error[1024];

__attribute__((format(printf, 1, 2))) void set_error(const char *fmt, ...) noexcept {
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(tls_error, sizeof tls_error, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof tls_error) {
        // Cut, and say so: a message that just stops would read as complete.
        const char tail[] = " [...]";
        std::memcpy(tls_error + sizeof tls_error - sizeof tail, tail, sizeof tail);
    }
}

struct Failure {
    gale_status status;
    std::string message;
};

[[noreturn]] __attribute__((format(printf, 2, 3))) void fail(gale_status st, const char *fmt, ...) {
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    throw Failure{st, buf};
}

// A failing gale call: the status and gale's message (read on the failing thread:
// gale_last_error is thread-local), prefixed with what was being done.
void check(gale_status st, const char *what) {
    if (st != GALE_OK) fail(st, "%s: %s", what, gale_last_error());
}

// Runs f(); what it throws becomes report(status, message): a Failure as it is, memory
// as GALE_E_NOMEM, anything else (a foreign exception included) as GALE_E_INTERNAL
// naming the plugin. Returns the status (GALE_OK when f returned).
template <class F, class Report>
gale_status guard(const char *plugin, F &&f, Report &&report) noexcept {
    char what[160];
    try {
        f();
        return GALE_OK;
    } catch (const Failure &e) {
        report(e.status, e.message.c_str());
        return e.status;
    } catch (const std::bad_alloc &) {
        report(GALE_E_NOMEM, "out of host memory");
        return GALE_E_NOMEM;
    } catch (const std::exception &e) {
        snprintf(what, sizeof what, "internal error in the %s plugin: %s", plugin, e.what());
    } catch (...) {
        snprintf(what, sizeof what, "internal error in the %s plugin: unknown exception", plugin);
    }
    report(GALE_E_INTERNAL, what);
    return GALE_E_INTERNAL;
}

}  // namespace

#endif
