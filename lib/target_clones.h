// GALE_TARGET_CLONES(...): the one definition of gale's function multiversioning.
//
// A kernel marked GALE_TARGET_CLONES("avx2", "default") is compiled once per target
// (GCC's target_clones), and the dynamic loader picks one copy per machine through an
// IFUNC symbol whose resolver GCC generates.
//
// Where it expands to nothing (one baseline copy, same integer results, slower cell
// loops): compilers other than GCC on x86-64 Linux, and builds configured with
// target_clones off (meson option -Dtarget_clones; `auto` turns it off under
// -Db_sanitize=thread). ThreadSanitizer needs that: ld.so runs IFUNC resolvers while
// it relocates libgale, before any constructor and so before TSan's runtime is
// initialised; the generated resolver is instrumented like the rest of the file
// (__tsan_func_entry), and the first instrumented call into an uninitialised runtime
// crashes the process (SIGSEGV in _dl_relocate_object) before main.
#ifndef GALE_TARGET_CLONES_H
#define GALE_TARGET_CLONES_H

#include "gale_config.h"  // GALE_USE_TARGET_CLONES, from meson's -Dtarget_clones

#if GALE_USE_TARGET_CLONES && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__linux__)
#define GALE_TARGET_CLONES(...) __attribute__((target_clones(__VA_ARGS__)))
#else
#define GALE_TARGET_CLONES(...)
#endif

#endif
