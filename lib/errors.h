// Internal errors: lib/ code throws gale::Error; lib/api.cpp turns it into a
// status and the thread's last-error message. Nothing else crosses the C API.
#ifndef GALE_ERRORS_H
#define GALE_ERRORS_H

#include <cstdint>
#include <string>

#include "gale.h"

namespace gale {

struct Error {
    gale_status status;
    std::string message;
};

// Throws Error{status, printf-formatted message}.
[[noreturn]] void fail(gale_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
// The same Error, returned: for a worker thread that records a failure to throw later.
Error error_of(gale_status status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void set_last_error(const std::string &message);
void clear_last_error();
// Changes with every set_last_error on this thread: lib/api.cpp tells by it whether a
// call that returns a status other than GALE_OK has described itself.
uint64_t last_error_serial();
const char *last_error();

}  // namespace gale

#endif
