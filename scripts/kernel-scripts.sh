# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/style and scripts/docs: where the kernel's own
# scripts are. KSRC=<an unpacked kernel tree>, or the newest
# /usr/src/linux-source-*.tar.xz (Debian's linux-source package), whose
# scripts/checkpatch.pl (with spelling.txt and const_structs.checkpatch),
# scripts/kernel-doc and .clang-format are extracted once into a cache:
# /var/cache/macsupport/kernel-scripts where that can be written, else
# ~/.cache/macsupport/kernel-scripts.
#
# kernel_tree: prints the directory holding scripts/ (and .clang-format),
# or says why not and fails.

kernel_tree()
{
	local tarball top cache

	if [ -n "${KSRC:-}" ]; then
		echo "$KSRC"
		return 0
	fi
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
	if [ -z "$tarball" ]; then
		echo "no kernel source: apt-get install linux-source-6.1, or set KSRC" >&2
		return 1
	fi
	top=$(basename "$tarball" .tar.xz)
	cache=/var/cache/macsupport/kernel-scripts
	mkdir -p "$cache" 2> /dev/null && [ -w "$cache" ] ||
		cache=${XDG_CACHE_HOME:-$HOME/.cache}/macsupport/kernel-scripts
	if [ ! -x "$cache/$top/scripts/kernel-doc" ] || [ ! -x "$cache/$top/scripts/checkpatch.pl" ]; then
		mkdir -p "$cache" || return 1
		echo "extracting the kernel's scripts from $tarball into $cache (once)" >&2
		tar -C "$cache" -xJf "$tarball" "$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
			"$top/scripts/const_structs.checkpatch" "$top/scripts/kernel-doc" \
			"$top/.clang-format" || return 1
	fi
	echo "$cache/$top"
}
