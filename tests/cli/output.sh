#!/usr/bin/env bash
# -o FILE replaces nothing but a regular file, for every subcommand and output
# format: a regular file (existing or new) is written to a temporary next to
# it and renamed over it only after a successful run, keeping an existing
# file's mode (and owner, as root); a new one gets 0666 & ~umask; a failed run
# leaves it untouched and no temporary behind. A symbolic link stays a link
# (its target gets the results, in place), a FIFO is written through (a reader
# gets the results), the null device stays a character device (as root a
# private node of it, see NULLDEV), /dev/stdout is the descriptor the shell
# set up, and a directory is refused.
#
#   output.sh GALE PAIRS_TSV WFA_SEQ
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
PAIRS=$2
SEQ=$3

# small inputs, good and failing (a bad last line or record)
head -n 20 "$PAIRS" > "$TMP/good.tsv"
{ cat "$TMP/good.tsv"; printf 'ACGT\t0\tACGT\t0\tx\n'; } > "$TMP/bad.tsv"
head -n 40 "$SEQ" > "$TMP/good.seq"
{ cat "$TMP/good.seq"; printf '>ACGT\n<AC!T\n'; } > "$TMP/bad.seq"

# the configurations: NAME, then the arguments before the input file
CONFIGS=("xdrop" "wfa-tsv" "wfa-sam" "wfa-paf")
args_of() {
    case $1 in
        xdrop) echo "xdrop -q" ;;
        wfa-tsv) echo "wfa -q" ;;
        wfa-sam) echo "wfa -q -F sam" ;;
        wfa-paf) echo "wfa -q -F paf" ;;
    esac
}
input_of() { # input_of CONFIG good|bad
    case $1 in xdrop) echo "$TMP/$2.tsv" ;; *) echo "$TMP/$2.seq" ;; esac
}
# SAM's @PG line holds the command line, which differs with -o
norm() { grep -v '^@PG' "$1"; }

# run CONFIG good|bad OUT: gale with -o OUT; sets RC, stderr in $TMP/stderr
run() {
    local a
    a=$(args_of "$1")
    # shellcheck disable=SC2086
    timeout 120 "$GALE" $a -o "$3" "$(input_of "$1" "$2")" > "$TMP/stdout" 2> "$TMP/stderr"
    RC=$?
}
# the file holds CONFIG's results (compared with what stdout gets)
holds_results() {
    norm "$2" > "$TMP/got.norm" 2> /dev/null || fail "$1: $2 cannot be read"
    same_file "$TMP/ref-$1.norm" "$TMP/got.norm" "$3"
}
mode_of() { stat -c %a "$1"; }
no_temp() { # no_temp DIR WHAT
    ! tmp_left "$1" || fail "$2: temporary file left in $1: $(ls "$1")"
}

IS_ROOT=0
[ "$(id -u)" -eq 0 ] && IS_ROOT=1
# The null device to write to. As root a gale that replaced it would replace
# the machine's /dev/null: root tests a private node of the same device
# (mknod), where it can make one; elsewhere /dev/null cannot be replaced.
NULLDEV=/dev/null
if [ "$IS_ROOT" -eq 1 ] && mknod "$TMP/null" c 1 3 2> /dev/null && echo probe > "$TMP/null" 2> /dev/null; then
    NULLDEV=$TMP/null
fi
echo "null device written to: $NULLDEV"

for c in "${CONFIGS[@]}"; do
    D=$TMP/$c
    mkdir "$D"
    # the reference: the same run to stdout
    # shellcheck disable=SC2046
    "$GALE" $(args_of "$c") "$(input_of "$c" good)" > "$TMP/ref-$c" 2> "$TMP/stderr" ||
        { cat "$TMP/stderr" >&2; fail "$c: the reference run failed"; }
    [ -s "$TMP/ref-$c" ] || fail "$c: empty reference"
    norm "$TMP/ref-$c" > "$TMP/ref-$c.norm"

    # ---- a new file: 0666 & ~umask
    for mask in 022 077; do
        rm -f "$D/new"
        (umask "$mask" && run "$c" good "$D/new" && exit "$RC") || fail "$c: -o new file (umask $mask) failed"
        [ -f "$D/new" ] && [ ! -L "$D/new" ] || fail "$c: -o new file: not a regular file"
        holds_results "$c" "$D/new" "$c: -o a new file holds the results (umask $mask)"
        want=$(printf '%o' $(( 0666 & ~0$mask )))
        [ "$(mode_of "$D/new")" = "$want" ] || fail "$c: new file has mode $(mode_of "$D/new"), expected $want (umask $mask)"
        pass "$c: a new file gets mode $want under umask $mask"
    done
    no_temp "$D" "$c: new file"

    # ---- an existing regular file: replaced, its mode kept
    for mode in 640 604 600; do
        echo old > "$D/reg"
        chmod "$mode" "$D/reg"
        (umask 022 && run "$c" good "$D/reg" && exit "$RC") || fail "$c: -o existing file failed"
        holds_results "$c" "$D/reg" "$c: an existing file (mode $mode) gets the results"
        [ "$(mode_of "$D/reg")" = "$mode" ] || fail "$c: the file's mode became $(mode_of "$D/reg"), was $mode"
        pass "$c: the existing file keeps mode $mode"
    done
    no_temp "$D" "$c: existing file"
    if [ "$IS_ROOT" -eq 1 ]; then
        echo old > "$D/owned"
        chown 65534:65534 "$D/owned"
        chmod 640 "$D/owned"
        run "$c" good "$D/owned"
        [ "$RC" -eq 0 ] || { cat "$TMP/stderr" >&2; fail "$c: -o a file of another user (as root)"; }
        [ "$(stat -c %u:%g:%a "$D/owned")" = "65534:65534:640" ] ||
            fail "$c: owner and mode became $(stat -c %u:%g:%a "$D/owned"), were 65534:65534:640"
        pass "$c: as root, a file of another user keeps its owner, group and mode"
    else
        echo old > "$D/ro"
        chmod 444 "$D/ro"
        run "$c" good "$D/ro"
        [ "$RC" -eq 1 ] && [ "$(cat "$D/ro")" = old ] || fail "$c: a read-only file was replaced (rc $RC)"
        grep -q -F "$D/ro" "$TMP/stderr" || fail "$c: read-only file: no message naming it"
        pass "$c: a read-only file is not replaced: $(head -n 1 "$TMP/stderr")"
    fi

    # ---- a failing run: the existing file untouched, no temporary, no new file
    echo old > "$D/keep"
    chmod 640 "$D/keep"
    inode=$(stat -c %i "$D/keep")
    run "$c" bad "$D/keep"
    [ "$RC" -eq 1 ] || { cat "$TMP/stderr" >&2; fail "$c: the bad input did not fail (rc $RC)"; }
    [ "$(cat "$D/keep")" = old ] && [ "$(mode_of "$D/keep")" = 640 ] && [ "$(stat -c %i "$D/keep")" = "$inode" ] ||
        fail "$c: a failed run changed the existing file"
    run "$c" bad "$D/never"
    [ "$RC" -eq 1 ] && [ ! -e "$D/never" ] || fail "$c: a failed run created -o FILE (rc $RC)"
    no_temp "$D" "$c: failed run"
    pass "$c: a failed run leaves the existing file as it was, creates none and leaves no temporary"

    # ---- a symbolic link to a file: stays a link, the target gets the results in place
    echo old > "$D/target"
    chmod 640 "$D/target"
    inode=$(stat -c %i "$D/target")
    ln -s target "$D/link"
    run "$c" good "$D/link"
    [ "$RC" -eq 0 ] || { cat "$TMP/stderr" >&2; fail "$c: -o symlink failed"; }
    [ -L "$D/link" ] && [ "$(readlink "$D/link")" = target ] || fail "$c: the symbolic link was replaced"
    holds_results "$c" "$D/target" "$c: through a symbolic link, its target gets the results"
    [ "$(stat -c %i "$D/target")" = "$inode" ] && [ "$(mode_of "$D/target")" = 640 ] ||
        fail "$c: the link's target was replaced (inode or mode changed), not written"
    pass "$c: the link stays a link; its target is written in place (same inode, mode 640)"
    echo old > "$D/target"
    run "$c" bad "$D/link"
    [ "$RC" -eq 1 ] && [ -L "$D/link" ] && [ "$(cat "$D/target")" = old ] ||
        fail "$c: a failed run through a symbolic link changed its target (rc $RC)"
    no_temp "$D" "$c: failed run through a link"
    pass "$c: a failed run leaves a link's target as it was"
    ln -s "$D/sub/made" "$D/dangling"
    mkdir "$D/sub"
    run "$c" good "$D/dangling"
    [ "$RC" -eq 0 ] && [ -L "$D/dangling" ] || { cat "$TMP/stderr" >&2; fail "$c: -o a dangling link (rc $RC)"; }
    holds_results "$c" "$D/sub/made" "$c: a link to nothing yet: its target is created with the results"

    # ---- a FIFO: a reader gets the results
    mkfifo "$D/fifo"
    timeout 120 cat "$D/fifo" > "$D/from-fifo" &
    reader=$!
    run "$c" good "$D/fifo"
    wait "$reader" || fail "$c: the FIFO's reader failed"
    [ "$RC" -eq 0 ] || { cat "$TMP/stderr" >&2; fail "$c: -o FIFO failed (rc $RC)"; }
    [ -p "$D/fifo" ] || fail "$c: the FIFO was replaced"
    holds_results "$c" "$D/from-fifo" "$c: -o FIFO: the reader gets the results, the FIFO stays a FIFO"
    no_temp "$D" "$c: FIFO"

    # ---- the null device stays a character device
    run "$c" good "$NULLDEV"
    [ "$RC" -eq 0 ] || { cat "$TMP/stderr" >&2; fail "$c: -o $NULLDEV failed"; }
    [ -c "$NULLDEV" ] || fail "$c: $NULLDEV is no longer a character device"
    ! compgen -G "$NULLDEV.tmp.*" > /dev/null || fail "$c: a temporary file was made next to $NULLDEV"
    pass "$c: -o $NULLDEV (the null device): written, still a character device, no temporary next to it"
    if [ "$NULLDEV" != /dev/null ]; then # the private node passed: /dev/null itself is safe to name
        run "$c" good /dev/null
        [ "$RC" -eq 0 ] && [ -c /dev/null ] || fail "$c: -o /dev/null (rc $RC)"
        pass "$c: -o /dev/null: still a character device"
    fi

    # ---- /dev/stdout: the descriptor the shell set up ('>' and '>>')
    a=$(args_of "$c")
    # shellcheck disable=SC2086
    "$GALE" $a -o /dev/stdout "$(input_of "$c" good)" > "$D/stdout.out" 2> "$TMP/stderr" ||
        { cat "$TMP/stderr" >&2; fail "$c: -o /dev/stdout failed"; }
    holds_results "$c" "$D/stdout.out" "$c: -o /dev/stdout writes to standard output"
    echo first > "$D/appended"
    # shellcheck disable=SC2086
    "$GALE" $a -o /dev/stdout "$(input_of "$c" good)" >> "$D/appended" 2> "$TMP/stderr" ||
        { cat "$TMP/stderr" >&2; fail "$c: -o /dev/stdout >> FILE failed"; }
    { echo first; cat "$TMP/ref-$c"; } > "$TMP/want-appended"
    norm "$TMP/want-appended" > "$TMP/want-appended.norm"
    norm "$D/appended" > "$TMP/got.norm"
    same_file "$TMP/want-appended.norm" "$TMP/got.norm" "$c: -o /dev/stdout with '>>': appended, nothing overwritten"

    # ---- a directory is refused, also behind a link
    mkdir "$D/dir"
    run "$c" good "$D/dir"
    [ "$RC" -eq 1 ] || fail "$c: -o DIRECTORY: exit status $RC, expected 1"
    grep -q -F "gale: $D/dir: is a directory" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "$c: -o DIRECTORY: message"; }
    [ -d "$D/dir" ] && [ -z "$(ls -A "$D/dir")" ] || fail "$c: -o DIRECTORY changed the directory"
    pass "$c: -o DIRECTORY refused: '$(head -n 1 "$TMP/stderr")'"
    ln -s dir "$D/dirlink"
    run "$c" good "$D/dirlink"
    [ "$RC" -eq 1 ] && grep -q "directory" "$TMP/stderr" && [ -L "$D/dirlink" ] ||
        { cat "$TMP/stderr" >&2; fail "$c: -o LINK-TO-DIRECTORY (rc $RC)"; }
    pass "$c: -o LINK-TO-DIRECTORY refused"
    # ---- a file in a directory that does not exist: named
    run "$c" good "$D/nodir/out"
    [ "$RC" -eq 1 ] && grep -q -F "$D/nodir/out" "$TMP/stderr" ||
        { cat "$TMP/stderr" >&2; fail "$c: -o in a missing directory (rc $RC)"; }
    pass "$c: -o in a missing directory: exit 1, '$(head -n 1 "$TMP/stderr" | cut -c1-100)'"
    no_temp "$D" "$c: the end"
done

# ---- an interrupted run (SIGTERM) removes its temporary and leaves FILE as it was
for i in $(seq 1 32); do cat "$PAIRS"; done > "$TMP/long.tsv"
awk 'BEGIN { srand(5); for (i = 0; i < 300; i++) { s = ""; t = ""
             for (j = 0; j < 2000; j++) { s = s substr("ACGT", int(rand() * 4) + 1, 1); t = t substr("ACGT", int(rand() * 4) + 1, 1) }
             print ">" s; print "<" t } }' > "$TMP/long.seq"
for c in xdrop wfa; do
    D=$TMP/int-$c
    mkdir "$D"
    echo old > "$D/out"
    # On one CPU thread, so that the run lasts long enough to be interrupted whatever
    # GPU the machine has (what is checked is the CLI's, not the backend's).
    if [ "$c" = xdrop ]; then
        "$GALE" xdrop -q -x 1000 --backend cpu --threads 1 -o "$D/out" "$TMP/long.tsv" 2> "$TMP/stderr" &
    else
        "$GALE" wfa -q --backend cpu --threads 1 --batch-size 4 -o "$D/out" "$TMP/long.seq" 2> "$TMP/stderr" &
    fi
    pid=$!
    # the temporary exists from the start (-o is opened before the work)
    for _ in $(seq 1 200); do tmp_left "$D" && break; sleep 0.05; done
    tmp_left "$D" || { kill "$pid"; fail "$c: no temporary next to -o FILE while the run goes on"; }
    kill -TERM "$pid"
    wait "$pid"
    rc=$?
    [ "$rc" -eq 143 ] || fail "$c: SIGTERM: exit status $rc (the run ended before the signal?), expected 143"
    [ "$(cat "$D/out")" = old ] || fail "$c: an interrupted run changed -o FILE"
    no_temp "$D" "$c: interrupted run"
    pass "$c: SIGTERM during the run: FILE as it was, the temporary removed, killed by the signal (143)"
done

done_checks
