// SPDX-License-Identifier: GPL-2.0
/*
 * TEST ONLY: clear-immutable FILE... - "chattr -i" for the busybox guest,
 * which has no chattr. efivarfs marks the variables it does not know as
 * immutable; a guest test that plants or restores NVRAM variables
 * (65-apple-props-dup-keys.sh) clears the flag first, as a root user with
 * chattr would.
 */

#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i, fd, flags, ret = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		fd = open(argv[i], O_RDONLY);
		if (fd < 0 || ioctl(fd, FS_IOC_GETFLAGS, &flags)) {
			fprintf(stderr, "%s: %s: %s\n", argv[0], argv[i], strerror(errno));
			ret = 1;
		} else {
			flags &= ~FS_IMMUTABLE_FL;
			if (ioctl(fd, FS_IOC_SETFLAGS, &flags)) {
				fprintf(stderr, "%s: %s: %s\n", argv[0], argv[i], strerror(errno));
				ret = 1;
			}
		}
		if (fd >= 0)
			close(fd);
	}
	return ret;
}
