// cli_args.hpp - the command-line plumbing of the reference programs of the cli
// suite (tests/cli/xdrop_ref.cpp, tests/cli/wfa_ref.cpp): a fatal message under the
// program's name, and strict decimal integers.
#ifndef GALE_CLI_ARGS_HPP
#define GALE_CLI_ARGS_HPP

#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <string>

// "<prog>: <message>" on stderr, then exit(code).
[[noreturn]] inline void cli_die(const char *prog, int code, const std::string &m) {
    std::cerr << prog << ": " << m << "\n";
    std::exit(code);
}

// s as a whole decimal number; anything else is fatal ("bad <what>: ...").
inline long long cli_to_ll(const char *prog, int code, const std::string &s, const std::string &what) {
    if (s.empty()) cli_die(prog, code, "bad " + what + ": empty");
    char *end = nullptr;
    errno = 0;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno || *end) cli_die(prog, code, "bad " + what + ": '" + s + "'");
    return v;
}

#endif
