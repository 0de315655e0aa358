#!/usr/bin/env bash
# Copies Debian's Open MPI 4.1 (openmpi-bin, libopenmpi-dev: tools/setup-deps.sh) into DIR
# so that the device machine, which has no MPI, can build the gale CLI with MPI and run it
# under mpirun (tools/device/run.sh mpi):
#
#   tools/device/mpi-libs.sh [DIR]          (default .mpi; /.mpi/ is git-ignored)
#
# then carry DIR to the device. What it holds:
#   bin/        mpirun (and mpiexec, orterun: the same program), orted, ompi_info
#   lib/        libmpi, libopen-rte, libopen-pal and every library they, mpirun and the
#               components below need, glibc's aside (LD_LIBRARY_PATH=DIR/lib);
#               libmpi.so for linking; lib/pkgconfig/ompi-c.pc (PKG_CONFIG_PATH)
#   lib/x86_64-linux-gnu/openmpi/lib/openmpi3/
#               the MCA components, where OPAL_PREFIX=DIR makes Open MPI look (Debian's
#               layout under its prefix /usr); those that need UCX, libfabric, verbs,
#               PSM, netlink or OpenSHMEM are left out (one node's shared memory and TCP
#               are what gale needs)
#   pmix/       PMIx's plugins and help, found through PMIX_PKGLIBDIR and PMIX_PKGDATADIR
#               (Debian's libpmix keeps them at absolute paths, which its prefix does
#               not move)
#   share/openmpi/  Open MPI's help texts (its messages); etc/: Debian's MCA defaults
#               (OPAL_SYSCONFDIR=DIR/etc: Debian's sysconfdir, /etc/openmpi, is not
#               under the prefix)
#   include/    mpi.h and the two headers beside it (C only)
#   env.sh      sourced: sets the variables above from where DIR is, and OMPI_MCA_plm=isolated
#               (one machine: mpirun starts its ranks itself, no ssh)
#
# Every file is a real file, not a link (a link travels to the device only as a link). At
# the end the copy is checked from its folder in a clean environment, with this
# machine's own Open MPI and PMIx (and ssh) hidden (a mount namespace, where unshare works):
# mpirun -np 2 runs an MPI program built against DIR alone.
set -euo pipefail
dest=${1:-.mpi}
ml=/usr/lib/x86_64-linux-gnu
ompi=$ml/openmpi
comp=$ompi/lib/openmpi3
if [ ! -x /usr/bin/orterun ] || [ ! -f "$ml/libmpi.so.40" ] || [ ! -f "$ompi/include/mpi.h" ] || [ ! -d "$comp" ]; then
  echo "mpi-libs.sh: no Open MPI 4 here (apt-get install openmpi-bin libopenmpi-dev)" >&2
  exit 1
fi
new="$dest.new"
rm -rf "$new"
mkdir -p "$new/bin" "$new/lib/pkgconfig" "$new/lib/x86_64-linux-gnu/openmpi/lib/openmpi3" "$new/include" \
  "$new/share" "$new/etc" "$new/pmix/lib/pmix" "$new/pmix/share"

# The programs: mpirun is orterun (Debian links mpirun and mpiexec to it).
for p in orterun orted ompi_info; do cp -L "/usr/bin/$p" "$new/bin/$p"; done
cp -L /usr/bin/orterun "$new/bin/mpirun"
cp -L /usr/bin/orterun "$new/bin/mpiexec"

# The components whose libraries come along: none of UCX, libfabric, verbs, PSM, netlink
# (reachable_netlink: reachable_weighted stays) or OpenSHMEM (liboshmem).
skip_re='lib(ucp|ucs|uct|ucm|fabric|efa|ibverbs|rdmacm|psm|psm2|psm_infinipath|infinipath|nl-3|nl-route-3|oshmem)\.so'
kept=()
for f in "$comp"/*.so; do
  if ldd "$f" | awk '{print $1}' | grep -Eq "^$skip_re"; then continue; fi
  cp -L "$f" "$new/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/"
  kept+=("$f")
done
# PMIx (Open MPI's runtime talks to its processes through it): its few plugins.
pmixdir=$ml/pmix2
cp -L "$pmixdir"/lib/pmix/*.so "$new/pmix/lib/pmix/"
cp -RL "$pmixdir/share/pmix" "$new/pmix/share/"

# Every library all of these load, as ldd resolves it here, but glibc's own.
glibc_re='^(linux-vdso|ld-linux-x86-64|libc|libm|libpthread|libdl|librt|libutil|libresolv)\.so'
for f in /usr/bin/orterun /usr/bin/orted /usr/bin/ompi_info "$ml/libmpi.so.40" "${kept[@]}" "$pmixdir"/lib/pmix/*.so; do
  ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  if [[ $name =~ $glibc_re ]]; then continue; fi
  [ -f "$new/lib/$name" ] || cp -L "$path" "$new/lib/$name"
done
cp -L "$ml/libmpi.so.40" "$new/lib/libmpi.so"   # for -lmpi

cp -RL /usr/share/openmpi "$new/share/"
rm -f "$new"/share/openmpi/*-wrapper-data.txt   # the compiler wrappers are not copied
cp -L /etc/openmpi/openmpi-mca-params.conf "$new/etc/"
cp -L "$ompi"/include/mpi.h "$ompi"/include/mpi_portable_platform.h "$ompi"/include/mpi-ext.h "$new/include/"

ver=$(sed -n 's/^Version: *//p' "$ompi/lib/pkgconfig/ompi-c.pc")
cat > "$new/lib/pkgconfig/ompi-c.pc" <<PC
prefix=\${pcfiledir}/../..
includedir=\${prefix}/include
libdir=\${prefix}/lib

Name: Open MPI
Description: Open MPI $ver carried from Debian's libopenmpi-dev (tools/device/mpi-libs.sh), C bindings
Version: $ver
Cflags: -I\${includedir}
Libs: -L\${libdir} -lmpi -Wl,-rpath-link,\${libdir}
PC

cat > "$new/env.sh" <<'ENV'
# Sourced (bash): Open MPI from this folder (tools/device/mpi-libs.sh made it).
_mpi_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=$_mpi_dir
export OPAL_SYSCONFDIR=$_mpi_dir/etc
export PMIX_PKGLIBDIR=$_mpi_dir/pmix/lib/pmix
export PMIX_PKGDATADIR=$_mpi_dir/pmix/share/pmix
export PATH=$_mpi_dir/bin:$PATH
export LD_LIBRARY_PATH=$_mpi_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PKG_CONFIG_PATH=$_mpi_dir/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
# One machine: its ranks started by mpirun itself, no ssh (which the machine may lack)
export OMPI_MCA_plm=${OMPI_MCA_plm:-isolated}
unset _mpi_dir
ENV

# Open MPI's licence travels with it.
for d in openmpi-bin libopenmpi3 libpmix2; do
  [ -f /usr/share/doc/$d/copyright ] && cp /usr/share/doc/$d/copyright "$new/COPYRIGHT.$d.debian"
done
rm -rf "$dest"
mv "$new" "$dest"
dest=$(cd "$dest" && pwd)

# The check: an MPI program built against the copy, run by the copy's mpirun from a
# clean environment; the machine's own Open MPI and PMIx are hidden where a mount
# namespace can be had, so that nothing of them is used by mistake.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/hello.c" <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank, size, sum = 0, one = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d, sum %d\n", rank, size, sum);
    MPI_Finalize();
    return sum == size ? 0 : 1;
}
C
cc "$work/hello.c" -o "$work/hello" $(PKG_CONFIG_PATH="$dest/lib/pkgconfig" pkg-config --cflags --libs ompi-c)
cat > "$work/check.sh" <<'SH'
set -eu
. "$1/env.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
mpirun --oversubscribe -np 2 "$2" | sort
SH
hide=()
if unshare -m true 2>/dev/null; then
  hide=(unshare -m bash -c '
    for d in /usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 /usr/share/openmpi /etc/openmpi; do
      mount -t tmpfs none "$d"
    done
    for f in /usr/lib/x86_64-linux-gnu/lib{mpi,open-rte,open-pal,pmix,hwloc,event_core-2.1,event_pthreads-2.1}.so.*; do
      [ -f "$f" ] && [ ! -L "$f" ] && mount --bind /dev/null "$f"
    done
    for f in /usr/bin/orterun /usr/bin/orted /usr/bin/ompi_info /usr/bin/ssh; do
      [ -e "$f" ] && mount --bind /dev/null "$f"
    done
    exec "$@"' hide)
fi
out=$(env -i PATH=/usr/bin:/bin HOME="$work" "${hide[@]}" bash "$work/check.sh" "$dest" "$work/hello" 2>&1) || true
printf '%s\n' "$out"
if [ "$out" != "$(printf 'rank 0 of 2, sum 2\nrank 1 of 2, sum 2')" ]; then
  echo "mpi-libs.sh: the copy in $dest does not run an MPI program of two ranks" >&2
  exit 1
fi
echo "Open MPI $ver: $dest ($(du -sh "$dest" | cut -f1); checked: mpirun -np 2 from the copy alone${hide[*]:+, the Open MPI of this machine hidden})"
