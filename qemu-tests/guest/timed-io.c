// SPDX-License-Identifier: GPL-2.0
/*
 * timed-io - TEST ONLY guest tool: time reads or writes of a file
 *
 *   timed-io [-n N] read FILE          read up to 4 KiB
 *   timed-io [-n N] write FILE TEXT    write TEXT (no newline added)
 *   timed-io [-n N] write FILE A B     write A and B in turn, N times each
 *
 * Opens the file, does the one system call, closes it; N times (default
 * 1). Prints "ok <microseconds> <data read, if any>" for one run,
 * "ok <median> <min> <max>" (microseconds) for several, or
 * "error <errno name> <microseconds>" and exits 1 at the first failure.
 * With two texts: "ok <median> <min> <max>" for A, then the same for B.
 * Busybox cannot time a single system call below 10 ms; the gmux tests
 * need to show that a stuck handshake fails within 25 ms, and the
 * benchmark the time of one backlight change.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_RUNS 10000

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static const char *errname(int err)
{
	const char *name = strerrorname_np(err);

	return name ? name : "?";
}

static long long times[2][MAX_RUNS];

static void print_stats(long long *t, int runs)
{
	qsort(t, runs, sizeof(t[0]), cmp_ll);
	printf(" %lld %lld %lld", t[runs / 2], t[0], t[runs - 1]);
}

int main(int argc, char **argv)
{
	char buf[4096];
	int runs = 1, i, fd, err, is_read, texts = 1, k;
	long long t0, t1;
	ssize_t n = 0;

	if (argc > 2 && !strcmp(argv[1], "-n")) {
		runs = atoi(argv[2]);
		argc -= 2;
		argv += 2;
	}
	if (runs < 1 || runs > MAX_RUNS || argc < 3 ||
	    (strcmp(argv[1], "read") && strcmp(argv[1], "write")) ||
	    (!strcmp(argv[1], "write") && argc < 4)) {
		fprintf(stderr, "usage: timed-io [-n N] read FILE | timed-io [-n N] write FILE TEXT\n");
		return 2;
	}
	is_read = !strcmp(argv[1], "read");
	if (!is_read && argc > 4)
		texts = 2;

	for (i = 0; i < runs * texts; i++) {
		k = i % texts;
		fd = open(argv[2], is_read ? O_RDONLY : O_WRONLY);
		if (fd < 0) {
			printf("error %s 0\n", errname(errno));
			return 1;
		}
		t0 = now_us();
		if (is_read)
			n = read(fd, buf, sizeof(buf) - 1);
		else
			n = write(fd, argv[3 + k], strlen(argv[3 + k]));
		err = errno;
		t1 = now_us();
		close(fd);
		if (n < 0) {
			printf("error %s %lld\n", errname(err), t1 - t0);
			return 1;
		}
		times[k][i / texts] = t1 - t0;
	}

	if (runs > 1 || texts > 1) {
		printf("ok");
		for (k = 0; k < texts; k++)
			print_stats(times[k], runs);
		putchar('\n');
	} else if (is_read) {
		buf[n] = '\0';
		printf("ok %lld %s", times[0][0], buf);
		if (n == 0 || buf[n - 1] != '\n')
			putchar('\n');
	} else {
		printf("ok %lld\n", times[0][0]);
	}
	return 0;
}
