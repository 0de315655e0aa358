#include "errors.h"

#include <cstdarg>
#include <cstdio>

namespace gale {

namespace {
thread_local std::string tls_last_error;
thread_local uint64_t tls_serial;  // how many messages this thread has been given
}

namespace {
Error verror(gale_status status, const char *fmt, va_list ap) {
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    return Error{status, buf};
}
}  // namespace

void fail(gale_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    Error e = verror(status, fmt, ap);
    va_end(ap);
    throw e;
}

Error error_of(gale_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    Error e = verror(status, fmt, ap);
    va_end(ap);
    return e;
}

void set_last_error(const std::string &message) {
    tls_last_error = message;
    ++tls_serial;
}
uint64_t last_error_serial() { return tls_serial; }
void clear_last_error() { tls_last_error.clear(); }
const char *last_error() { return tls_last_error.c_str(); }

}  // namespace gale
