// Partial-order alignment (GALE_POA): the definitions shared by the CPU kernel
// (lib/cpu/poa.cpp), the kind's table entry and (later) the CUDA kernel.
//
// Reference: SPOA 4.0.8 as Debian builds it (libspoa-dev 4.0.8-1, the library that
// Debian's `spoa` program links). Every result is SPOA's, bit for bit: the graph
// (node ids, edge order and weights, aligned-node rings, topological order), the
// per-sequence scores, the consensus (heaviest bundle) and the MSA rows.
//
// Which SPOA engine. AlignmentEngine::Create returns SPOA's SIMD engine whenever it
// was compiled with SIMD (Debian's is: 128-bit SSE registers through SIMDe, no AVX2);
// the scalar SisdAlignmentEngine only where no SIMD is available. The two compute
// the same DP scores but do not always pick the same optimal alignment:
//  - the SIMD engine computes a row's horizontal gaps E (and, convex, Q) lane-block by
//    lane-block: inside a block of kLanes16/kLanes32 columns (int16 / int32 scores)
//    E is a prefix maximum over the block's H before E and Q are added, across
//    blocks over the full H. With convex gaps, E then misses E->Q and Q->E chains
//    inside a block: H is unchanged (such chains never beat one gap) but the E and Q
//    the backtrack compares against are, so its tie-breaks depend on the block size.
//  - in local mode E is built from H before the clamp at 0;
//  - at column 0 the backtrack compares with the first column's H where the scalar
//    engine has E = -inf;
//  - a row's best score is max(0, ...) (SIMD's _mmxxx_max_value starts at 0): in
//    semi-global mode a window whose every end cell is negative reports score 0 and
//    an empty alignment (the read becomes a new, unaligned path of the graph).
// gale reproduces the SIMD engine with Debian's block sizes. The block size follows
// SPOA's choice of score width: int16 unless the worst case score of
// (read length + 8, graph nodes) falls below INT16_MIN + 1024.
//
// Gap model, as AlignmentEngine::Create(type, m, n, g, e, q, c) infers it (all
// penalties <= 0; a gap of length L costs g + (L - 1) e, convex: the larger of that
// and q + (L - 1) c): linear if g >= e (e := g); else affine if g <= q or e >= c
// (q := g, c := e); else convex. Scores are int8 as in SPOA.
#ifndef GALE_POA_H
#define GALE_POA_H

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "arena.h"

namespace gale {
namespace poa {

// Debian's libspoa-dev 4.0.8 SIMD engine: SSE (128-bit) registers.
constexpr uint32_t kLanes16 = 8;  // int16 scores per register
constexpr uint32_t kLanes32 = 4;  // int32 scores per register

enum Type : int32_t { kSW = 0, kNW = 1, kOV = 2 };  // spoa::AlignmentType: local, global, semi-global
enum Subtype : int32_t { kLinear = 0, kAffine = 1, kConvex = 2 };

struct Params {
    int32_t type;     // Type
    int32_t subtype;  // Subtype, inferred by make_params
    int32_t m, n, g, e, q, c;
    uint32_t lanes16 = kLanes16, lanes32 = kLanes32;
};

// As AlignmentEngine::Create: infers the subtype and adjusts e / q, c. Returns false
// (and sets *why) for what Create refuses (a positive penalty, an unknown type).
bool make_params(int type, int8_t m, int8_t n, int8_t g, int8_t e, int8_t q, int8_t c, Params *out,
                 const char **why);

// SPOA's Graph, node for node (ids, edge order, aligned nodes, rank order).
struct Graph {
    struct Node {
        uint32_t id, code;
        std::vector<uint32_t> in, out;  // edge indices, in SPOA's order
        std::vector<uint32_t> aligned;  // node ids
    };
    struct Edge {
        uint32_t tail, head;
        std::vector<uint32_t> labels;
        int64_t weight;
    };
    uint32_t num_codes = 0;
    int32_t coder[256];
    int32_t decoder[256];
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    std::vector<uint32_t> sequences;  // first node of each added sequence
    std::vector<uint32_t> rank_to_node;
    std::vector<uint32_t> consensus;

    Graph();
    // (node id or -1, read position or -1) pairs, as spoa::Alignment.
    using Alignment = std::vector<std::pair<int32_t, int32_t>>;
    // weights: one per base (SPOA: quality - 33, or the sequence's weight).
    void add_alignment(const Alignment &a, const char *seq, uint32_t len, const std::vector<uint32_t> &weights);
    // The same from an alignment projected on the read (the CUDA kernel's output,
    // cuda/common/poa_core.cuh): proj[p] is the node read position p aligned to (-1: an
    // insertion) for vf <= p <= vb; vf < 0: an empty alignment. AddAlignment reads
    // nothing else of an alignment (it skips the pairs without a read position).
    void add_projected(const int32_t *proj, int32_t vf, int32_t vb, const char *seq, uint32_t len,
                       const std::vector<uint32_t> &weights);
    int64_t successor(uint32_t node, uint32_t label) const;  // -1: none
    std::string generate_consensus();                         // TraverseHeaviestBundle
    std::vector<std::string> generate_msa(bool include_consensus);
    // The graph as the `spoa` program's PrintGfa writes it after GenerateConsensus
    // (call generate_consensus first), paths named 0, 1, ... and the consensus path
    // ("Consensus") last.
    std::string gfa(const std::vector<uint8_t> *reversed = nullptr) const;
    // The graph as spoa's Graph::PrintDot writes it (consensus as last drawn).
    std::string dot() const;
    // Sequence-to-graph alignment: an empty graph built from segments (each segment's
    // bytes a chain of single-byte nodes, in segment order, codes by first appearance)
    // and links (2 * n_links segment indices, tail then head: the tail's last node to
    // the head's first, in link order, weight 1), then SPOA's TopologicalSort. Bytes and
    // indices must have been checked. Returns -1, or the index of a link that closes a
    // cycle (nothing is built then). first[i]: segment i's first node.
    int64_t build(size_t n_segs, const char *const *seqs, const int64_t *lens, size_t n_links,
                  const uint32_t *links, std::vector<uint32_t> *first);

  private:
    uint32_t add_node(uint32_t code);
    void add_edge(uint32_t tail, uint32_t head, uint32_t weight);
    int64_t add_sequence(const char *seq, const std::vector<uint32_t> &w, uint32_t begin, uint32_t end);
    void topological_sort();
    void traverse_heaviest_bundle();
    uint32_t branch_completion(uint32_t rank, std::vector<int64_t> &scores, std::vector<int64_t> &pred);
};

// The alignment engine (SPOA's SIMD engine, scalar): keeps its matrices between calls.
class Engine {
  public:
    explicit Engine(const Params &p) : p_(p) {}
    void set_params(const Params &p) { p_ = p; }
    // Aligns seq to graph as SimdAlignmentEngine::Align; *score is left alone where
    // SPOA leaves it (empty graph, empty read, nothing above 0 in local mode). Returns
    // false where SPOA throws "possible overflow" (the worst case score below
    // INT32_MIN + 1024) or its backtrack would find no predecessor.
    // cancel (may be NULL) is polled every 256 graph rows; when raised align returns
    // false with cancelled() true.
    bool align(const char *seq, uint32_t len, const Graph &graph, int32_t *score, Graph::Alignment *out,
               const std::atomic<bool> *cancel = nullptr);
    uint64_t cells() const { return cells_; }
    bool cancelled() const { return cancelled_; }
    bool overflowed() const { return overflowed_; }  // false after a failed align: no predecessor

  private:
    Params p_;
    uint64_t cells_ = 0;
    bool cancelled_ = false, overflowed_ = false;
    std::vector<uint32_t> rank_;
    std::vector<int32_t> prof_, H_, F_, E_, O_, Q_, fcH_, fcF_, fcO_, H1_;
};

// The kind's parameters and result (lib/kinds.cpp; the CUDA side writes them too).
struct KindParams {
    Params p;
    int32_t output;  // GALE_POA_OUT_* bits
    int32_t strand_ambiguous;  // GALE_P_POA_STRAND_AMBIGUOUS (CPU only: KindDef::cpu_only)
    int32_t pad;
};
struct Result {
    uint32_t flags;
    int32_t reserved;
    uint64_t cells;
    VarSpan scores, consensus, msa, gfa;
    int64_t n_seqs, consensus_len, n_rows, row_len, gfa_len;
    VarSpan reversed, dot;  // since 0.7 (empty unless asked)
    int64_t dot_len;
};
// A window's result from its graph (all reads added) and per-read scores: consensus,
// MSA and GFA as `output` asks (lib/kinds.cpp). Sets neither flags nor cells.
void finish(Graph &graph, const std::vector<int32_t> &scores, int32_t output, Result &r, ResultArena &var,
            std::vector<uint32_t> &words);
// The same under spoa -s: reversed[i] is 1 where input sequence i was added reverse
// complemented (nullptr: none; the GFA reads it by graph sequence index, as spoa).
void finish(Graph &graph, const std::vector<int32_t> &scores, const std::vector<uint8_t> *reversed, int32_t output,
            Result &r, ResultArena &var, std::vector<uint32_t> &words);
// biosoup's Sequence::ReverseAndComplement on bytes (spoa -s).
void reverse_complement(const char *in, uint32_t n, std::string &out);
// The per-base weights SPOA takes for a sequence: quality - 33, or the sequence's weight.
void weights_of(const uint8_t *qual, int64_t weight, uint32_t len, std::vector<uint32_t> &out);

}  // namespace poa
}  // namespace gale

#endif
