// SPDX-License-Identifier: GPL-2.0
/*
 * vtime.c - TEST ONLY: run a program in virtual time (LD_PRELOAD)
 *
 * fw-replay runs the Macs' own AML in ACPICA's acpiexec, whose Sleep() and
 * Stall() really wait (usleep) and whose Timer reads the real clock
 * (gettimeofday, clock_gettime): the firmware's link waits of up to 1 s
 * each and its fixed delays make a boot's replay take minutes of waiting.
 * Preloaded, this library keeps a clock of its own that starts at the real
 * time: sleeping advances it at once, and every read of it advances it by
 * VTIME_READ_NS, so that a loop that only polls Timer ends all the same.
 * What the AML computes from time (its timeouts, the order of what it
 * does) is as with the real clock; only the waiting is gone.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* a read of the clock moves it this far (a polling loop ends) */
#define VTIME_READ_NS	100000ULL

static uint64_t vtime_ns;

static uint64_t vtime_now(void)
{
	if (!vtime_ns) {
		struct timespec ts;

		syscall(SYS_clock_gettime, CLOCK_REALTIME, &ts);
		vtime_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	}
	vtime_ns += VTIME_READ_NS;
	return vtime_ns;
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	uint64_t t = vtime_now();

	(void)clk;
	ts->tv_sec = t / 1000000000ULL;
	ts->tv_nsec = t % 1000000000ULL;
	return 0;
}

int gettimeofday(struct timeval *tv, void *tz)
{
	uint64_t t = vtime_now();

	(void)tz;
	tv->tv_sec = t / 1000000000ULL;
	tv->tv_usec = (t % 1000000000ULL) / 1000;
	return 0;
}

int usleep(useconds_t us)
{
	vtime_now();
	vtime_ns += (uint64_t)us * 1000ULL;
	return 0;
}

unsigned int sleep(unsigned int s)
{
	vtime_now();
	vtime_ns += (uint64_t)s * 1000000000ULL;
	return 0;
}
