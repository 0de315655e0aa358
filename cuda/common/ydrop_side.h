// A half that cuda/common/ydrop_core.cuh's yd_side computed, as the CPU's phase 1 records it
// (lib/cpu/ydrop_run.h, SideRec): what cuda/ydrop.cu hands LASTZ's walk and what
// tests/unit/ydrop_core_host.cpp compares with the CPU's. Host code.
#ifndef GALE_CUDA_YDROP_SIDE_H
#define GALE_CUDA_YDROP_SIDE_H

#include "ydrop_core.cuh"
#include "cpu/ydrop_run.h"

namespace gale {
namespace ydg {

// o with its o.nrows row records and o.nops script ops (host copies).
inline ydrop_run::SideRec yd_side_rec(const YdOut &o, const YdRow *rows, const uint32_t *ops) {
    ydrop_run::SideRec r;
    r.failed = (o.flags & kYdFailed) != 0;
    if (r.failed) return r;
    r.truncated = (o.flags & kYdTruncated) != 0;
    r.stale = (o.flags & kYdStale) != 0;
    r.cells = o.cells;
    r.score = o.score;
    r.end1 = o.end1;
    r.end2 = o.end2;
    r.rows.resize(o.nrows);
    for (uint32_t k = 0; k < o.nrows; ++k)
        r.rows[k] = ydrop_run::RowRec{rows[k].LY, rows[k].RY, rows[k].Rw, (uint8_t)rows[k].flags};
    r.script.op.assign(ops, ops + o.nops);
    r.script.tailOp = o.tail_op;
    return r;
}

}  // namespace ydg
}  // namespace gale

#endif
