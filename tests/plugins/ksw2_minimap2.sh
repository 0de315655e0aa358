#!/usr/bin/env bash
# ksw2_minimap2.sh PLUGIN_DIR LIBGALE_DIR WORK_DIR SANITIZE
#
# The ksw2 plugin's real client: minimap2 2.24 built from its released sources with
# ksw2's three extension files (ksw2_extz2_sse.c, ksw2_extd2_sse.c, ksw2_exts2_sse.c)
# and their dispatcher (ksw2_dispatch.c) left out and gale-ksw2.so linked in their
# place must write byte for byte what Debian's minimap2 2.24 writes, for
#   -c            PAF with CIGAR, long reads with errors (minimap2's default scoring:
#                 ksw_extd2_sse),
#   -c -O4,4 -E2,2  the same with one gap cost (ksw_extz2_sse),
#   -a            SAM, long reads,
#   -ax splice    SAM, spliced reads (ksw_exts2_sse),
# on inputs generated from a seed printed below (ksw2_simreads.py; GALE_TEST_SEED
# replays a run).
#
# The sources: mappy 2.24's source distribution on PyPI carries minimap2 2.24's C
# files (the version Debian's minimap2 and libminimap2-dev build). It is downloaded at
# test time from the registry (https://pypi.org/simple/mappy/, the file on
# files.pythonhosted.org, its sha256 checked) into WORK_DIR and kept there for later
# runs; nothing of minimap2 is part of gale. Exit 77 (skip) only when the registry
# cannot be reached. Debian's minimap2 missing is a failure, not a skip.
# SANITIZE: meson's b_sanitize. Under a sanitizer minimap2's own code is compiled as
# usual (its races and leaks are not gale's to report) but linked with the sanitizer's
# runtime, which the instrumented plugin and libgale need; its runs leave out
# LeakSanitizer (tests/plugins/ksw2_calls.cpp checks the plugin's memory).
# Suite 'plugins'.
set -u
if [ $# -ne 4 ]; then
    echo "usage: $0 PLUGIN_DIR LIBGALE_DIR WORK_DIR SANITIZE" >&2
    exit 2
fi
plugin_dir=$(cd "$1" && pwd)
libgale_dir=$(cd "$2" && pwd)
mkdir -p "$3" || exit 1
work=$(cd "$3" && pwd)
sanitize=$4
here=$(cd "$(dirname "$0")" && pwd)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
cc=${CC:-cc}
tarball=$work/mappy-2.24.tar.gz
sha256=35a2fb73ef14173283d5abb31e7a318429e0330c3be95851df38dd83d4ff9af9

# -- the oracle: Debian's minimap2 2.24
if ! command -v minimap2 >/dev/null 2>&1; then
    echo "FAIL: Debian's minimap2 (apt package minimap2, 2.24) is not installed: nothing to compare with" \
        "(tools/setup-deps.sh installs it)" >&2
    exit 1
fi
ver=$(minimap2 --version 2>/dev/null)
if [ "$ver" != "2.24-r1122" ]; then
    echo "FAIL: minimap2 --version says '$ver', not 2.24-r1122 (Debian 12's minimap2 2.24)" >&2
    exit 1
fi

# -- the sources
have_tarball() {
    [ -f "$tarball" ] && [ "$(sha256sum "$tarball" | cut -d' ' -f1)" = "$sha256" ]
}
if ! have_tarball; then
    rm -f "$tarball"
    "$py" - "$tarball" "$sha256" <<'PY'
import hashlib, re, sys, urllib.request
out, want = sys.argv[1], sys.argv[2]
try:
    html = urllib.request.urlopen("https://pypi.org/simple/mappy/", timeout=60).read().decode()
except Exception as e:  # the registry cannot be reached
    print("SKIP: the package registry cannot be reached (https://pypi.org/simple/mappy/: %s); "
          "minimap2 2.24's sources come from mappy 2.24's sdist there" % e, file=sys.stderr)
    sys.exit(77)
m = re.search(r'href="(https://files\.pythonhosted\.org/[^"#]*/mappy-2\.24\.tar\.gz)(#[^"]*)?"', html)
if not m:
    print("FAIL: https://pypi.org/simple/mappy/ lists no mappy-2.24.tar.gz on files.pythonhosted.org", file=sys.stderr)
    sys.exit(1)
try:
    data = urllib.request.urlopen(m.group(1), timeout=120).read()
except Exception as e:
    print("SKIP: %s cannot be downloaded (%s)" % (m.group(1), e), file=sys.stderr)
    sys.exit(77)
got = hashlib.sha256(data).hexdigest()
if got != want:
    print("FAIL: %s has sha256 %s, not %s" % (m.group(1), got, want), file=sys.stderr)
    sys.exit(1)
open(out, "wb").write(data)
print("downloaded %s (%d bytes)" % (m.group(1), len(data)))
PY
    st=$?
    [ $st -eq 0 ] || exit $st
fi

# -- minimap2 with the plugin in place of ksw2's extension files
san_flags=""
case "$sanitize" in
none | "") ;;
*) san_flags="-fsanitize=$sanitize" ;;
esac
src=$work/mappy-2.24
rm -rf "$src" "$work/obj"
mkdir -p "$work/obj" || exit 1
tar -xzf "$tarball" -C "$work" || { echo "FAIL: cannot unpack $tarball" >&2; exit 1; }
for f in ksw2_extz2_sse.c ksw2_extd2_sse.c ksw2_exts2_sse.c ksw2_dispatch.c main.c align.c kalloc.c; do
    [ -f "$src/$f" ] || { echo "FAIL: $f is not in mappy 2.24's sdist" >&2; exit 1; }
done
# Makefile's OBJS but ksw2's extension files and their dispatcher (KSW_CPU_DISPATCH is
# left undefined: align.c calls ksw_ext*2_sse, which the plugin defines), plus main.c;
# its flags (-O2 -DHAVE_KALLOC; sse2 suffices for ksw2_ll_sse.c).
objs=""
pids=""
for f in kthread kalloc misc bseq sketch sdust options index lchain align hit seed map format pe esterr splitidx \
    ksw2_ll_sse main; do
    $cc -c -g -O2 -DHAVE_KALLOC -w "$src/$f.c" -o "$work/obj/$f.o" &
    pids="$pids $!"
    objs="$objs $work/obj/$f.o"
done
build_ok=1
for p in $pids; do wait "$p" || build_ok=0; done
[ $build_ok -eq 1 ] || { echo "FAIL: compiling minimap2 2.24's sources" >&2; exit 1; }
mm=$work/minimap2-gale
# shellcheck disable=SC2086
$cc $san_flags -o "$mm" $objs "$plugin_dir/gale-ksw2.so" -Wl,-rpath,"$plugin_dir:$libgale_dir" -lm -lz -lpthread ||
    { echo "FAIL: linking minimap2 with gale-ksw2.so" >&2; exit 1; }
# The extension functions come from the plugin, and the plugin sees minimap2's krealloc.
if nm "$mm" | grep -E ' [TtWw] ksw_ext[zds]2_sse' >&2; then
    echo "FAIL: minimap2-gale defines ksw2's extension functions itself" >&2
    exit 1
fi
nm -D "$mm" | grep -q ' T krealloc$' || { echo "FAIL: minimap2-gale does not export krealloc to the plugin" >&2; exit 1; }

# -- inputs
seed=${GALE_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "ksw2_minimap2: seed $seed (GALE_TEST_SEED=$seed replays it)"
data=$work/data
rm -rf "$data"
mkdir -p "$data"
"$py" "$here/ksw2_simreads.py" "$seed" "$data" || { echo "FAIL: ksw2_simreads.py" >&2; exit 1; }

# -- compare
fail=0
run_both() {  # NAME READS ARGS...
    name=$1
    reads=$2
    shift 2
    # argv[0] is "minimap2" for both: the SAM header's @PG CL: repeats the command line.
    (cd "$data" && exec -a minimap2 minimap2 "$@" -t 2 ref.fa "$reads" >"$name.debian" 2>"$name.debian.err")
    st1=$?
    (cd "$data" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        exec -a minimap2 "$mm" "$@" -t 2 ref.fa "$reads" >"$name.gale" 2>"$name.gale.err")
    st2=$?
    if [ $st1 -ne 0 ] || [ $st2 -ne 0 ]; then
        echo "FAIL: $name: exit status $st1 (Debian's minimap2), $st2 (with the plugin)" >&2
        tail -5 "$data/$name.gale.err" >&2
        fail=1
        return
    fi
    if ! cmp -s "$data/$name.debian" "$data/$name.gale"; then
        echo "FAIL: $name: minimap2 $* differs with the plugin (first differences, < Debian, > plugin):" >&2
        diff "$data/$name.debian" "$data/$name.gale" | head -10 | cut -c1-400 >&2
        fail=1
        return
    fi
    echo "ok: $name: minimap2 $* identical ($(wc -l <"$data/$name.debian") lines)"
}
run_both paf long.fa -c
run_both paf_extz2 long.fa -c -O4,4 -E2,2
run_both sam long.fa -a
run_both splice splice.fa -ax splice

# -- the comparisons compared something: alignments with CIGARs, gaps, introns
if [ $fail -eq 0 ]; then
    awk -F'\t' '$0 ~ /\tcg:Z:/ { n++ } END { if (n < 200) { print "FAIL: only " n+0 " PAF lines with a CIGAR"; exit 1 } }' \
        "$data/paf.debian" >&2 || fail=1
    awk -F'\t' '!/^@/ && $6 ~ /[ID]/ { n++ } END { if (n < 200) { print "FAIL: only " n+0 " SAM records with gaps"; exit 1 } }' \
        "$data/sam.debian" >&2 || fail=1
    awk -F'\t' '!/^@/ && $6 ~ /N/ { n++ } END { if (n < 150) { print "FAIL: only " n+0 " spliced SAM records"; exit 1 } }' \
        "$data/splice.debian" >&2 || fail=1
fi
[ $fail -eq 0 ] && echo "ksw2_minimap2: minimap2 2.24 with gale-ksw2.so equals Debian's minimap2 2.24"
exit $fail
