// CPU kernel of partial-order alignment (GALE_POA): SPOA 4.0.8's Graph and its SIMD
// alignment engine as Debian builds it, computed with scalar code (lib/poa.h says
// which engine and why). The matrices hold one int32 per (graph row, read column),
// column j = read position j (0-based, as the SIMD engine counts), and the first
// column (before the read) apart, as SPOA's first_column.
#include <cctype>
#include "poa.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace gale {
namespace poa {

bool make_params(int type, int8_t m, int8_t n, int8_t g, int8_t e, int8_t q, int8_t c, Params *out,
                 const char **why) {
    if (type != kSW && type != kNW && type != kOV) {
        *why = "invalid alignment type";
        return false;
    }
    if (g > 0 || q > 0) {
        *why = "gap opening penalty must be non-positive";
        return false;
    }
    if (e > 0 || c > 0) {
        *why = "gap extension penalty must be non-positive";
        return false;
    }
    Params p;
    p.type = type;
    p.subtype = g >= e ? kLinear : (g <= q || e >= c ? kAffine : kConvex);
    if (p.subtype == kLinear) {
        e = g;
    } else if (p.subtype == kAffine) {
        q = g;
        c = e;
    }
    p.m = m, p.n = n, p.g = g, p.e = e, p.q = q, p.c = c;
    *out = p;
    return true;
}

// ---------------------------------------------------------------- graph (graph.cpp)

Graph::Graph() {
    for (int i = 0; i < 256; ++i) coder[i] = decoder[i] = -1;
}

uint32_t Graph::add_node(uint32_t code) {
    nodes.push_back(Node{static_cast<uint32_t>(nodes.size()), code, {}, {}, {}});
    return nodes.back().id;
}

void Graph::add_edge(uint32_t tail, uint32_t head, uint32_t weight) {
    for (uint32_t ei : nodes[tail].out) {
        Edge &ed = edges[ei];
        if (ed.head == head) {
            ed.labels.push_back(static_cast<uint32_t>(sequences.size()));
            ed.weight += weight;
            return;
        }
    }
    edges.push_back(Edge{tail, head, {static_cast<uint32_t>(sequences.size())}, static_cast<int64_t>(weight)});
    uint32_t ei = static_cast<uint32_t>(edges.size() - 1);
    nodes[tail].out.push_back(ei);
    nodes[head].in.push_back(ei);
}

int64_t Graph::add_sequence(const char *seq, const std::vector<uint32_t> &w, uint32_t begin, uint32_t end) {
    if (begin == end) return -1;
    int64_t prev = -1;
    for (uint32_t i = begin; i < end; ++i) {
        uint32_t curr = add_node(static_cast<uint32_t>(coder[static_cast<unsigned char>(seq[i])]));
        if (prev >= 0) add_edge(static_cast<uint32_t>(prev), curr, w[i - 1] + w[i]);  // uint32 sum, as SPOA
        prev = curr;
    }
    return static_cast<int64_t>(nodes.size() - (end - begin));
}

void Graph::add_alignment(const Alignment &a, const char *seq, uint32_t len, const std::vector<uint32_t> &w) {
    if (len == 0) return;
    for (uint32_t i = 0; i < len; ++i) {
        unsigned char b = static_cast<unsigned char>(seq[i]);
        if (coder[b] == -1) {
            coder[b] = static_cast<int32_t>(num_codes);
            decoder[num_codes++] = b;
        }
    }
    int32_t vfront = -1, vback = -1;
    for (const auto &it : a)
        if (it.second != -1) {
            if (vfront == -1) vfront = it.second;
            vback = it.second;
        }
    // An alignment without read positions is added as an empty one: the whole sequence
    // unaligned. The engine makes one where the backtrack of a semi-global alignment
    // reaches the first row by deletions only (seen with a one-base read, seed 2888484132);
    // SPOA then takes the first of no read positions (undefined: spoa may crash), and the
    // CUDA kernel's core does the same as here (cuda/common/poa_core.cuh, pg_add).
    if (a.empty() || vfront == -1) {
        sequences.push_back(static_cast<uint32_t>(add_sequence(seq, w, 0, len)));
        topological_sort();
        return;
    }
    int64_t begin = add_sequence(seq, w, 0, static_cast<uint32_t>(vfront));
    int64_t prev = begin >= 0 ? static_cast<int64_t>(nodes.size() - 1) : -1;
    int64_t last = add_sequence(seq, w, static_cast<uint32_t>(vback + 1), len);

    for (const auto &it : a) {
        if (it.second == -1) continue;
        uint32_t code = static_cast<uint32_t>(coder[static_cast<unsigned char>(seq[it.second])]);
        int64_t curr = -1;
        if (it.first == -1) {
            curr = add_node(code);
        } else {
            uint32_t jt = static_cast<uint32_t>(it.first);
            if (nodes[jt].code == code) {
                curr = jt;
            } else {
                for (uint32_t kt : nodes[jt].aligned)
                    if (nodes[kt].code == code) {
                        curr = kt;
                        break;
                    }
                if (curr < 0) {
                    curr = add_node(code);
                    uint32_t cu = static_cast<uint32_t>(curr);
                    std::vector<uint32_t> ring = nodes[jt].aligned;  // add_node may not move it, but be plain
                    for (uint32_t kt : ring) {
                        nodes[kt].aligned.push_back(cu);
                        nodes[cu].aligned.push_back(kt);
                    }
                    nodes[jt].aligned.push_back(cu);
                    nodes[cu].aligned.push_back(jt);
                }
            }
        }
        if (begin < 0) begin = curr;
        if (prev >= 0) add_edge(static_cast<uint32_t>(prev), static_cast<uint32_t>(curr), w[it.second - 1] + w[it.second]);
        prev = curr;
    }
    if (last >= 0) add_edge(static_cast<uint32_t>(prev), static_cast<uint32_t>(last), w[vback] + w[vback + 1]);
    sequences.push_back(static_cast<uint32_t>(begin));
    topological_sort();
}

void Graph::add_projected(const int32_t *proj, int32_t vf, int32_t vb, const char *seq, uint32_t len,
                          const std::vector<uint32_t> &w) {
    Alignment a;
    if (vf >= 0) {
        a.reserve(static_cast<size_t>(vb - vf + 1));
        for (int32_t p = vf; p <= vb; ++p) a.emplace_back(proj[p], p);
    }
    add_alignment(a, seq, len, w);
}

void weights_of(const uint8_t *qual, int64_t weight, uint32_t len, std::vector<uint32_t> &w) {
    w.resize(len);
    for (uint32_t j = 0; j < len; ++j) w[j] = qual ? static_cast<uint32_t>(qual[j] - 33) : static_cast<uint32_t>(weight);
}

// Graph::TopologicalSort: the same depth-first walk with an explicit stack, so that
// the rank order (which the DP and its tie-breaks follow) is SPOA's.
void Graph::topological_sort() {
    rank_to_node.clear();
    std::vector<uint8_t> marks(nodes.size(), 0);
    std::vector<uint8_t> ignored(nodes.size(), 0);
    std::vector<uint32_t> stack;
    for (const Node &n0 : nodes) {
        if (marks[n0.id] != 0) continue;
        stack.push_back(n0.id);
        while (!stack.empty()) {
            uint32_t curr = stack.back();
            bool valid = true;
            if (marks[curr] != 2) {
                for (uint32_t ei : nodes[curr].in) {
                    uint32_t t = edges[ei].tail;
                    if (marks[t] != 2) {
                        stack.push_back(t);
                        valid = false;
                    }
                }
                if (!ignored[curr]) {
                    for (uint32_t jt : nodes[curr].aligned)
                        if (marks[jt] != 2) {
                            stack.push_back(jt);
                            ignored[jt] = 1;
                            valid = false;
                        }
                }
                if (valid) {
                    marks[curr] = 2;
                    if (!ignored[curr]) {
                        rank_to_node.push_back(curr);
                        for (uint32_t jt : nodes[curr].aligned) rank_to_node.push_back(jt);
                    }
                } else {
                    marks[curr] = 1;
                }
            }
            if (valid) stack.pop_back();
        }
    }
}

int64_t Graph::build(size_t n_segs, const char *const *seqs, const int64_t *lens, size_t n_links,
                     const uint32_t *links, std::vector<uint32_t> *first) {
    // A cycle first (SPOA's TopologicalSort would never end on one): depth-first from
    // each segment in order, links in order; the first link that reaches a segment
    // still on the stack closes a cycle.
    std::vector<std::vector<uint32_t>> out(n_segs);
    for (size_t i = 0; i < n_links; ++i) out[links[2 * i]].push_back(static_cast<uint32_t>(i));
    std::vector<uint8_t> color(n_segs, 0);
    std::vector<std::pair<uint32_t, size_t>> st;
    for (size_t s0 = 0; s0 < n_segs; ++s0) {
        if (color[s0]) continue;
        color[s0] = 1;
        st.emplace_back(static_cast<uint32_t>(s0), 0);
        while (!st.empty()) {
            const uint32_t u = st.back().first;
            const size_t k = st.back().second;
            if (k < out[u].size()) {
                st.back().second = k + 1;
                const uint32_t li = out[u][k], v = links[2 * li + 1];
                if (color[v] == 1) return li;
                if (color[v] == 0) {
                    color[v] = 1;
                    st.emplace_back(v, 0);
                }
            } else {
                color[u] = 2;
                st.pop_back();
            }
        }
    }
    first->assign(n_segs, 0);
    std::vector<uint32_t> last(n_segs, 0);
    for (size_t i = 0; i < n_segs; ++i) {
        int64_t prev = -1;
        for (int64_t j = 0; j < lens[i]; ++j) {
            const unsigned char b = static_cast<unsigned char>(seqs[i][j]);
            if (coder[b] == -1) {
                coder[b] = static_cast<int32_t>(num_codes);
                decoder[num_codes++] = b;
            }
            const uint32_t curr = add_node(static_cast<uint32_t>(coder[b]));
            if (prev >= 0) add_edge(static_cast<uint32_t>(prev), curr, 1);
            else (*first)[i] = curr;
            prev = curr;
        }
        last[i] = static_cast<uint32_t>(prev);
    }
    for (size_t i = 0; i < n_links; ++i) add_edge(last[links[2 * i]], (*first)[links[2 * i + 1]], 1);
    topological_sort();
    return -1;
}

int64_t Graph::successor(uint32_t node, uint32_t label) const {
    for (uint32_t ei : nodes[node].out) {
        const Edge &ed = edges[ei];
        if (std::find(ed.labels.begin(), ed.labels.end(), label) != ed.labels.end()) return ed.head;
    }
    return -1;
}

void Graph::traverse_heaviest_bundle() {
    if (rank_to_node.empty()) return;
    std::vector<int64_t> pred(nodes.size(), -1);
    std::vector<int64_t> scores(nodes.size(), -1);
    int64_t max = -1;
    for (uint32_t it : rank_to_node) {
        for (uint32_t ei : nodes[it].in) {
            const Edge &jt = edges[ei];
            if (scores[it] < jt.weight || (scores[it] == jt.weight && scores[pred[it]] <= scores[jt.tail])) {
                scores[it] = jt.weight;
                pred[it] = jt.tail;
            }
        }
        if (pred[it] >= 0) scores[it] += scores[pred[it]];
        if (max < 0 || scores[max] < scores[it]) max = it;
    }
    if (!nodes[max].out.empty()) {
        std::vector<uint32_t> rank_of(nodes.size(), 0);
        for (uint32_t i = 0; i < rank_to_node.size(); ++i) rank_of[rank_to_node[i]] = i;
        while (!nodes[max].out.empty()) max = branch_completion(rank_of[max], scores, pred);
    }
    consensus.clear();
    while (pred[max] >= 0) {
        consensus.push_back(static_cast<uint32_t>(max));
        max = pred[max];
    }
    consensus.push_back(static_cast<uint32_t>(max));
    std::reverse(consensus.begin(), consensus.end());
}

uint32_t Graph::branch_completion(uint32_t rank, std::vector<int64_t> &scores, std::vector<int64_t> &pred) {
    uint32_t start = rank_to_node[rank];
    for (uint32_t ei : nodes[start].out)
        for (uint32_t ej : nodes[edges[ei].head].in)
            if (edges[ej].tail != start) scores[edges[ej].tail] = -1;
    int64_t max = -1;
    for (uint32_t i = rank + 1; i < rank_to_node.size(); ++i) {
        uint32_t it = rank_to_node[i];
        scores[it] = -1;
        pred[it] = -1;
        for (uint32_t ei : nodes[it].in) {
            const Edge &jt = edges[ei];
            if (scores[jt.tail] == -1) continue;
            if (scores[it] < jt.weight || (scores[it] == jt.weight && scores[pred[it]] <= scores[jt.tail])) {
                scores[it] = jt.weight;
                pred[it] = jt.tail;
            }
        }
        if (pred[it] >= 0) scores[it] += scores[pred[it]];
        if (max < 0 || scores[max] < scores[it]) max = it;
    }
    return static_cast<uint32_t>(max);
}

std::string Graph::generate_consensus() {
    traverse_heaviest_bundle();
    std::string dst;
    for (uint32_t it : consensus) dst += static_cast<char>(decoder[nodes[it].code]);
    return dst;
}

std::vector<std::string> Graph::generate_msa(bool include_consensus) {
    std::vector<uint32_t> col(nodes.size());
    uint32_t row_size = 0;
    for (uint32_t i = 0; i < rank_to_node.size(); ++i, ++row_size) {
        uint32_t it = rank_to_node[i];
        col[it] = row_size;
        for (uint32_t jt : nodes[it].aligned) {
            col[jt] = row_size;
            ++i;
        }
    }
    std::vector<std::string> dst;
    for (uint32_t i = 0; i < sequences.size(); ++i) {
        std::string row(row_size, '-');
        int64_t it = sequences[i];
        while (it >= 0) {
            row[col[it]] = static_cast<char>(decoder[nodes[it].code]);
            it = successor(static_cast<uint32_t>(it), i);
        }
        dst.push_back(std::move(row));
    }
    if (include_consensus) {
        traverse_heaviest_bundle();
        std::string row(row_size, '-');
        for (uint32_t it : consensus) row[col[it]] = static_cast<char>(decoder[nodes[it].code]);
        dst.push_back(std::move(row));
    }
    return dst;
}

std::string Graph::gfa(const std::vector<uint8_t> *reversed) const {
    std::vector<uint8_t> in_cons(nodes.size(), 0);
    for (uint32_t it : consensus) in_cons[it] = 1;
    std::string o = "H\tVN:Z:1.0\n";
    for (const Node &nd : nodes) {
        o += "S\t" + std::to_string(nd.id + 1) + "\t" + static_cast<char>(decoder[nd.code]);
        if (in_cons[nd.id]) o += "\tic:Z:true";
        o += "\n";
        for (uint32_t ei : nd.out) {
            const Edge &ed = edges[ei];
            o += "L\t" + std::to_string(nd.id + 1) + "\t+\t" + std::to_string(ed.head + 1) + "\t+\tOM\tew:f:" +
                 std::to_string(ed.weight);
            if (in_cons[nd.id] && in_cons[ed.head]) o += "\tic:Z:true";
            o += "\n";
        }
    }
    for (uint32_t i = 0; i < sequences.size(); ++i) {
        o += "P\t" + std::to_string(i) + "\t";
        std::vector<uint32_t> path;
        for (int64_t it = sequences[i]; it >= 0; it = successor(static_cast<uint32_t>(it), i))
            path.push_back(static_cast<uint32_t>(it) + 1);
        // spoa -s: is_reversed is indexed by graph sequence here, as PrintGfa does.
        const bool ir = reversed && i < reversed->size() && (*reversed)[i];
        if (ir) std::reverse(path.begin(), path.end());
        for (size_t j = 0; j < path.size(); ++j) {
            if (j != 0) o += ",";
            o += std::to_string(path[j]) + (ir ? "-" : "+");
        }
        o += "\t*\n";
    }
    o += "P\tConsensus\t";
    for (size_t i = 0; i < consensus.size(); ++i) {
        if (i != 0) o += ",";
        o += std::to_string(consensus[i] + 1) + "+";
    }
    o += "\t*\n";
    return o;
}

std::string Graph::dot() const {
    std::vector<int64_t> rank(nodes.size(), -1);
    int64_t r = 0;
    for (uint32_t it : consensus) rank[it] = r++;
    std::string o = "digraph " + std::to_string(sequences.size()) + " {\n  graph [rankdir = LR]\n";
    for (const Node &nd : nodes) {
        const std::string id = std::to_string(nd.id);
        o += "  " + id + "[label = \"" + id + " - " + static_cast<char>(decoder[nd.code]) + "\"";
        if (rank[nd.id] != -1) o += ", style = filled, fillcolor = goldenrod1";
        o += "]\n";
        for (uint32_t ei : nd.out) {
            const Edge &ed = edges[ei];
            o += "  " + id + " -> " + std::to_string(ed.head) + " [label = \"" + std::to_string(ed.weight) + "\"";
            // As PrintDot: also true from a node off the consensus to its first node.
            if (rank[nd.id] + 1 == rank[ed.head]) o += ", color = goldenrod1";
            o += "]\n";
        }
        for (uint32_t a : nd.aligned)
            if (a > nd.id) o += "  " + id + " -> " + std::to_string(a) + " [style = dotted, arrowhead = none]\n";
    }
    o += "}\n";
    return o;
}

void reverse_complement(const char *in, uint32_t n, std::string &out) {
    out.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
        char c = in[n - 1 - i];
        switch (static_cast<char>(std::toupper(static_cast<unsigned char>(c)))) {
        case 'A': c = 'T'; break;
        case 'C': c = 'G'; break;
        case 'G': c = 'C'; break;
        case 'T': case 'U': c = 'A'; break;
        case 'R': c = 'Y'; break;
        case 'Y': c = 'R'; break;
        case 'K': c = 'M'; break;
        case 'M': c = 'K'; break;
        case 'B': c = 'V'; break;
        case 'D': c = 'H'; break;
        case 'H': c = 'D'; break;
        case 'V': c = 'B'; break;
        default: break;  // S, W, N, ... kept as they are
        }
        out[i] = c;
    }
}

// ---------------------------------------------------------------- alignment engine

namespace {

constexpr int32_t kNegInf = INT32_MIN + 1024;

// AlignmentEngine::WorstCaseAlignmentScore (with the engine's adjusted penalties).
int64_t worst_case(const Params &p, int64_t i, int64_t j) {
    auto gap = [&](int64_t len) -> int64_t {
        return len == 0 ? 0 : std::min<int64_t>(p.g + (len - 1) * p.e, p.q + (len - 1) * p.c);
    };
    return std::min<int64_t>(-1 * (p.m * std::min(i, j) + gap(std::llabs(i - j))), gap(i) + gap(j));
}

}  // namespace

bool Engine::align(const char *seq, uint32_t L, const Graph &graph, int32_t *score, Graph::Alignment *out,
                   const std::atomic<bool> *cancel) {
    out->clear();
    cancelled_ = overflowed_ = false;
    const uint32_t N = static_cast<uint32_t>(graph.nodes.size());
    if (N == 0 || L == 0) return true;
    int64_t worst = worst_case(p_, static_cast<int64_t>(L) + 8, N);
    if (worst < static_cast<int64_t>(INT32_MIN) + 1024) {
        overflowed_ = true;
        return false;
    }
    const uint32_t W = worst < static_cast<int64_t>(INT16_MIN) + 1024 ? p_.lanes32 : p_.lanes16;
    const bool affine = p_.subtype != kLinear, convex = p_.subtype == kConvex;
    const int32_t m = p_.m, n = p_.n, g = p_.g, e = p_.e, q = p_.q, c = p_.c;
    const uint64_t rows = static_cast<uint64_t>(N) + 1, Lw = L;
    cells_ += static_cast<uint64_t>(N) * L;

    auto grow = [&](std::vector<int32_t> &v, size_t sz) {
        if (v.size() < sz) v.resize(sz);
    };
    grow(H_, rows * Lw);
    if (affine) grow(F_, rows * Lw), grow(E_, rows * Lw);
    if (convex) grow(O_, rows * Lw), grow(Q_, rows * Lw);
    grow(fcH_, rows), grow(fcF_, rows), grow(fcO_, rows), grow(H1_, Lw);
    if (rank_.size() < N) rank_.resize(N);
    grow(prof_, static_cast<size_t>(graph.num_codes) * Lw);
    int32_t *H = H_.data(), *F = F_.data(), *E = E_.data(), *O = O_.data(), *Q = Q_.data();
    int32_t *fcH = fcH_.data(), *fcF = fcF_.data(), *fcO = fcO_.data();

    for (uint32_t k = 0; k < graph.num_codes; ++k) {
        char ch = static_cast<char>(graph.decoder[k]);
        for (uint32_t j = 0; j < L; ++j) prof_[k * Lw + j] = ch == seq[j] ? m : n;
    }
    const auto &rtn = graph.rank_to_node;
    for (uint32_t i = 0; i < N; ++i) rank_[rtn[i]] = i;
    auto pred_row = [&](uint32_t ei) { return rank_[graph.edges[ei].tail] + 1; };

    // Initialize (SimdAlignmentEngine::Initialize)
    auto first_col = [&](int32_t *fc, int32_t base, int32_t ext) {
        fc[0] = 0;
        for (uint32_t i = 1; i < rows; ++i) {
            const auto &in = graph.nodes[rtn[i - 1]].in;
            int32_t pen = in.empty() ? base : kNegInf;
            for (uint32_t ei : in) pen = std::max(pen, fc[pred_row(ei)]);
            fc[i] = pen + ext;
        }
    };
    if (convex) {
        for (uint32_t j = 0; j < L; ++j) O[j] = kNegInf, Q[j] = q + static_cast<int32_t>(j) * c;
        first_col(fcO, q - c, c);
    }
    if (affine) {
        for (uint32_t j = 0; j < L; ++j) F[j] = kNegInf, E[j] = g + static_cast<int32_t>(j) * e;
        first_col(fcF, g - e, e);
    }
    if (p_.type == kSW) {
        for (uint32_t j = 0; j < L; ++j) H[j] = 0;
        for (uint32_t i = 0; i < rows; ++i) fcH[i] = 0;
    } else {
        for (uint32_t j = 0; j < L; ++j)
            H[j] = convex ? std::max(E[j], Q[j]) : affine ? E[j] : g + static_cast<int32_t>(j) * g;
        if (p_.type == kOV) {
            for (uint32_t i = 0; i < rows; ++i) fcH[i] = 0;
        } else if (convex) {
            for (uint32_t i = 0; i < rows; ++i) fcH[i] = std::max(fcF[i], fcO[i]);
        } else if (affine) {
            for (uint32_t i = 0; i < rows; ++i) fcH[i] = fcF[i];
        } else {
            first_col(fcH, 0, g);
        }
    }

    // Fill, row by row in rank order.
    int32_t max_score = p_.type == kSW ? 0 : kNegInf;
    int64_t max_i = -1;
    int32_t *H1 = H1_.data();
    for (uint32_t i = 1; i < rows; ++i) {
        if ((i & 255) == 0 && cancel && cancel->load(std::memory_order_relaxed)) {
            cancelled_ = true;
            return false;
        }
        const Graph::Node &node = graph.nodes[rtn[i - 1]];
        const int32_t *prof = &prof_[static_cast<size_t>(node.code) * Lw];
        int32_t *Hr = H + i * Lw;
        // Predecessors: the first one writes, the others take the maximum (branch-free
        // loops that the compiler vectorizes; column 0 reads the first column apart).
        size_t np = node.in.empty() ? 1 : node.in.size();
        for (size_t pi = 0; pi < np; ++pi) {
            uint64_t pr = node.in.empty() ? 0 : pred_row(node.in[pi]);
            const int32_t *__restrict Hp = H + pr * Lw;
            int32_t *__restrict D = H1;
            const bool first = pi == 0;
            if (!affine) {  // linear: diagonal and vertical at once
                int32_t v0 = std::max(fcH[pr] + prof[0], Hp[0] + g);
                D[0] = first ? v0 : std::max(D[0], v0);
                if (first)
                    for (uint32_t j = 1; j < L; ++j) D[j] = std::max(Hp[j - 1] + prof[j], Hp[j] + g);
                else
                    for (uint32_t j = 1; j < L; ++j) D[j] = std::max(D[j], std::max(Hp[j - 1] + prof[j], Hp[j] + g));
                continue;
            }
            int32_t d0 = fcH[pr] + prof[0];
            D[0] = first ? d0 : std::max(D[0], d0);
            if (first)
                for (uint32_t j = 1; j < L; ++j) D[j] = Hp[j - 1] + prof[j];
            else
                for (uint32_t j = 1; j < L; ++j) D[j] = std::max(D[j], Hp[j - 1] + prof[j]);
            int32_t *__restrict Fr = F + i * Lw;
            const int32_t *__restrict Fp = F + pr * Lw;
            if (first)
                for (uint32_t j = 0; j < L; ++j) Fr[j] = std::max(Hp[j] + (g - e), Fp[j]) + e;
            else
                for (uint32_t j = 0; j < L; ++j) Fr[j] = std::max(Fr[j], std::max(Hp[j] + (g - e), Fp[j]) + e);
            if (convex) {
                int32_t *__restrict Or = O + i * Lw;
                const int32_t *__restrict Op = O + pr * Lw;
                if (first)
                    for (uint32_t j = 0; j < L; ++j) Or[j] = std::max(Hp[j] + (q - c), Op[j]) + c;
                else
                    for (uint32_t j = 0; j < L; ++j) Or[j] = std::max(Or[j], std::max(Hp[j] + (q - c), Op[j]) + c);
            }
        }
        int32_t row_max = 0;  // _mmxxx_max_value starts at 0
        if (!affine) {
            int32_t carry = fcH[i] + g;
            for (uint32_t j = 0; j < L; ++j) {
                int32_t hu = std::max(H1[j], carry);
                carry = hu + g;
                Hr[j] = p_.type == kSW ? std::max(hu, 0) : hu;
                row_max = std::max(row_max, Hr[j]);
            }
        } else if (!convex) {
            int32_t *Fr = F + i * Lw, *Er = E + i * Lw;
            int32_t hprev = fcH[i], eprev = 0;
            for (uint32_t j = 0; j < L; ++j) {
                int32_t h1 = std::max(H1[j], Fr[j]);
                int32_t ev = j == 0 ? hprev + g : std::max(hprev + g, eprev + e);
                int32_t hu = std::max(h1, ev);
                Er[j] = ev;
                hprev = hu, eprev = ev;
                Hr[j] = p_.type == kSW ? std::max(hu, 0) : hu;
                row_max = std::max(row_max, Hr[j]);
            }
        } else {
            // Convex: E and Q lane block by lane block (lib/poa.h).
            int32_t *Fr = F + i * Lw, *Or = O + i * Lw, *Er = E + i * Lw, *Qr = Q + i * Lw;
            for (uint32_t j = 0; j < L; ++j) H1[j] = std::max(H1[j], std::max(Fr[j], Or[j]));
            int32_t cx = fcH[i], cy = fcH[i];
            for (uint32_t b = 0; b < L; b += W) {
                uint32_t end = std::min<uint32_t>(L, b + W);
                for (uint32_t j = b; j < end; ++j) {
                    int32_t ei = (j == b ? cx : H1[j - 1]) + (g - e) + e;
                    int32_t qi = (j == b ? cy : H1[j - 1]) + (q - c) + c;
                    Er[j] = j == b ? ei : std::max(ei, Er[j - 1] + e);
                    Qr[j] = j == b ? qi : std::max(qi, Qr[j - 1] + c);
                }
                int32_t hu = 0;
                for (uint32_t j = b; j < end; ++j) {
                    hu = std::max(H1[j], std::max(Er[j], Qr[j]));
                    Hr[j] = p_.type == kSW ? std::max(hu, 0) : hu;
                    row_max = std::max(row_max, Hr[j]);
                }
                cx = std::max(hu, Er[end - 1] - (g - e));
                cy = std::max(hu, Qr[end - 1] - (q - c));
            }
        }
        bool sink = node.out.empty();
        if (p_.type == kSW || (p_.type == kOV && sink)) {
            if (max_score < row_max) max_score = row_max, max_i = i;
        } else if (p_.type == kNW && sink) {
            if (max_score < Hr[L - 1]) max_score = Hr[L - 1], max_i = i;
        }
    }
    if (max_i < 0) return true;
    if (score) *score = max_score;
    int64_t max_j = L - 1;
    if (p_.type != kNW) {  // _mmxxx_index_of: the first column holding the score, or -1
        max_j = -1;
        const int32_t *Hr = H + static_cast<uint64_t>(max_i) * Lw;
        for (uint32_t j = 0; j < L; ++j)
            if (Hr[j] == max_score) {
                max_j = j;
                break;
            }
    }

    // Backtrack (SimdAlignmentEngine's, cell by cell).
    auto at = [&](const int32_t *M, int64_t i, int64_t j) { return M[static_cast<uint64_t>(i) * Lw + j]; };
    int64_t i = max_i, j = max_j, prev_i = 0, prev_j = 0;
    std::vector<uint32_t> preds;
    Graph::Alignment &aln = *out;
    while (true) {
        if (j == -1 || i == 0) break;
        const Graph::Node &node = graph.nodes[rtn[i - 1]];
        preds.clear();
        if (node.in.empty()) preds.push_back(0);
        for (uint32_t ei : node.in) preds.push_back(pred_row(ei));
        int32_t h = at(H, i, j);
        if (p_.type == kSW && h == 0) break;
        bool found = false, extend_left = false, extend_up = false;
        int32_t pc = prof_[static_cast<size_t>(node.code) * Lw + j];
        for (uint32_t pr : preds)
            if (h == (j == 0 ? fcH[pr] : at(H, pr, j - 1)) + pc) {
                prev_i = pr, prev_j = j - 1, found = true;
                break;
            }
        if (!found)
            for (uint32_t pr : preds) {
                int32_t hp = at(H, pr, j);
                bool hit;
                if (!affine)
                    hit = h == hp + g;
                else if (!convex)
                    hit = (extend_up = h == at(F, pr, j) + e) || h == hp + g;
                else
                    hit = (extend_up = h == at(F, pr, j) + e) || h == hp + g ||
                          (extend_up = h == at(O, pr, j) + c) || h == hp + q;
                if (hit) {
                    prev_i = pr, prev_j = j, found = true;
                    break;
                }
            }
        if (!found) {
            int32_t hl = j == 0 ? fcH[i] : at(H, i, j - 1);
            bool hit;
            if (!affine) {
                hit = h == hl + g;
            } else {
                int32_t el = j == 0 ? fcH[i] : at(E, i, j - 1);
                if (!convex) {
                    hit = (extend_left = h == el + e) || h == hl + g;
                } else {
                    int32_t ql = j == 0 ? fcH[i] : at(Q, i, j - 1);
                    hit = (extend_left = h == el + e) || h == hl + g || (extend_left = h == ql + c) || h == hl + q;
                }
            }
            if (hit) prev_i = i, prev_j = j - 1, found = true;
        }
        if (!found) return false;  // SPOA would reuse the previous step's move
        aln.emplace_back(i == prev_i ? -1 : static_cast<int32_t>(node.id), j == prev_j ? -1 : static_cast<int32_t>(j));
        i = prev_i, j = prev_j;
        if (extend_left) {
            while (true) {
                aln.emplace_back(-1, static_cast<int32_t>(j));
                --j;
                if (j == -1 || at(E, i, j) + e != at(E, i, j + 1) || (convex && at(Q, i, j) + c != at(Q, i, j + 1)))
                    break;
            }
        } else if (extend_up) {
            while (true) {
                const Graph::Node &nd = graph.nodes[rtn[i - 1]];
                int32_t fv = at(F, i, j), ov = convex ? at(O, i, j) : 0;
                bool stop;
                prev_i = 0;
                if (!convex) {
                    stop = false;
                    for (uint32_t ei : nd.in) {
                        uint32_t pr = pred_row(ei);
                        if ((stop = fv == at(H, pr, j) + g) || fv == at(F, pr, j) + e) {
                            prev_i = pr;
                            break;
                        }
                    }
                } else {
                    stop = true;
                    for (uint32_t ei : nd.in) {
                        uint32_t pr = pred_row(ei);
                        if (fv == at(F, pr, j) + e || ov == at(O, pr, j) + c) {
                            prev_i = pr, stop = false;
                            break;
                        }
                    }
                    if (stop)
                        for (uint32_t ei : nd.in) {
                            uint32_t pr = pred_row(ei);
                            if (fv == at(H, pr, j) + g || ov == at(H, pr, j) + q) {
                                prev_i = pr;
                                break;
                            }
                        }
                }
                aln.emplace_back(static_cast<int32_t>(nd.id), -1);
                i = prev_i;
                if (stop || i == 0) break;
            }
        }
    }
    if (p_.type == kNW) {  // the backtrack stops on the first row or column
        while (i == 0 && j != -1) aln.emplace_back(-1, static_cast<int32_t>(j--));
        while (i != 0 && j == -1) {
            const Graph::Node &nd = graph.nodes[rtn[i - 1]];
            aln.emplace_back(static_cast<int32_t>(nd.id), -1);
            if (nd.in.empty()) {
                i = 0;
                continue;
            }
            bool moved = false;
            for (uint32_t ei : nd.in) {
                uint32_t pr = pred_row(ei);
                bool hit = !affine  ? fcH[i] == fcH[pr] + g
                           : !convex ? fcH[i] == fcH[pr] + e
                                     : fcF[i] == fcF[pr] + e || fcO[i] == fcO[pr] + c;
                if (hit) {
                    i = pr, moved = true;
                    break;
                }
            }
            if (!moved) return false;  // SPOA would loop forever
        }
    }
    std::reverse(aln.begin(), aln.end());
    return true;
}

}  // namespace poa
}  // namespace gale
