"""Every kind through Python against the `gale` CLI on the CPU backend, same pairs:
the CLI reads files and writes text, the package passes buffers and returns
arrays, and both must say the same. GALE_CLI names the program (meson sets it)."""
import os
import subprocess

import numpy as np
import pytest

from conftest import random_pairs, scaled

COMP = str.maketrans("ACGTacgtNn", "TGCAtgcaNn")


def cli():
    path = os.environ.get("GALE_CLI")
    if not path or not os.access(path, os.X_OK):
        pytest.fail(f"GALE_CLI={path!r} is not the gale program (meson sets it when the CLI is built)")
    return path


def run(args, tmp_path):
    out = subprocess.run([cli(), *args, "--backend", "cpu", "--threads", "2", "--quiet"], capture_output=True,
                         text=True, cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr
    return [line.split("\t") for line in out.stdout.splitlines()]


@pytest.mark.parametrize("opts,kw", [
    ([], {}),
    (["--mismatch", "3", "--gap-open", "5", "--gap-extend", "1"],
     dict(mismatch_penalty=3, gap_open_penalty=5, gap_extend_penalty=1)),
    (["--gap-open2", "24", "--gap-extend2", "1"], dict(gap_open2_penalty=24, gap_extend2_penalty=1)),
    (["--ends-free", "10,20,5,0"], dict(pattern_begin_free=10, pattern_end_free=20, text_begin_free=5)),
    (["--score-only"], dict(scope="score")),
    (["--edit"], "edit"),
])
def test_wfa_and_edit_equal_the_cli(ctx, rng, tmp_path, opts, kw):
    pats, texts = random_pairs(rng, scaled(300), 1200, n_rate=0.005)
    (tmp_path / "pairs.seq").write_text("".join(f">{p}\n<{t}\n" for p, t in zip(pats, texts)))
    rows = run(["wfa", *opts, "pairs.seq"], tmp_path)
    r = ctx.edit(pats, texts) if kw == "edit" else ctx.wfa(pats, texts, **kw)
    assert len(rows) == len(pats)
    cigars = r.cigar_strings()
    for i, row in enumerate(rows):
        assert int(row[0]) == i and int(row[1]) == r.score[i], (i, row)
        assert row[2] == (cigars[i] if cigars is not None else "*"), (i, row)


def test_xdrop_equals_the_cli(ctx, rng, tmp_path):
    k = 17
    lines, h, v, seeds = [], [], [], []
    for _ in range(scaled(400)):
        core = "".join(rng.choice("ACGT") for _ in range(rng.randrange(k, 1500)))
        hh = "".join(rng.choice("ACGT") for _ in range(rng.randrange(0, 200))) + core
        vv = "".join(rng.choice("ACGT") for _ in range(rng.randrange(0, 200)))
        vv += "".join(c if rng.random() > 0.12 else rng.choice("ACGT") for c in core)
        pos_h, pos_v = len(hh) - len(core), len(vv) - len(core)
        # the seed must match: copy it into v
        vv = vv[:pos_v] + hh[pos_h:pos_h + k] + vv[pos_v + k:]
        strand = rng.choice("nc")
        if strand == "c":
            # the CLI reverse-complements seqH and moves posH as BELLA does: give it
            # the reverse complement, and Python the strand the CLI will align
            file_h = hh.translate(COMP)[::-1]
            file_pos_h = len(hh) - pos_h - k
        else:
            file_h, file_pos_h = hh, pos_h
        lines.append(f"{vv}\t{pos_v}\t{file_h}\t{file_pos_h}\t{strand}\n")
        h.append(hh)
        v.append(vv)
        seeds.append((pos_h, pos_v, k))
    (tmp_path / "pairs.tsv").write_text("".join(lines))
    for x in (5, 50):
        rows = run(["xdrop", "-k", str(k), "-x", str(x), "pairs.tsv"], tmp_path)
        r = ctx.xdrop(h, v, np.array(seeds), xdrop=x)
        assert len(rows) == len(h)
        for i, row in enumerate(rows):
            want = [i, r.score_left[i], r.score_right[i], r.score[i], r.h_begin[i], r.h_end[i], r.v_begin[i],
                    r.v_end[i]]
            assert [int(c) for c in row] == want, (i, row)
