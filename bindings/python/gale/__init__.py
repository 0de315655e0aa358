"""gale: batched sequence alignment on NVIDIA GPUs, with an exact CPU backend.

One call aligns a whole batch::

    import gale
    res = gale.align_pairs(["ACGTTA", "GATTACA"], ["ACGTA", "GATCACA"], kind="wfa")
    res.score            # numpy int64 array, one score per pair (WFA: minus the penalty)
    res.cigar_strings()  # ['4=1D1=', '3=1X3=']

Sequences come as lists of ``str``/``bytes`` or, without one Python object per
sequence, as ``(data, offsets)``: one numpy ``uint8`` buffer and ``n + 1`` int64
offsets (Arrow's layout; sequence ``i`` is ``data[offsets[i]:offsets[i+1]]``).
Parameters are keyword arguments named as the C API names them
(:func:`params` lists them with their bounds). Results are a numpy structured
array plus BAM-style CIGARs (``uint32`` ops with int64 offsets).

Everything here is a thin layer over gale's public C API (gale.h); the names of
kinds, parameters and their bounds come from the library itself.
"""
from __future__ import annotations

import concurrent.futures
import sys
import threading
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _gale

__all__ = [
    "Alignment", "Alignments", "Context", "Future", "GaleError", "GaleValueError", "GaleMemoryError",
    "GaleCancelledError", "Param", "align_pairs", "cuda_device_count", "default_context", "features",
    "kinds", "params", "__version__",
]

#: Version of the libgale this package runs on.
__version__: str = _gale.version_string()

# ---- errors ----------------------------------------------------------------------

_STATUS_NAMES: Dict[int, str] = {
    getattr(_gale, n): "GALE_" + n for n in dir(_gale) if n == "OK" or n.startswith("E_")
}


class GaleError(Exception):
    """A gale call failed. ``status`` is the C status code (``GALE_E_*``),
    ``status_name`` its name and ``message`` the library's own explanation
    (it names the pair and the position where one is at fault)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.status_name = _STATUS_NAMES.get(status, str(status))
        self.message = message

    def __str__(self) -> str:
        return f"{self.message} ({self.status_name})"


class GaleValueError(GaleError, ValueError):
    """Bad input or parameter (GALE_E_INVALID, GALE_E_RANGE, GALE_E_INPUT, GALE_E_LIMIT)."""


class GaleMemoryError(GaleError, MemoryError):
    """Host or device memory exhausted (GALE_E_NOMEM)."""


class GaleCancelledError(GaleError, concurrent.futures.CancelledError):
    """The batch was cancelled (GALE_E_CANCELED)."""


_ERROR_CLASSES = {
    _gale.E_INVALID: GaleValueError, _gale.E_RANGE: GaleValueError, _gale.E_INPUT: GaleValueError,
    _gale.E_LIMIT: GaleValueError, _gale.E_NOMEM: GaleMemoryError, _gale.E_CANCELED: GaleCancelledError,
}


def _make_error(status: int, message: str) -> GaleError:
    return _ERROR_CLASSES.get(status, GaleError)(status, message)


_gale._set_error_factory(_make_error)

# ---- kinds and parameters ---------------------------------------------------------


class Param(NamedTuple):
    """A kind's parameter as the library describes it (gale_param_bounds)."""
    id: int
    name: str
    lower: int
    upper: int
    default: int


def _discover_kinds() -> Dict[str, int]:
    # Kind ids are small pinned integers; the library names the ones it has.
    out = {}
    for k in range(1, 256):
        name = _gale.kind_name(k)
        if name:
            out[name] = k
    return out


_KINDS: Dict[str, int] = _discover_kinds()
_PARAMS: Dict[int, Dict[str, Param]] = {
    k: {p[1]: Param(*p) for p in _gale.kind_params(k)} for k in _KINDS.values()
}

# Named values of the enumerated parameters (the ints are accepted too).
_ENUMS: Dict[str, Dict[str, int]] = {
    "scope": {"score": _gale.SCOPE_SCORE, "alignment": _gale.SCOPE_ALIGNMENT},
    "direction": {"left": _gale.DIR_LEFT, "right": _gale.DIR_RIGHT, "both": _gale.DIR_BOTH},
    "n_policy": {"dna5": _gale.N_DNA5, "mismatch": _gale.N_MISMATCH, "bytes": _gale.N_BYTES},
}


def kinds() -> Dict[str, int]:
    """The kinds this libgale has, name -> id (e.g. ``{'xdrop': 1, 'wfa': 2, 'edit': 3}``)."""
    return dict(_KINDS)


def _kind_id(kind: Union[str, int]) -> int:
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"unknown kind {kind!r}; this libgale has {sorted(_KINDS)}")
        return _KINDS[kind]
    if kind not in _PARAMS:
        raise ValueError(f"unknown kind id {kind!r}; this libgale has {_KINDS}")
    return int(kind)


def params(kind: Union[str, int]) -> Dict[str, Param]:
    """A kind's parameters, name -> :class:`Param` (id, bounds, default)."""
    return dict(_PARAMS[_kind_id(kind)])


def features() -> Dict[str, bool]:
    """What this libgale was built with: ``{'cpu': True, 'cuda': ..., 'dpx': ...}``."""
    f = _gale.features()
    return {"cpu": bool(f & _gale.FEATURE_CPU), "cuda": bool(f & _gale.FEATURE_CUDA),
            "dpx": bool(f & _gale.FEATURE_DPX)}


def cuda_device_count() -> int:
    """CUDA devices present (0 without the CUDA backend or without a GPU)."""
    return _gale.cuda_device_count()


def _param_value(kind_name: str, p: Param, value: Any) -> int:
    if isinstance(value, str):
        names = _ENUMS.get(p.name)
        if names is None or value not in names:
            choices = f" (one of {sorted(names)} or an int)" if names else ""
            raise ValueError(f"{kind_name} parameter {p.name}: {value!r} is not a value{choices}")
        return names[value]
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    raise TypeError(f"{kind_name} parameter {p.name}: expected an int, got {type(value).__name__}")


# ---- inputs ----------------------------------------------------------------------

SequencesLike = Union[Sequence[Union[str, bytes]], Tuple[Any, Any]]


def _as_sequences(x: Any, what: str) -> Tuple[Any, np.ndarray]:
    """(data, offsets) for a list of str/bytes or an Arrow-style (data, offsets) pair.
    The data is passed to the library as it is (no copy) when it is a buffer."""
    if isinstance(x, tuple) and len(x) == 2 and not isinstance(x[0], str) and not isinstance(x[1], (str, bytes)):
        data, offsets = x
        if isinstance(data, np.ndarray):
            if data.dtype not in (np.uint8, np.int8) and data.dtype.kind != "S":
                raise TypeError(f"{what}: data must be a uint8 array, got dtype {data.dtype}")
            data = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
        elif not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"{what}: data must be bytes-like or a uint8 array, got {type(data).__name__}")
        off = np.asarray(offsets)
        if off.ndim != 1 or off.size < 1 or off.dtype.kind not in "iu":
            raise TypeError(f"{what}: offsets must be a 1-D integer array of n + 1 values "
                            f"(got dtype {off.dtype}, shape {off.shape})")
        return data, np.ascontiguousarray(off, dtype=np.int64)
    if isinstance(x, (str, bytes, bytearray)):
        raise TypeError(f"{what}: expected a list of sequences (or (data, offsets)), got one "
                        f"{type(x).__name__}; wrap it in a list")
    seqs = x if isinstance(x, list) else list(x)
    n = len(seqs)
    try:
        lens = np.fromiter(map(len, seqs), dtype=np.int64, count=n)
    except TypeError:
        _join_checked(seqs, what)  # names the element that is not a sequence
        raise
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lens, out=offsets[1:])
    try:
        if n and isinstance(seqs[0], str):
            data = "".join(seqs).encode("ascii")
        else:
            data = b"".join(seqs)
    except (TypeError, UnicodeEncodeError):
        data = _join_checked(seqs, what)
    if len(data) != offsets[-1]:  # a str with non-ASCII characters slipped through bytes' join
        data = _join_checked(seqs, what)
    return data, offsets


def _join_checked(seqs: Sequence[Any], what: str) -> bytes:
    parts = []
    for i, s in enumerate(seqs):
        if isinstance(s, str):
            try:
                parts.append(s.encode("ascii"))
            except UnicodeEncodeError as e:
                raise ValueError(f"{what}[{i}]: non-ASCII character {s[e.start]!r} at position {e.start}") from None
        elif isinstance(s, (bytes, bytearray, memoryview)):
            parts.append(bytes(s))
        else:
            raise TypeError(f"{what}[{i}]: expected str or bytes, got {type(s).__name__}")
    return b"".join(parts)


def _as_seeds(seeds: Any, n: int) -> np.ndarray:
    s = np.asarray(seeds)
    if s.dtype.kind not in "iu":
        raise TypeError(f"seeds: expected integers, got dtype {s.dtype}")
    if s.ndim != 2 or s.shape[0] != n or s.shape[1] not in (3, 4):
        raise ValueError(f"seeds: expected shape ({n}, 4) (h_begin, h_end, v_begin, v_end) or ({n}, 3) "
                         f"(h_begin, v_begin, length), got {s.shape}")
    s = s.astype(np.int64, copy=False)
    if s.shape[1] == 3:
        s = np.stack([s[:, 0], s[:, 0] + s[:, 2], s[:, 1], s[:, 1] + s[:, 2]], axis=1)
    return np.ascontiguousarray(s)


# ---- results ---------------------------------------------------------------------

#: numpy dtype of one result: gale_result's fields at their compiled offsets.
RESULT_DTYPE = np.dtype({
    "names": [f[0] for f in _gale.RESULT_FIELDS],
    "formats": [f[2] for f in _gale.RESULT_FIELDS],
    "offsets": [f[1] for f in _gale.RESULT_FIELDS],
    "itemsize": _gale.RESULT_SIZE,
})

#: Result flags (GALE_RF_*).
RF_RESCUED: int = _gale.RF_RESCUED
RF_LOWMEM: int = _gale.RF_LOWMEM
RF_CPU: int = _gale.RF_CPU
#: A task of a cancelled batch that did not run to its end (gale.h, gale_cancel; the
#: package raises GaleCancelledError for a cancelled batch instead of returning results).
RF_CANCELED: int = _gale.RF_CANCELED
#: WFA under a heuristic (parameter "heuristic", gale/wfa.h GALE_P_WFA_HEURISTIC; since 0.7):
#: every path was cut, no alignment.
RF_UNFEASIBLE: int = _gale.RF_UNFEASIBLE


class Alignment(NamedTuple):
    """One pair's result (see gale.h, gale_result)."""
    score: int
    h_begin: int
    h_end: int
    v_begin: int
    v_end: int
    score_left: int
    score_right: int
    flags: int
    cells: int
    cigar: Optional[str]


class Alignments:
    """The results of one batch, in input order.

    ``records`` is a numpy structured array (:data:`RESULT_DTYPE`: score,
    h_begin, h_end, v_begin, v_end, score_left, score_right, flags, cells,
    user); each field is also an attribute (``res.score``). ``cigar_ops`` and
    ``cigar_offsets`` hold the CIGARs BAM-style (op = length << 4 | code, codes
    as htslib's; pair i's are ``cigar_ops[cigar_offsets[i]:cigar_offsets[i+1]]``)
    or are None for a kind or scope without one. ``stats`` is gale_batch_stats
    summed over the batch's parts."""

    def __init__(self, kind: str, backend: str, records: np.ndarray, cigar_ops: Optional[np.ndarray],
                 cigar_offsets: Optional[np.ndarray], stats: Dict[str, int]):
        self.kind = kind
        self.backend = backend
        self.records = records
        self.cigar_ops = cigar_ops
        self.cigar_offsets = cigar_offsets
        self.stats = stats

    def __len__(self) -> int:
        return len(self.records)

    def __getattr__(self, name: str) -> np.ndarray:
        if name != "records" and name in RESULT_DTYPE.names:
            return self.records[name]
        raise AttributeError(f"'Alignments' has no attribute {name!r}")

    def cigar(self, i: int) -> Optional[str]:
        """Pair i's CIGAR as SAM text ('*' when empty), or None without CIGARs."""
        if self.cigar_ops is None:
            return None
        i = range(len(self))[i]  # negative indices and bounds as a list's
        a, b = int(self.cigar_offsets[i]), int(self.cigar_offsets[i + 1])
        return _gale.cigar_strings(self.cigar_ops[a:b], np.array([0, b - a], dtype=np.int64))[0]

    def cigar_strings(self) -> Optional[List[str]]:
        """Every CIGAR as SAM text (computed in C), or None without CIGARs."""
        if self.cigar_ops is None:
            return None
        return _gale.cigar_strings(self.cigar_ops, self.cigar_offsets)

    def __getitem__(self, i: int) -> Alignment:
        r = self.records[i]
        return Alignment(int(r["score"]), int(r["h_begin"]), int(r["h_end"]), int(r["v_begin"]),
                         int(r["v_end"]), int(r["score_left"]), int(r["score_right"]), int(r["flags"]),
                         int(r["cells"]), self.cigar(i))

    def __iter__(self) -> Iterator[Alignment]:
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        n = len(self)
        head = f"<gale.Alignments kind={self.kind} n={n} backend={self.backend}"
        if n:
            s = self.records["score"]
            head += f" score min/mean/max={int(s.min())}/{float(s.mean()):.1f}/{int(s.max())}"
        head += f" cigars={'yes' if self.cigar_ops is not None else 'no'}"
        head += f" rescued={self.stats.get('rescued', 0)} cells={self.stats.get('cells', 0)}>"
        return head


# ---- running batches --------------------------------------------------------------

_BACKEND_NAMES = {_gale.BACKEND_CPU: "cpu", _gale.BACKEND_CUDA: "cuda", _gale.BACKEND_AUTO: "auto"}
_BACKENDS = {"auto": _gale.BACKEND_AUTO, "cpu": _gale.BACKEND_CPU, "cuda": _gale.BACKEND_CUDA}

ProgressLike = Union[None, bool, Callable[[int, int], Any], Any]


def _progress_sink(progress: ProgressLike, total: int) -> Tuple[Optional[Callable[[int], None]], Callable[[], None]]:
    """(report(done), close()) for the progress argument: a callable(done, total), a
    tqdm-like object with update(n), or True (tqdm when installed, else a line on stderr)."""
    if progress is None or progress is False:
        return None, lambda: None
    if progress is True:
        try:
            from tqdm import tqdm  # type: ignore
            progress = tqdm(total=total, unit="aln", unit_scale=True)
            bar = progress
            return _progress_sink(bar, total)[0], bar.close
        except ImportError:
            def line(done: int) -> None:
                sys.stderr.write(f"\rgale: {done}/{total} pairs ({100.0 * done / max(total, 1):.0f}%)")
                sys.stderr.flush()
            return line, lambda: sys.stderr.write("\n")
    if hasattr(progress, "update") and not callable(progress):
        last = [0]
        bar = progress

        def upd(done: int) -> None:
            bar.update(done - last[0])
            last[0] = done
        return upd, lambda: None
    if callable(progress):
        cb = progress
        return (lambda done: cb(done, total)), lambda: None
    raise TypeError("progress must be None, True, a callable(done, total) or an object with update(n)")


class _Prepared(NamedTuple):
    kind: int
    hd: Any            # h bases (a buffer) and n + 1 int64 offsets
    ho: np.ndarray
    vd: Any
    vo: np.ndarray
    sd: Optional[np.ndarray]  # (n, 4) seeds or None
    values: List[Tuple[int, int]]  # (parameter id, value)
    n: int


class _Part:
    __slots__ = ("batch", "first", "n")

    def __init__(self, batch: Any, first: int, n: int):
        self.batch, self.first, self.n = batch, first, n


class Context:
    """A gale context: a backend (CPU threads, or CUDA devices) that runs batches.

    backend: 'auto' (CUDA when built in and a GPU is present, else CPU), 'cpu' or 'cuda'.
    device: CUDA device index; devices: a list of indices (one context on several
    GPUs) or -1 for all; threads: CPU worker threads (0: one per core);
    device_memory: bytes of device memory per device entry (0: the library's default).

    A context may be used from several threads at once; each call runs its own
    batch. Use it as a context manager, or call close()."""

    def __init__(self, backend: Union[str, int] = "auto", *, device: int = 0,
                 devices: Optional[Union[int, Sequence[int]]] = None, threads: int = 0, device_memory: int = 0):
        b = _BACKENDS.get(backend, backend) if isinstance(backend, str) else backend
        if b not in _BACKEND_NAMES:
            raise ValueError(f"backend must be one of {sorted(_BACKENDS)}, got {backend!r}")
        self._ctx = _gale.Context(b, device, threads, device_memory, devices)

    # -- properties
    @property
    def backend(self) -> str:
        """'cpu' or 'cuda': what the context runs on."""
        return _BACKEND_NAMES[self._ctx.backend()]

    @property
    def threads(self) -> int:
        return self._ctx.threads()

    @property
    def devices(self) -> Tuple[int, ...]:
        """CUDA device indices, one per device entry (empty on the CPU)."""
        return self._ctx.devices() if self._ctx.backend() == _gale.BACKEND_CUDA else ()

    def close(self) -> None:
        """Destroys the context now (batches in flight are cancelled)."""
        self._ctx.close()

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        if self._ctx.closed:
            return "<gale.Context closed>"
        dev = f" devices={list(self.devices)}" if self.backend == "cuda" else ""
        return f"<gale.Context backend={self.backend}{dev} threads={self.threads}>"

    # -- batches
    def _prepare(self, kind: Union[str, int], h: SequencesLike, v: SequencesLike, seeds: Any,
                 params: Dict[str, Any]) -> "_Prepared":
        """The call's inputs as buffers and its parameters as (id, value), checked once
        for all the batches (parts) that run them."""
        k = _kind_id(kind)
        hd, ho = _as_sequences(h, "targets (h)")
        vd, vo = _as_sequences(v, "queries (v)")
        n = len(ho) - 1
        if len(vo) - 1 != n:
            raise ValueError(f"got {n} h sequences but {len(vo) - 1} v sequences: they pair up one to one")
        sd = _as_seeds(seeds, n) if seeds is not None else None
        specs = _PARAMS[k]
        values = []
        for name, value in params.items():
            p = specs.get(name)
            if p is None:
                raise TypeError(f"kind {_gale.kind_name(k)} has no parameter {name!r}; "
                                f"its parameters: {', '.join(specs)}")
            values.append((p.id, _param_value(_gale.kind_name(k), p, value)))
        return _Prepared(k, hd, ho, vd, vo, sd, values, n)

    def _start(self, prep: "_Prepared", first: int = 0, count: Optional[int] = None) -> _Part:
        """A batch of pairs [first, first + count) of prep (default: to the end), submitted."""
        if count is None:
            count = prep.n - first
        b = _gale.Batch(self._ctx, prep.kind)
        for pid, val in prep.values:
            b.set(pid, val)
        b.add_pairs(prep.hd, prep.ho[first:first + count + 1], prep.vd, prep.vo[first:first + count + 1],
                    prep.sd[first:first + count] if prep.sd is not None else None, first)
        b.submit()
        return _Part(b, first, count)

    def _finish(self, kind: int, parts: List[_Part]) -> Alignments:
        """Waits for the parts, copies their results and CIGARs out and destroys them."""
        n = sum(p.n for p in parts)
        records = np.empty(n, dtype=RESULT_DTYPE)
        with_cigar = bool(parts) and "scope" in _PARAMS[kind] and \
            parts[0].batch.get(_gale.P_SCOPE) == _gale.SCOPE_ALIGNMENT
        ops_list, off_list = [], []
        base = 0
        stats = {"tasks": 0, "cells": 0, "rescued": 0, "kernel_ns": 0, "elapsed_ns": 0}
        pos = 0
        for p in parts:
            p.batch.poll(-1)
            p.batch.results_into(records[pos:pos + p.n])
            if with_cigar:
                ops, off = p.batch.cigars(0, p.n)
                ops_list.append(np.frombuffer(ops, dtype=np.uint32))
                off = np.frombuffer(off, dtype=np.int64)
                if base:
                    off = off + base  # the parts' CIGARs follow one another
                off_list.append(off)
                base += len(ops_list[-1])
            for key, val in p.batch.stats().items():
                stats[key] += val
            p.batch.close()
            pos += p.n
        cigar_ops = cigar_offsets = None
        if with_cigar:
            if len(ops_list) == 1:  # one part (no progress): its arrays as they are, no copy
                cigar_ops, cigar_offsets = ops_list[0], off_list[0]
            else:
                cigar_ops = np.concatenate(ops_list)
                cigar_offsets = np.concatenate([o[:-1] for o in off_list] + [np.array([base], dtype=np.int64)])
        return Alignments(_gale.kind_name(kind), self.backend, records, cigar_ops, cigar_offsets, stats)

    def align(self, kind: Union[str, int], h: SequencesLike, v: SequencesLike, seeds: Any = None, *,
              progress: ProgressLike = None, chunk_size: Optional[int] = None, **params: Any) -> Alignments:
        """Aligns h[i] with v[i] for every i with `kind` and returns the results in
        input order. h is the text / reference / SeqAn's horizontal sequence, v the
        pattern / query; seeds (X-drop) are (n, 4): h_begin, h_end, v_begin, v_end.
        Waiting releases the GIL.

        progress: None, True (a tqdm bar when tqdm is installed), a callable(done,
        total) or a tqdm-like object; the batch then runs in parts of chunk_size
        pairs (default: a twentieth, at least 4096), two in flight at a time."""
        prep = self._prepare(kind, h, v, seeds, params)
        if progress is None or progress is False or prep.n == 0:
            return self._finish(prep.kind, [self._start(prep)])
        n = prep.n
        size = chunk_size or max(4096, -(-n // 20))
        if size < 1:
            raise ValueError("chunk_size must be >= 1")
        report, close = _progress_sink(progress, n)
        parts: List[_Part] = []
        pending: List[_Part] = []
        try:
            done = 0
            for first in range(0, n, size):
                pending.append(self._start(prep, first, min(size, n - first)))
                if len(pending) == 2:
                    p = pending.pop(0)
                    p.batch.poll(-1)
                    parts.append(p)
                    done += p.n
                    report(done)
            for p in pending:
                p.batch.poll(-1)
                parts.append(p)
                done += p.n
                report(done)
        except BaseException:
            for p in parts + pending:
                p.batch.cancel()
            raise
        finally:
            close()
        return self._finish(prep.kind, parts)

    def submit(self, kind: Union[str, int], h: SequencesLike, v: SequencesLike, seeds: Any = None,
               **params: Any) -> "Future":
        """As align(), but returns at once with a :class:`Future`."""
        prep = self._prepare(kind, h, v, seeds, params)
        return Future(self, prep.kind, self._start(prep))

    def xdrop(self, h: SequencesLike, v: SequencesLike, seeds: Any, **kw: Any) -> Alignments:
        """Gapped X-drop seed extension, SeqAn 2.4's semantics (BELLA/LOGAN): h is the
        horizontal ("database") sequence, v the vertical ("query") one, seeds (n, 4)
        h_begin, h_end, v_begin, v_end (or (n, 3) h_begin, v_begin, length).
        Parameters: match, mismatch, gap, xdrop, direction, n_policy."""
        return self.align("xdrop", h, v, seeds, **kw)

    def wfa(self, patterns: SequencesLike, texts: SequencesLike, **kw: Any) -> Alignments:
        """Gap-affine (or two-piece) wavefront alignment, WFA2-lib's scores: pattern
        i (the query, v) against text i (the reference, h). score is minus the
        penalty. Parameters: mismatch_penalty, gap_open_penalty, gap_extend_penalty,
        gap_open2_penalty, gap_extend2_penalty, scope ('alignment' or 'score'), the
        four *_free ends, memory_limit_mib, expected_error, n_policy."""
        return self.align("wfa", texts, patterns, **kw)

    def edit(self, patterns: SequencesLike, texts: SequencesLike, **kw: Any) -> Alignments:
        """Edit (Levenshtein) distance by wavefronts; score is the distance."""
        return self.align("edit", texts, patterns, **kw)


class Future:
    """A batch in flight (Context.submit). result() waits (releasing the GIL) and
    returns the :class:`Alignments`; cancel() asks the batch to stop."""

    def __init__(self, ctx: Context, kind: int, part: _Part):
        self._ctx, self._kind, self._part = ctx, kind, part
        self._lock = threading.Lock()
        self._result: Optional[Alignments] = None
        self._cancelled = False

    def done(self) -> bool:
        """True once the batch finished, failed or was cancelled."""
        if self._result is not None:
            return True
        try:
            return bool(self._part.batch.poll(0))
        except GaleError:
            return True

    def cancel(self) -> bool:
        """Asks the batch to stop; True unless it had already finished."""
        if self._result is not None:
            return False
        try:
            if self._part.batch.poll(0):
                return False
        except GaleCancelledError:
            return True
        except GaleError:
            return False
        self._part.batch.cancel()
        self._cancelled = True
        return True

    def cancelled(self) -> bool:
        if not self._cancelled or self._result is not None:
            return False
        try:
            self._part.batch.poll(0)
            return False
        except GaleCancelledError:
            return True
        except GaleError:
            return False

    def result(self, timeout: Optional[float] = None) -> Alignments:
        """The results; raises TimeoutError when timeout (seconds) passes first,
        GaleCancelledError after cancel(), GaleError when the batch failed."""
        ms = -1 if timeout is None else max(0, int(timeout * 1000))
        with self._lock:
            if self._result is not None:
                return self._result
        if not self._part.batch.poll(ms):
            raise concurrent.futures.TimeoutError(f"gale batch not done after {timeout} s")
        with self._lock:
            if self._result is None:
                self._result = self._ctx._finish(self._kind, [self._part])
            return self._result

    def exception(self, timeout: Optional[float] = None) -> Optional[BaseException]:
        try:
            self.result(timeout)
            return None
        except GaleError as e:
            return e

    def __repr__(self) -> str:
        try:
            state = "done" if self.done() else "running"
        except RuntimeError:  # its context was closed
            state = "closed"
        return f"<gale.Future kind={_gale.kind_name(self._kind)} n={self._part.n} {state}>"


_default_lock = threading.Lock()
_default: Optional[Context] = None


def default_context() -> Context:
    """The context align_pairs() uses: created on first use, backend 'auto'."""
    global _default
    with _default_lock:
        if _default is None or _default._ctx.closed:
            _default = Context("auto")
        return _default


def align_pairs(patterns: SequencesLike, texts: SequencesLike, kind: str = "wfa", *, seeds: Any = None,
                context: Optional[Context] = None, progress: ProgressLike = None, **params: Any) -> Alignments:
    """Aligns patterns[i] (queries, v) with texts[i] (references, h) for every i in one
    batch, on the default context (the GPU when there is one) unless `context` is
    given. kind: 'wfa', 'edit' or 'xdrop' (which needs seeds). Keyword arguments are
    the kind's parameters (see params(kind))."""
    ctx = context or default_context()
    return ctx.align(kind, texts, patterns, seeds, progress=progress, **params)
