# scripts/setup/lib/install.sh: what the scripts that install real
# projects share (setup/fidelity.sh, setup/shardcheck.sh, mutbench.sh),
# sourced by them after they set root (the folder the projects land in),
# stamp_text (what a finished project's stamp holds), me (the script's
# name, for messages) and skipped (what a failure means, said after "NAME
# not installed"); announce=1 makes install say each project it installs.
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# step NAME CMD...: runs CMD quietly; on failure prints its output and fails.
step() {
	local name=$1
	shift
	if ! "$@" >"$log" 2>&1; then
		echo "$me: $name failed: $*" >&2
		tail -40 "$log" >&2
		return 1
	fi
}

# install NAME FN: runs FN in the folder NAME (emptied first) unless a
# stamp says NAME is installed. Built in place, not renamed: a virtualenv
# and an editable install remember their path. The stamp lies beside the
# folder, not in it, where a project's own checks (RAT) would see it.
install() {
	local name=$1 fn=$2 dest="$root/$1" ok="$root/.ok-$1"
	if [ -d "$dest" ] && [ -f "$ok" ] && [ "$(cat "$ok")" = "$stamp_text" ]; then
		return 0
	fi
	if [ -n "${announce:-}" ]; then echo "$me: installing $name into $dest" >&2; fi
	rm -rf "$dest" "$ok"
	mkdir -p "$dest"
	# errexit is ignored inside an if or || condition, so the subshell runs
	# as a plain command with its own set -e.
	local rc=0
	set +e
	(
		set -e
		cd "$dest"
		"$fn"
	)
	rc=$?
	set -e
	if [ "$rc" -ne 0 ]; then
		echo "$me: $name not installed$skipped" >&2
		return 1
	fi
	echo "$stamp_text" >"$ok"
}

have() { command -v "$1" >/dev/null 2>&1; }
