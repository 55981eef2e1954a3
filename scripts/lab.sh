#!/usr/bin/env bash
# lab.sh - run a command on an emulated multi-socket, multi-node machine: Debian's kernel under
# QEMU, the host's own root mounted read-only inside, and a writable directory brought back.
#
# Usage: scripts/lab.sh [options] [--] CMD [ARG...]
#   --kernel 6.1|6.12|PKG  Debian's kernel: 6.1 (bookworm's own), 6.12 (bookworm-security), or
#                          a linux-image-* package name (default 6.1)
#   --smp SxCxT            sockets x cores x threads (default 2x2x1); one LLC per socket
#   --dies D               each socket's cores in D dies, an LLC each (default 1)
#   --nodes N              NUMA nodes, whole sockets each (default: one per socket)
#   --mem MB               guest memory, split evenly over the nodes (default 2048)
#   --timeout S            seconds before the guest is stopped (default 900)
#   --out DIR              the writable directory, at the same path inside ($LAB_OUT);
#                          default build/lab/out, emptied first
#   --env NAME=VALUE       set in the command's environment (repeatable)
#   --prepare              fetch the kernel and build the initramfs only, run nothing
#   -q                     no lab lines on stderr (boot time, accelerator)
#   -v                     the guest's console (kernel messages) on stderr as it runs
#
# The command runs as root in the guest, chrooted into the host's / (read-only, over 9p), in
# the caller's working directory, with /tmp a tmpfs (the working directory and --out bound
# back where they are under /tmp), tracefs and debugfs mounted and loopback up (no other
# network). Its stdout and stderr come back as it writes them; the exit status
# is the command's. 124: it ran past --timeout; 125: the lab failed (boot, QEMU);
# 77: the lab cannot run here, with the reason on stderr (no QEMU, no Debian kernel package).
# Kernels are cached under build/lab/kernels/ (LAB_CACHE overrides): once fetched, offline is
# fine. /dev/kvm is used when it works, else QEMU emulates every instruction (TCG, ~6x slower).
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
kernel=6.1 smp=2x2x1 dies=1 nodes= mem=2048 timeout=900 out= quiet=0 prepare=0 verbose=0
envs=()
cache=${LAB_CACHE:-$here/build/lab/kernels}

say() { [ $quiet -eq 1 ] || echo "lab: $*" >&2; }
die() { echo "lab: $*" >&2; exit "${2:-125}"; }
skip() { echo "lab: cannot run here: $*" >&2; exit 77; }
usage() { sed -n '4,17s/^# \{0,1\}//p' "$0" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--nodes) nodes=${2:?}; shift 2 ;;
	--dies) dies=${2:?}; shift 2 ;;
	--mem) mem=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--env) envs+=("${2:?}"); shift 2 ;;
	--prepare) prepare=1; shift ;;
	-q) quiet=1; shift ;;
	-v) verbose=1; shift ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) echo "lab: $1: unknown option (see scripts/lab.sh --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || [ $prepare -eq 1 ] || usage

# --- the topology --------------------------------------------------------------------------
IFS=x read -r sockets cores threads <<<"$smp"
for v in "${sockets:-}" "${cores:-}" "${threads:-}" "$dies" "${nodes:-1}" "$mem" "$timeout"; do
	case $v in '' | *[!0-9]* | 0) echo "lab: --smp $smp --nodes ${nodes:-} --mem $mem" \
		"--timeout $timeout: whole positive numbers, SxCxT (e.g. --smp 2x2x2)" >&2; exit 2 ;;
	esac
done
nodes=${nodes:-$sockets}
[ $((cores % dies)) -eq 0 ] || { echo "lab: --dies $dies: each die holds whole cores" \
	"($cores cores a socket)" >&2; exit 2; }
[ $((sockets % nodes)) -eq 0 ] || { echo "lab: --nodes $nodes: each node holds whole" \
	"sockets ($sockets sockets)" >&2; exit 2; }
ncpus=$((sockets * cores * threads))

# --- the kernel: Debian's package, its vmlinuz and the modules the 9p root needs -------------
command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64 (apt-get install qemu-system-x86, or scripts/deps.sh --test)"
busybox=$(command -v busybox) || skip "no busybox (apt-get install busybox-static)"
! ldd "$busybox" >/dev/null 2>&1 ||
	skip "$busybox is not static (apt-get install busybox-static)"

# The package a short name stands for: the newest apt offers now.
resolve_pkg() {
	case $1 in
	6.1) apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/.*Depends: \(linux-image-6\.1\.0-[0-9]*-amd64\)$/\1/p' | head -n 1 ;;
	6.12) apt-cache search --names-only '^linux-image-6\.12\..*\+deb12-amd64-unsigned$' 2>/dev/null |
		cut -d' ' -f1 | sort -V | tail -n 1 ;;
	linux-image-*) echo "$1" ;;
	esac
}
# The newest cached one, offline.
cached_pkg() {
	local pat
	case $1 in 6.1) pat='linux-image-6.1.0-*-amd64' ;; 6.12) pat='linux-image-6.12.*-amd64*' ;;
	*) pat=$1 ;; esac
	(cd "$cache" 2>/dev/null && for d in $pat; do [ -f "$d/vmlinuz" ] && echo "$d"; done) |
		sort -V | tail -n 1
}

case $kernel in 6.1 | 6.12 | linux-image-*) ;;
*) echo "lab: --kernel $kernel: 6.1, 6.12 or a linux-image-* package name" >&2; exit 2 ;; esac
pkg=$(resolve_pkg "$kernel")
[ -n "$pkg" ] && [ -f "$cache/$pkg/vmlinuz" ] || { c=$(cached_pkg "$kernel"); pkg=${c:-$pkg}; }
[ -n "$pkg" ] || skip "no Debian kernel package for $kernel (apt-cache knows none, none cached in $cache)"
kdir=$cache/$pkg

# Modules in load order, each after what its .modinfo says it depends on (depth first): the
# package ships no modules.dep, and the host needs no kmod.
load_order() {
	local dir=$1 m
	shift
	for m in "$dir"/*.ko; do
		printf '%s %s\n' "$(basename "$m" .ko | tr - _)" \
			"$(tr '\0' '\n' <"$m" | sed -n 's/^depends=//p' | head -n 1 | tr , ' ' | tr - _)"
	done | awk -v want="$*" '
	{ n = $1; dep[n] = ""; for (i = 2; i <= NF; i++) dep[n] = dep[n] " " $i; have[n] = 1 }
	function visit(p,   d, k, i) { if (p in seen || !(p in have)) return; seen[p] = 1
	  k = split(dep[p], d, " "); for (i = 1; i <= k; i++) visit(d[i]); print p ".ko" }
	END { k = split(want, w, " "); for (i = 1; i <= k; i++) visit(w[i]) }'
}

fetch_kernel() {
	local tmp deb mods rel off z
	command -v apt-get >/dev/null || skip "no apt-get to fetch $pkg (a Debian host; or put vmlinuz and modules in $kdir)"
	tmp=$(mktemp -d) || die "mktemp failed"
	say "fetching $pkg (apt-get download, nothing installed)"
	(cd "$tmp" && apt-get download -q "$pkg" >"$tmp/apt.log" 2>&1) ||
		{ cat "$tmp/apt.log" >&2; rm -rf "$tmp"; skip "apt-get download $pkg failed (offline? apt-get update?)"; }
	deb=$(ls "$tmp"/*.deb) || die "no .deb from apt-get download $pkg"
	# the kernel, and the module directories 9p over virtio-pci draws on
	mkdir -p "$tmp/x"
	dpkg-deb --fsys-tarfile "$deb" | tar -t |
		grep -E '^\./boot/vmlinuz-|/kernel/(drivers/virtio|net/9p|fs/9p|fs/netfs|fs/fscache)/.*\.ko' >"$tmp/list"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" -T "$tmp/list" || die "cannot extract $deb"
	mods=$(echo "$tmp"/x/lib/modules/*)
	rel=$(basename "$mods")
	rm -rf "$kdir.tmp" && mkdir -p "$kdir.tmp/modules" "$tmp/ko" || die "cannot write $cache"
	cp "$tmp"/x/boot/vmlinuz-* "$kdir.tmp/vmlinuz" || die "no vmlinuz in $deb"
	find "$mods/kernel" -name '*.ko*' | while read -r m; do
		n=$(basename "$m" | sed 's/\.ko.*//; s/-/_/g').ko
		case $m in
		*.xz) xz -dc "$m" >"$tmp/ko/$n" ;;
		*.zst) zstd -qdc "$m" >"$tmp/ko/$n" ;;
		*) cp "$m" "$tmp/ko/$n" ;;
		esac || die "cannot unpack $m"
	done
	# the kernel uncompressed, booted by QEMU straight at its PVH entry: under emulation the
	# decompressor alone takes half the boot (20-25 s to a prompt against 52 s, loaded host)
	for z in $'\xfd7zXZ\x00':xz $'\x28\xb5\x2f\xfd':zstd; do
		off=$(grep -abo "${z%:*}" "$kdir.tmp/vmlinuz" | head -n 1 | cut -d: -f1)
		[ -n "$off" ] && tail -c +$((off + 1)) "$kdir.tmp/vmlinuz" | "${z#*:}" -dcq 2>/dev/null \
			>"$kdir.tmp/vmlinux"
		LC_ALL=C readelf -n "$kdir.tmp/vmlinux" 2>/dev/null | grep -q '(0x00000012)' && break
		rm -f "$kdir.tmp/vmlinux"
	done
	load_order "$tmp/ko" 9p 9pnet_virtio virtio_pci >"$kdir.tmp/modules/order"
	while read -r m; do cp "$tmp/ko/$m" "$kdir.tmp/modules/"; done <"$kdir.tmp/modules/order"
	echo "$rel" >"$kdir.tmp/release"
	rm -rf "$tmp" "$kdir" && mv "$kdir.tmp" "$kdir"
}
[ -f "$kdir/vmlinuz" ] || fetch_kernel

# --- the initramfs: busybox, the modules, and an init that mounts the host and runs the command
init_script() {
	cat <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mkdir -p /proc /sys /dev /mnt
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /lab/order); do insmod /lab/$m || echo "lab-init: insmod $m failed"; done
out=$(sed -n 's/.* lab\.out=\([^ ]*\).*/\1/p' /proc/cmdline)
m9p="trans=virtio,version=9p2000.L,msize=262144"
stop() { echo "lab-init: $*"; sync; poweroff -f; }
cwd=$(sed -n 's/.* lab\.cwd=\([^ ]*\).*/\1/p' /proc/cmdline)
mount -t 9p -o "$m9p,ro,cache=loose" host /mnt || stop "cannot mount the host's root"
# the guest's /tmp is a tmpfs over the host's: the directories under the host's /tmp that the
# command works in or writes to (a clone in /tmp) are bound back over it
mkdir -p /hosttmp && mount --bind /mnt/tmp /hosttmp
mount -t tmpfs tmp /mnt/tmp
for p in "$cwd" "$out"; do
	case $p in /tmp/?*) d=${p#/tmp/}; d=${d%%/*}
		[ -d "/mnt/tmp/$d" ] || { mkdir -p "/mnt/tmp/$d" && mount --bind "/hosttmp/$d" "/mnt/tmp/$d"; } ;;
	esac
done
mount -t 9p -o "$m9p" out "/mnt$out" || stop "cannot mount $out"
mount -t proc proc /mnt/proc
mount -t sysfs sys /mnt/sys
mount -t devtmpfs dev /mnt/dev
mkdir -p /mnt/dev/pts /mnt/dev/shm 2>/dev/null
mount -t devpts devpts /mnt/dev/pts
mount -t tmpfs tmp /mnt/dev/shm
mount -t tmpfs run /mnt/run
mount -t tracefs tracefs /mnt/sys/kernel/tracing
mount -t debugfs debugfs /mnt/sys/kernel/debug
mount -t bpf bpf /mnt/sys/fs/bpf 2>/dev/null
ip link set lo up
hostname lab
cut -d' ' -f1 /proc/uptime >"/mnt$out/.lab/boot_s"
chroot /mnt /bin/sh "$out/.lab/cmd.sh" </dev/null >"/mnt$out/.lab/stdout" 2>"/mnt$out/.lab/stderr"
echo $? >"/mnt$out/.lab/status"
sync
poweroff -f
INIT
}

initrd=$kdir/initrd.gz
if ! [ -f "$initrd" ] || ! init_script | cmp -s - "$kdir/init"; then
	tmp=$(mktemp -d) || die "mktemp failed"
	mkdir -p "$tmp/bin" "$tmp/lab"
	cp "$busybox" "$tmp/bin/busybox"
	init_script >"$tmp/init" && chmod 755 "$tmp/init"
	cp "$kdir"/modules/* "$tmp/lab/" 2>/dev/null
	(cd "$tmp" && find . | "$busybox" cpio -o -H newc 2>/dev/null | gzip -1) >"$initrd.tmp" &&
		mv "$initrd.tmp" "$initrd" || die "cannot build $initrd"
	init_script >"$kdir/init"
	rm -rf "$tmp"
fi
[ $prepare -eq 1 ] && { say "ready: $pkg ($kdir)"; exit 0; }

# --- the run -------------------------------------------------------------------------------
out=${out:-$here/build/lab/out}
if [ "$out" = "$here/build/lab/out" ]; then rm -rf "$out"; fi
mkdir -p "$out/.lab" || die "cannot create $out"
out=$(cd "$out" && pwd)
rm -f "$out"/.lab/{stdout,stderr,status,boot_s,console.log,qemu.log}

# The command's script: the caller's directory, PATH and a few names; the rest given by --env.
{
	echo "cd $(printf '%q' "$PWD") || exit 125"
	echo "export PATH=$(printf '%q' "$PATH") HOME=/tmp TERM=$(printf '%q' "${TERM:-dumb}")"
	echo "export LAB_OUT=$(printf '%q' "$out") LAB_KERNEL=$(printf '%q' "$pkg")"
	echo "export LAB_TOPOLOGY=$(printf '%q' "${smp} dies=$dies nodes=$nodes")"
	for e in ${envs[@]+"${envs[@]}"}; do echo "export $(printf '%q' "$e")"; done
	printf 'exec'; printf ' %q' "$@"; echo
} >"$out/.lab/cmd.sh"

# tsc=reliable: QEMU's TSC follows the host clock, but under a loaded host the watchdog calls it
# unstable and falls back to the HPET, an emulated device read at every clock read
kargs=${LAB_KARGS-tsc=reliable}
boot_image=$kdir/vmlinuz
[ -f "$kdir/vmlinux" ] && boot_image=$kdir/vmlinux
accel=(-accel "tcg,${LAB_TCG:-thread=single}")
accel_name=tcg
if [ -r /dev/kvm ] && [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
	accel=(-accel kvm -accel tcg)
	accel_name=kvm
fi
numa=()
per_node=$((sockets / nodes))
for ((n = 0; n < nodes; n++)); do
	numa+=(-object "memory-backend-ram,id=m$n,size=$((mem / nodes))M"
		-numa "node,nodeid=$n,memdev=m$n")
	for ((s = n * per_node; s < (n + 1) * per_node; s++)); do
		numa+=(-numa "cpu,node-id=$n,socket-id=$s")
	done
done

say "$pkg, $sockets socket(s) x $cores core(s) x $threads thread(s), $((sockets * dies)) LLC(s), $nodes node(s), $ncpus CPUs, ${mem} MB, $accel_name"
t0=$(date +%s.%N)
# shellcheck disable=SC2086
timeout --foreground -k 10 "$timeout" nice -n "${LAB_NICE:-5}" qemu-system-x86_64 \
	-machine q35 "${accel[@]}" -cpu max,vendor=GenuineIntel,l3-cache=on \
	-smp "$ncpus,sockets=$sockets,dies=$dies,cores=$((cores / dies)),threads=$threads" -m "$mem" "${numa[@]}" \
	-kernel "$boot_image" -initrd "$initrd" \
	-append "console=ttyS0 $([ $verbose -eq 1 ] || echo quiet) panic=1 $kargs lab.out=$out lab.cwd=$PWD" \
	-display none -monitor "unix:$out/.lab/monitor,server=on,wait=off" -serial "file:$out/.lab/console.log" -nic none -no-reboot \
	-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
	-virtfs "local,path=$out,mount_tag=out,security_model=none,multidevs=remap" \
	</dev/null >"$out/.lab/qemu.log" 2>&1 &
qpid=$!
# the command's output as it is written, until QEMU ends
touch "$out/.lab/stdout" "$out/.lab/stderr"
tail -q -n +1 -s 0.2 -f --pid=$qpid "$out/.lab/stdout" &
t1=$!
tail -q -n +1 -s 0.2 -f --pid=$qpid "$out/.lab/stderr" >&2 &
t2=$!
t3=
if [ $verbose -eq 1 ]; then
	touch "$out/.lab/console.log"
	tail -q -n +1 -s 0.5 -f --pid=$qpid "$out/.lab/console.log" | sed 's/^/lab console: /' >&2 &
	t3=$!
fi
wait $qpid
qrc=$?
wait $t1 $t2 $t3
t_end=$(date +%s.%N)

if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	echo "lab: the guest ran past --timeout $timeout s and was stopped (console: $out/.lab/console.log)" >&2
	exit 124
fi
if ! [ -f "$out/.lab/status" ]; then
	if [ $qrc -ne 0 ] && ! [ -s "$out/.lab/console.log" ]; then
		sed 's/^/lab: qemu: /' "$out/.lab/qemu.log" >&2
		skip "QEMU did not start (exit $qrc)"
	fi
	echo "lab: the guest stopped before the command ended; its console's last lines:" >&2
	tail -n 15 "$out/.lab/console.log" | sed 's/^/lab:   /' >&2
	exit 125
fi
grep -q 'failed to initialize kvm' "$out/.lab/qemu.log" && accel_name="tcg (kvm would not start)"
boot=$(cat "$out/.lab/boot_s" 2>/dev/null)
# the guest writes boot_s through the share as the command starts: its mtime is the host's clock
t_up=$(stat -c %.9Y "$out/.lab/boot_s" 2>/dev/null || echo "$t0")
say "$(awk -v a="$t0" -v u="$t_up" -v b="$t_end" -v g="${boot:-?}" -v acc="$accel_name" \
	'BEGIN { printf "up in %.1f s wall (%s s on the guest kernel clock), %.1f s wall in all, %s",
		 u - a, g, b - a, acc }')"
exit "$(cat "$out/.lab/status")"
