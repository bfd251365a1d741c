// SPDX-License-Identifier: GPL-2.0
/*
 * drop-cap - TEST ONLY guest tool: run a command as root without one
 * capability
 *
 *   drop-cap CAP-NUMBER COMMAND [ARGS...]
 *
 * Drops the capability from the bounding set and from the effective,
 * permitted and inheritable sets, then executes COMMAND: root's command
 * keeps uid 0 and every other capability (so file permissions still let
 * it open root's files) but can never regain this one. Busybox's setpriv
 * cannot change the bounding set. Exits 125 when it cannot drop the
 * capability, 127 when it cannot run COMMAND.
 */

#define _GNU_SOURCE
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	char *end;
	long cap;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: drop-cap CAP-NUMBER COMMAND [ARGS...]\n");
		return 125;
	}
	cap = strtol(argv[1], &end, 0);
	if (*end || cap < 0 || cap > CAP_LAST_CAP) {
		fprintf(stderr, "drop-cap: bad capability '%s'\n", argv[1]);
		return 125;
	}
	if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)) {
		perror("drop-cap: PR_CAPBSET_DROP");
		return 125;
	}
	if (syscall(SYS_capget, &hdr, data)) {
		perror("drop-cap: capget");
		return 125;
	}
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		if (cap / 32 != i)
			continue;
		data[i].effective &= ~(1U << (cap % 32));
		data[i].permitted &= ~(1U << (cap % 32));
		data[i].inheritable &= ~(1U << (cap % 32));
	}
	if (syscall(SYS_capset, &hdr, data)) {
		perror("drop-cap: capset");
		return 125;
	}
	execvp(argv[2], argv + 2);
	perror("drop-cap: exec");
	return 127;
}
