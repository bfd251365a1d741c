// SPDX-License-Identifier: GPL-2.0
/*
 * gmux-sim - the host side of the QEMU harness's gmux simulator (TEST ONLY)
 *
 * usage: gmux-sim --kind classic|indexed|t2 --shm /dev/shm/FILE [--size 1M]
 *                 [--poll-us N] [--spin-us N] [--panel igd|dis]
 *        gmux-sim --selftest
 *
 * --panel: the GPU the firmware left the panel (SWITCH_DISPLAY) and its DDC
 * lines (SWITCH_DDC) on at power-on, igd (the default) or dis: a Mac
 * booted on the dGPU.
 *
 * DOC: Overview
 *
 * Stock QEMU cannot back port I/O or trap memory accesses with a host
 * process, so the harness hands the guest an ivshmem-plain device whose
 * BAR2 is the file given with --shm, and the gmux's ACPI _CRS names a 4 KiB
 * window inside that BAR (layout: include/macsupport/gmux_sim.h). Under its
 * test-only module parameter, apple_gmux_ng speaks the classic, indexed or
 * T2 protocol over the window and appends every access it makes to a
 * journal ring in the window.
 *
 * This program replays the journal in order into the register model
 * (src/lib/gmux_model.c) and, after each entry that can change what the
 * guest reads, writes back only the bytes the gmux itself drives, data
 * before status:
 *
 * - classic: 0x16 (interrupt status) after every write; 0x10, 0x28, 0x40
 *   and 0x50 after a write to that register (so a switch the gmux refused
 *   reads back its old value); 0xcc..0xcd after a write to 0xcc..0xce (the indexed probe);
 *   the version bytes only when a fault changes them;
 * - indexed: 0xc2..0xc5 then 0xd4 after a write to 0xd0 or 0xd4 (a
 *   command); only 0xd4 after a read of 0xd0 (an ack), because by then the
 *   guest may already be writing the data of its next command;
 * - T2: 0x00..0x03 then 0x0f after a write to 0x0f.
 *
 * At start the register space is the model's window as firmware leaves the
 * gmux; after that, the rest of it belongs to the guest: it holds what the
 * guest last wrote, which is what a plain register reads back. The window
 * is never copied back wholesale.
 *
 * DOC: Control
 *
 * The guest's gmux-simctl asks for faults, interrupts and a stats reset
 * through the control block (CTL_*). Model state and counters are published
 * in the ST_* fields after every batch.
 *
 * DOC: Polling
 *
 * There is no doorbell (ivshmem-plain has no interrupts and Debian ships no
 * ivshmem-server), so the simulator polls HEAD and CTL_SEQ. After work it
 * spins for --spin-us (default 200 us: the guest's next step, e.g. the ack
 * after a completion, usually comes within that), then sleeps 20 us per
 * poll for 5 ms, then doubles the sleep up to --poll-us (default 1000 us).
 * The timer slack is cut to 1 us. Why not a flat 20-50 us sleep: on the
 * project's VMs a nanosleep() wakeup costs about 30 us of CPU and lasts at
 * least 90 us whatever is asked, so a 50 us poll took a quarter of a core
 * while idle; the 1 ms idle poll costs a few per cent.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "macsupport/gmux_model.h"
#include "macsupport/gmux_regs.h"
#include "macsupport/gmux_sim.h"
#include "macsupport/mac_model.h"
#include "sim-window.h"

#define SIM_DEFAULT_SIZE	(1UL << 20)
#define SIM_SPIN_US		200
#define SIM_BUSY_POLL_US	20
#define SIM_BUSY_WINDOW_US	5000
#define SIM_IDLE_POLL_US	1000

/**
 * struct gmux_sim - one simulated gmux behind a window
 * @model: the register model
 * @win: the window (GMUX_SIM_WINDOW_LEN bytes)
 * @tail: next journal entry to replay
 * @dropped: entries lost because HEAD ran more than a ring ahead
 * @bad: entries with an unknown op or an offset out of the port space
 * @entries: entries replayed since start
 * @batches: polls that found entries
 * @ctl_ops: control requests served
 * @dgpu_offs: power cuts of the modelled dGPU
 * @max_gap_us: longest time between the starts of two polls since the
 *	stats were reset: the host's scheduling, not the model's (a gap
 *	longer than the driver's GMUX_TIMEOUT_US makes a healthy gmux look
 *	stuck to the guest, so a test can tell the two apart)
 */
struct gmux_sim {
	struct gmux_model model;
	u8 *win;
	u32 tail;
	u32 dropped;
	unsigned long bad;
	unsigned long entries;
	unsigned long batches;
	unsigned long ctl_ops;
	u32 dgpu_offs;
	u32 max_gap_us;
};

static int sim_stop;	/* set by the signal handler */
static bool sim_boot_dis;	/* --panel dis: the firmware left the panel on the dGPU */

/* --- register write-back ------------------------------------------------- */

/* What a guest read of @off returns now: the model keeps @win that way. */
static u8 sim_peek(const struct gmux_sim *s, unsigned int off)
{
	return s->model.win[off];
}

static void sim_put(struct gmux_sim *s, unsigned int off, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		simw_put8(s->win, GMUX_SIM_REGS + off + i, sim_peek(s, off + i));
}

/* A status byte: published after the data it vouches for. */
static void sim_put_status(struct gmux_sim *s, unsigned int off)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	simw_put8(s->win, GMUX_SIM_REGS + off, sim_peek(s, off));
}

/* GMUX_FAULT_SLOW: a command completes slow_us after it was given. */
static void sim_complete_delay(struct gmux_sim *s)
{
	struct timespec ts;

	if (s->model.fault != GMUX_FAULT_SLOW || !s->model.slow_us)
		return;
	ts.tv_sec = s->model.slow_us / 1000000;
	ts.tv_nsec = (s->model.slow_us % 1000000) * 1000L;
	while (nanosleep(&ts, &ts) && errno == EINTR && !__atomic_load_n(&sim_stop, __ATOMIC_RELAXED))
		;
}

static bool touches(unsigned int off, unsigned int len, unsigned int reg)
{
	return reg >= off && reg < off + len;
}

static bool touches_range(unsigned int off, unsigned int len, unsigned int lo, unsigned int hi)
{
	return off <= hi && off + len > lo;
}

/* Every byte the gmux drives, e.g. after a fault changed the handshake. */
static void sim_put_outputs(struct gmux_sim *s)
{
	switch (s->model.kind) {
	case MAC_GMUX_CLASSIC:
		sim_put(s, GMUX_PORT_VERSION_MAJOR, 3);
		sim_put(s, GMUX_PORT_SWITCH_DISPLAY, 1);
		sim_put(s, GMUX_PORT_SWITCH_DDC, 1);
		sim_put(s, GMUX_PORT_SWITCH_EXTERNAL, 1);
		sim_put(s, GMUX_PORT_DISCRETE_POWER, 1);
		sim_put(s, GMUX_INDEX_PROBE_LO, 2);
		sim_put_status(s, GMUX_PORT_INTERRUPT_STATUS);
		break;
	case MAC_GMUX_INDEXED:
		sim_put(s, GMUX_PORT_VALUE, 4);
		sim_put_status(s, GMUX_PORT_WRITE);
		break;
	case MAC_GMUX_T2:
		sim_put(s, GMUX_T2_DATA, 4);
		sim_put_status(s, GMUX_T2_COMMAND);
		break;
	default:
		break;
	}
}

/* After the model took one access: publish what it changed (see DOC). */
static void sim_write_back(struct gmux_sim *s, bool write, unsigned int off, unsigned int len)
{
	switch (s->model.kind) {
	case MAC_GMUX_CLASSIC:
		if (!write)
			return;
		if (touches(off, len, GMUX_PORT_SWITCH_DISPLAY))
			sim_put(s, GMUX_PORT_SWITCH_DISPLAY, 1);
		if (touches(off, len, GMUX_PORT_SWITCH_DDC))
			sim_put(s, GMUX_PORT_SWITCH_DDC, 1);
		if (touches(off, len, GMUX_PORT_SWITCH_EXTERNAL))
			sim_put(s, GMUX_PORT_SWITCH_EXTERNAL, 1);
		if (touches(off, len, GMUX_PORT_DISCRETE_POWER))
			sim_put(s, GMUX_PORT_DISCRETE_POWER, 1);
		if (touches_range(off, len, GMUX_INDEX_PROBE_LO, GMUX_INDEX_PROBE_KICK))
			sim_put(s, GMUX_INDEX_PROBE_LO, 2);
		sim_put_status(s, GMUX_PORT_INTERRUPT_STATUS);
		break;
	case MAC_GMUX_INDEXED:
		if (write && (touches(off, len, GMUX_PORT_READ) ||
			      touches(off, len, GMUX_PORT_WRITE))) {
			sim_complete_delay(s);
			sim_put(s, GMUX_PORT_VALUE, 4);
			sim_put_status(s, GMUX_PORT_WRITE);
		} else if (!write && touches(off, len, GMUX_PORT_READ)) {
			sim_put_status(s, GMUX_PORT_WRITE);
		} else if (write && touches_range(off, len, GMUX_INDEX_PROBE_LO,
						  GMUX_INDEX_PROBE_KICK)) {
			sim_put(s, GMUX_INDEX_PROBE_LO, 2);
		}
		break;
	case MAC_GMUX_T2:
		if (write && touches(off, len, GMUX_T2_COMMAND)) {
			sim_complete_delay(s);
			sim_put(s, GMUX_T2_DATA, 4);
			sim_put_status(s, GMUX_T2_COMMAND);
		}
		break;
	default:
		break;
	}
}

/* --- journal and control ----------------------------------------------- */

static void sim_apply(struct gmux_sim *s, u8 op, unsigned int off, u32 val)
{
	struct gmux_model *m = &s->model;
	unsigned int len = op <= GMUX_SIM_J_WRITE8 ? 1 : 4;
	bool write = op == GMUX_SIM_J_WRITE8 || op == GMUX_SIM_J_WRITE32 ||
		     op == GMUX_SIM_J_WRITE32BE;
	bool was_on = m->dgpu_on;

	if (off + len > sizeof(m->win)) {
		s->bad++;
		return;
	}
	switch (op) {
	case GMUX_SIM_J_READ8:
		gmux_model_read8(m, off);
		break;
	case GMUX_SIM_J_WRITE8:
		gmux_model_write8(m, off, val);
		break;
	case GMUX_SIM_J_READ32:
		gmux_model_read32(m, off);
		break;
	case GMUX_SIM_J_WRITE32:
		gmux_model_write32(m, off, val);
		break;
	case GMUX_SIM_J_READ32BE:
		gmux_model_read32be(m, off);
		break;
	case GMUX_SIM_J_WRITE32BE:
		gmux_model_write32be(m, off, val);
		break;
	default:
		s->bad++;
		return;
	}
	if (was_on && !m->dgpu_on)
		s->dgpu_offs++;
	sim_write_back(s, write, off, len);
}

static void sim_publish_stats(struct gmux_sim *s)
{
	const struct gmux_model *m = &s->model;
	u8 *w = s->win;

	simw_store(w, GMUX_SIM_ST_READS, m->stats.reads);
	simw_store(w, GMUX_SIM_ST_WRITES, m->stats.writes);
	simw_store(w, GMUX_SIM_ST_REG_READS, m->stats.reg_reads);
	simw_store(w, GMUX_SIM_ST_REG_WRITES, m->stats.reg_writes);
	simw_store(w, GMUX_SIM_ST_IRQS_RAISED, m->stats.irqs_raised);
	simw_store(w, GMUX_SIM_ST_IRQS_CLEARED, m->stats.irqs_cleared);
	simw_store(w, GMUX_SIM_ST_INT_STATUS, m->int_status);
	simw_store(w, GMUX_SIM_ST_INT_ENABLE, m->int_enable);
	simw_store(w, GMUX_SIM_ST_BRIGHTNESS, m->brightness);
	simw_store(w, GMUX_SIM_ST_FAULT, m->fault);
	simw_store(w, GMUX_SIM_ST_DROPPED, s->dropped);
	simw_store(w, GMUX_SIM_ST_SWITCH_DISPLAY, m->switch_display);
	simw_store(w, GMUX_SIM_ST_SWITCH_DDC, m->switch_ddc);
	simw_store(w, GMUX_SIM_ST_SWITCH_EXTERNAL, m->switch_external);
	simw_store(w, GMUX_SIM_ST_POWER, m->power);
	simw_store(w, GMUX_SIM_ST_DGPU_ON, m->dgpu_on);
	simw_store(w, GMUX_SIM_ST_DGPU_OFFS, s->dgpu_offs);
	simw_store(w, GMUX_SIM_ST_MAX_GAP_US, s->max_gap_us);
}

static int sim_control_op(struct gmux_sim *s, u32 op, u32 arg)
{
	switch (op) {
	case GMUX_SIM_OP_FAULT:
		if (arg > GMUX_FAULT_MAX)
			return -EINVAL;
		gmux_model_set_fault(&s->model, arg);
		sim_put_outputs(s);
		return 0;
	case GMUX_SIM_OP_SLOW_US:
		if (arg > 10000000)
			return -EINVAL;
		s->model.slow_us = arg;
		return 0;
	case GMUX_SIM_OP_RAISE:
		if (arg > 0xff)
			return -EINVAL;
		gmux_model_raise(&s->model, arg);
		if (s->model.kind == MAC_GMUX_CLASSIC)
			sim_put_status(s, GMUX_PORT_INTERRUPT_STATUS);
		return 0;
	case GMUX_SIM_OP_STUCK_AFTER:
		if (!arg || arg > 1000000)
			return -EINVAL;
		gmux_model_set_fault(&s->model, GMUX_FAULT_NONE);
		s->model.stuck_after = arg;
		sim_put_outputs(s);
		return 0;
	case GMUX_SIM_OP_MAX_BRIGHTNESS:
		if (arg > GMUX_BRIGHTNESS_MASK)
			return -EINVAL;
		gmux_model_set_max_brightness(&s->model, arg);
		if (s->model.kind == MAC_GMUX_CLASSIC) {
			unsigned int i;

			for (i = 0; i < 4; i++)
				sim_put_status(s, GMUX_PORT_MAX_BRIGHTNESS + i);
		}
		return 0;
	case GMUX_SIM_OP_RESET_STATS:
		memset(&s->model.stats, 0, sizeof(s->model.stats));
		s->dropped = 0;
		s->max_gap_us = 0;
		return 0;
	default:
		return -EINVAL;
	}
}

/* Serve a pending control request; returns 1 if there was one. */
static int sim_control(struct gmux_sim *s)
{
	u32 seq = simw_load(s->win, GMUX_SIM_CTL_SEQ);
	int ret;

	if (seq == simw_load(s->win, GMUX_SIM_CTL_ACK))
		return 0;
	ret = sim_control_op(s, simw_load(s->win, GMUX_SIM_CTL_OP),
			     simw_load(s->win, GMUX_SIM_CTL_ARG));
	s->ctl_ops++;
	sim_publish_stats(s);
	simw_store(s->win, GMUX_SIM_CTL_RESULT, -ret);
	simw_store(s->win, GMUX_SIM_CTL_ACK, seq);
	return 1;
}

/* Replay the journal up to HEAD; returns the number of entries replayed. */
static unsigned int sim_journal(struct gmux_sim *s)
{
	u32 head = simw_load(s->win, GMUX_SIM_HEAD);
	unsigned int n = 0;

	if (head == s->tail)
		return 0;
	if (head - s->tail > GMUX_SIM_RING) {
		s->dropped += head - s->tail - GMUX_SIM_RING;
		s->tail = head - GMUX_SIM_RING;
	}
	while (s->tail != head) {
		unsigned int e = simw_entry_off(s->tail);

		sim_apply(s, simw_get8(s->win, e), simw_get8(s->win, e + 1),
			  simw_load(s->win, e + 4));
		s->tail++;
		n++;
	}
	simw_store(s->win, GMUX_SIM_TAIL, s->tail);
	s->entries += n;
	s->batches++;
	sim_publish_stats(s);
	return n;
}

/* One poll: journal, then control. Returns the work done. */
static unsigned int sim_poll(struct gmux_sim *s)
{
	unsigned int n = sim_journal(s);

	return n + sim_control(s);
}

/*
 * Lay out a fresh window: the registers as firmware leaves them, the kind,
 * empty journal and control, and the magic last.
 */
static void sim_init(struct gmux_sim *s, u8 *win, enum mac_gmux_kind kind)
{
	unsigned int off;

	memset(s, 0, sizeof(*s));
	s->win = win;
	gmux_model_init(&s->model, kind);
	if (sim_boot_dis) {
		gmux_model_reg_write(&s->model, GMUX_PORT_SWITCH_DISPLAY, GMUX_SWITCH_DIS);
		gmux_model_reg_write(&s->model, GMUX_PORT_SWITCH_DDC, GMUX_DDC_DIS);
	}
	for (off = 0; off < GMUX_SIM_WINDOW_LEN; off++)
		simw_put8(win, off, 0);
	for (off = 0; off < sizeof(s->model.win); off++)
		simw_put8(win, GMUX_SIM_REGS + off, sim_peek(s, off));
	simw_store(win, GMUX_SIM_KIND, kind);
	sim_publish_stats(s);
	simw_store(win, GMUX_SIM_MAGIC, GMUX_SIM_MAGIC_VALUE);
}

static void sim_sleep_us(unsigned int us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000L };

	nanosleep(&ts, NULL);
}

/**
 * struct sim_timing - how the simulator polls (see DOC: Polling)
 * @spin_us: spin this long after the last work before sleeping
 * @busy_us: sleep of a poll within @busy_window_us of the last work
 * @busy_window_us: how long after the last work the short sleep is kept
 * @idle_us: longest sleep, reached by doubling after the busy window
 */
struct sim_timing {
	unsigned int spin_us;
	unsigned int busy_us;
	unsigned int busy_window_us;
	unsigned int idle_us;
};

/* Poll until sim_stop (or *stop, for the self-test's threads). */
static void sim_loop(struct gmux_sim *s, const struct sim_timing *t, const int *stop)
{
	unsigned int sleep_us = t->busy_us;
	u64 last = simw_now_us(), now, polled = last;

	while (!__atomic_load_n(&sim_stop, __ATOMIC_RELAXED) &&
	       !(stop && __atomic_load_n(stop, __ATOMIC_RELAXED))) {
		now = simw_now_us();
		if (now - polled > s->max_gap_us)
			s->max_gap_us = now - polled > UINT32_MAX ? UINT32_MAX : now - polled;
		polled = now;
		if (sim_poll(s)) {
			last = simw_now_us();
			sleep_us = t->busy_us;
			continue;
		}
		now = simw_now_us();
		if (now - last < t->spin_us) {
			__builtin_ia32_pause();
			continue;
		}
		if (now - last > t->busy_window_us && sleep_us < t->idle_us)
			sleep_us = sleep_us * 2 < t->idle_us ? sleep_us * 2 : t->idle_us;
		sim_sleep_us(sleep_us);
	}
}

static const struct sim_timing sim_default_timing = {
	.spin_us = SIM_SPIN_US,
	.busy_us = SIM_BUSY_POLL_US,
	.busy_window_us = SIM_BUSY_WINDOW_US,
	.idle_us = SIM_IDLE_POLL_US,
};

/* --- the program ---------------------------------------------------------- */

static void on_signal(int sig)
{
	(void)sig;
	__atomic_store_n(&sim_stop, 1, __ATOMIC_RELAXED);
}

static int parse_kind(const char *s, enum mac_gmux_kind *kind)
{
	if (!strcmp(s, "classic"))
		*kind = MAC_GMUX_CLASSIC;
	else if (!strcmp(s, "indexed"))
		*kind = MAC_GMUX_INDEXED;
	else if (!strcmp(s, "t2"))
		*kind = MAC_GMUX_T2;
	else
		return -EINVAL;
	return 0;
}

static int parse_size(const char *s, unsigned long *size)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case 'K': case 'k':
		v <<= 10;
		end++;
		break;
	case 'M': case 'm':
		v <<= 20;
		end++;
		break;
	case 'G': case 'g':
		v <<= 30;
		end++;
		break;
	}
	if (*end)
		return -EINVAL;
	*size = v;
	return 0;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static int run_sim(enum mac_gmux_kind kind, const char *path, unsigned long size,
		   const struct sim_timing *timing)
{
	static struct gmux_sim sim;
	struct sigaction sa = { .sa_handler = on_signal };
	u64 t0 = simw_now_us();
	void *map;
	int fd;

	if (size < GMUX_SIM_BAR_OFFSET + GMUX_SIM_WINDOW_LEN || (size & (size - 1))) {
		fprintf(stderr, "gmux-sim: --size %lu: must be a power of two of at least %#x\n",
			size, GMUX_SIM_BAR_OFFSET + GMUX_SIM_WINDOW_LEN);
		return 1;
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		fprintf(stderr, "gmux-sim: cannot create %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (ftruncate(fd, size)) {
		fprintf(stderr, "gmux-sim: cannot size %s to %lu bytes: %s\n", path, size,
			strerror(errno));
		close(fd);
		return 1;
	}
	map = mmap(NULL, GMUX_SIM_WINDOW_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   GMUX_SIM_BAR_OFFSET);
	close(fd);
	if (map == MAP_FAILED) {
		fprintf(stderr, "gmux-sim: cannot map %s: %s\n", path, strerror(errno));
		return 1;
	}

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* Sleep as long as asked, not the default 50 us longer. */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);

	sim_init(&sim, map, kind);
	fprintf(stderr, "gmux-sim: %s gmux in %s at %#x (pid %d; spin %u us, poll %u..%u us; panel on the %s)\n",
		mac_gmux_kind_name(kind), path, GMUX_SIM_BAR_OFFSET, getpid(), timing->spin_us,
		timing->busy_us, timing->idle_us, sim_boot_dis ? "dGPU" : "iGPU");

	sim_loop(&sim, timing, NULL);

	/* The guest can tell the simulator is gone; the harness deletes the file. */
	simw_store(sim.win, GMUX_SIM_MAGIC, 0);
	fprintf(stderr,
		"gmux-sim: stopped after %.1f s: %lu entries in %lu batches, %lu control ops, %u dropped, %lu bad; cpu %.2f s; reads %lu writes %lu reg_reads %lu reg_writes %lu\n",
		(simw_now_us() - t0) / 1e6, sim.entries, sim.batches, sim.ctl_ops, sim.dropped,
		sim.bad, cpu_seconds(), sim.model.stats.reads, sim.model.stats.writes,
		sim.model.stats.reg_reads, sim.model.stats.reg_writes);
	munmap(map, GMUX_SIM_WINDOW_LEN);
	return 0;
}

/* --- self-test -------------------------------------------------------------- */

static int st_failed;

static void st_result(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("ok %s\n", name);
		return;
	}
	st_failed++;
	printf("not ok %s # ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* The single-process guest runs the simulator whenever it waits. */
static void st_poll(void *ctx)
{
	sim_poll(ctx);
}

static u8 *st_window(void)
{
	void *p = mmap(NULL, GMUX_SIM_WINDOW_LEN, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("gmux-sim: mmap");
		exit(1);
	}
	return p;
}

static void st_guest(struct simw_guest *g, struct gmux_sim *s)
{
	memset(g, 0, sizeof(*g));
	g->win = s->win;
	g->poll = st_poll;
	g->ctx = s;
	g->timeout_us = GMUX_TIMEOUT_US;
}

static void st_ctl(struct gmux_sim *s, u32 op, u32 arg)
{
	simw_store(s->win, GMUX_SIM_CTL_OP, op);
	simw_store(s->win, GMUX_SIM_CTL_ARG, arg);
	simw_store(s->win, GMUX_SIM_CTL_SEQ, simw_load(s->win, GMUX_SIM_CTL_SEQ) + 1);
	sim_poll(s);
}

static void st_layout(void)
{
	static struct gmux_sim s;
	u8 *w = st_window();
	struct gmux_model ref;
	u32 max, bri;

	sim_init(&s, w, MAC_GMUX_CLASSIC);
	gmux_model_init(&ref, MAC_GMUX_CLASSIC);
	st_result(simw_load(w, GMUX_SIM_MAGIC) == GMUX_SIM_MAGIC_VALUE &&
		  simw_load(w, GMUX_SIM_KIND) == MAC_GMUX_CLASSIC, "header",
		  "magic %#x kind %u", simw_load(w, GMUX_SIM_MAGIC), simw_load(w, GMUX_SIM_KIND));
	st_result(simw_get8(w, 0x04) == ref.version[0] && simw_get8(w, 0x05) == ref.version[1] &&
		  simw_get8(w, 0x06) == ref.version[2], "classic-version",
		  "window %u.%u.%u, model %u.%u.%u", simw_get8(w, 4), simw_get8(w, 5), simw_get8(w, 6),
		  ref.version[0], ref.version[1], ref.version[2]);
	max = le32toh(simw_get32(w, GMUX_PORT_MAX_BRIGHTNESS));
	bri = le32toh(simw_get32(w, GMUX_PORT_BRIGHTNESS));
	st_result(max == ref.max_brightness && (bri & GMUX_BRIGHTNESS_MASK) == ref.brightness,
		  "classic-brightness-registers", "max %#x brightness %#x, model %#x %#x",
		  max, bri, ref.max_brightness, ref.brightness);

	sim_init(&s, w, MAC_GMUX_INDEXED);
	st_result(simw_get8(w, 0x04) == 0xff && simw_get8(w, 0x05) == 0xff &&
		  simw_get8(w, 0x06) == 0xff && simw_get8(w, 0xd4) == 0,
		  "indexed-initial-window", "0x04..0x06 %02x %02x %02x, 0xd4 %02x",
		  simw_get8(w, 4), simw_get8(w, 5), simw_get8(w, 6), simw_get8(w, 0xd4));

	sim_init(&s, w, MAC_GMUX_T2);
	st_result(simw_get8(w, GMUX_T2_COMMAND) == 0 && simw_load(w, GMUX_SIM_KIND) == MAC_GMUX_T2,
		  "t2-initial-window", "0x0f %02x", simw_get8(w, GMUX_T2_COMMAND));
	munmap(w, GMUX_SIM_WINDOW_LEN);
}

static void st_indexed(void)
{
	static struct gmux_sim s;
	u8 *w = st_window();
	struct simw_guest g;
	struct gmux_io io;
	u32 val = 0;
	int ret;

	sim_init(&s, w, MAC_GMUX_INDEXED);
	st_guest(&g, &s);
	simw_gmux_io(&g, MAC_GMUX_INDEXED, &io);

	/* The indexed probe of apple_gmux_detect(). */
	simw_write8(&g, GMUX_INDEX_PROBE_LO, 0xaa);
	simw_write8(&g, GMUX_INDEX_PROBE_HI, 0x55);
	simw_write8(&g, GMUX_INDEX_PROBE_KICK, 0x00);
	sim_poll(&s);
	val = simw_read8(&g, GMUX_INDEX_PROBE_LO) | simw_read8(&g, GMUX_INDEX_PROBE_HI) << 8;
	st_result(val == GMUX_INDEX_PROBE_MAGIC, "indexed-probe", "read %#x", val);

	ret = gmux_io_write32(&io, GMUX_PORT_BRIGHTNESS, 0x1234);
	st_result(!ret && s.model.brightness == 0x1234, "indexed-write",
		  "ret %d, model brightness %#x", ret, s.model.brightness);

	/* The ack must not overwrite data the guest already wrote for the next command. */
	simw_write32(&g, GMUX_PORT_VALUE, 0xcafe);
	sim_poll(&s);
	val = le32toh(simw_get32(w, GMUX_PORT_VALUE));
	st_result(val == 0xcafe && !(simw_get8(w, GMUX_PORT_WRITE) & 1), "indexed-ack-keeps-next-data",
		  "0xc2 %#x, 0xd4 %#x", val, simw_get8(w, GMUX_PORT_WRITE));

	val = 0;
	ret = gmux_io_read32(&io, GMUX_PORT_BRIGHTNESS, &val);
	st_result(!ret && (val & GMUX_BRIGHTNESS_MASK) == 0x1234, "indexed-read",
		  "ret %d, read %#x", ret, val);

	sim_poll(&s);
	st_result(simw_load(w, GMUX_SIM_TAIL) == simw_load(w, GMUX_SIM_HEAD) &&
		  simw_load(w, GMUX_SIM_ST_REG_WRITES) >= 1 &&
		  simw_load(w, GMUX_SIM_ST_REG_READS) >= 1 &&
		  simw_load(w, GMUX_SIM_ST_BRIGHTNESS) == 0x1234 && !s.bad,
		  "indexed-stats", "head %u tail %u reg_reads %u reg_writes %u brightness %#x bad %lu",
		  simw_load(w, GMUX_SIM_HEAD), simw_load(w, GMUX_SIM_TAIL),
		  simw_load(w, GMUX_SIM_ST_REG_READS), simw_load(w, GMUX_SIM_ST_REG_WRITES),
		  simw_load(w, GMUX_SIM_ST_BRIGHTNESS), s.bad);

	st_ctl(&s, GMUX_SIM_OP_FAULT, GMUX_FAULT_STUCK_BUSY);
	ret = gmux_io_read32(&io, GMUX_PORT_BRIGHTNESS, &val);
	st_result((simw_get8(w, GMUX_PORT_WRITE) & 1) && ret == -ETIMEDOUT &&
		  simw_load(w, GMUX_SIM_CTL_ACK) == simw_load(w, GMUX_SIM_CTL_SEQ) &&
		  simw_load(w, GMUX_SIM_ST_FAULT) == GMUX_FAULT_STUCK_BUSY,
		  "indexed-fault-stuck", "0xd4 %#x, read ret %d", simw_get8(w, GMUX_PORT_WRITE), ret);
	st_ctl(&s, GMUX_SIM_OP_FAULT, GMUX_FAULT_NONE);
	ret = gmux_io_read32(&io, GMUX_PORT_BRIGHTNESS, &val);
	sim_poll(&s);
	st_result(!(simw_get8(w, GMUX_PORT_WRITE) & 1) && !ret, "indexed-fault-cleared",
		  "0xd4 %#x, read ret %d", simw_get8(w, GMUX_PORT_WRITE), ret);

	st_ctl(&s, 99, 0);
	st_result(simw_load(w, GMUX_SIM_CTL_RESULT) == EINVAL &&
		  simw_load(w, GMUX_SIM_CTL_ACK) == simw_load(w, GMUX_SIM_CTL_SEQ),
		  "control-unknown-op", "result %u", simw_load(w, GMUX_SIM_CTL_RESULT));
	st_ctl(&s, GMUX_SIM_OP_RESET_STATS, 0);
	st_result(simw_load(w, GMUX_SIM_ST_READS) == 0 &&
		  simw_load(w, GMUX_SIM_ST_REG_WRITES) == 0 &&
		  simw_load(w, GMUX_SIM_CTL_RESULT) == 0, "control-reset-stats",
		  "reads %u", simw_load(w, GMUX_SIM_ST_READS));
	munmap(w, GMUX_SIM_WINDOW_LEN);
}

static void st_t2(void)
{
	static struct gmux_sim s;
	u8 *w = st_window();
	struct simw_guest g;
	struct gmux_io io;
	u32 val = 0;
	int ret;

	sim_init(&s, w, MAC_GMUX_T2);
	st_guest(&g, &s);
	simw_gmux_io(&g, MAC_GMUX_T2, &io);

	ret = gmux_io_read32(&io, GMUX_PORT_BRIGHTNESS, &val);
	st_result(!ret && val == s.model.brightness && simw_get8(w, GMUX_T2_COMMAND) == 0, "t2-read",
		  "ret %d, read %#x, model %#x, 0x0f %#x", ret, val, s.model.brightness,
		  simw_get8(w, GMUX_T2_COMMAND));

	ret = gmux_io_write32(&io, GMUX_PORT_BRIGHTNESS, 0x2345);
	val = 0;
	if (!ret)
		ret = gmux_io_read32(&io, GMUX_PORT_BRIGHTNESS, &val);
	st_result(!ret && val == 0x2345 && s.model.brightness == 0x2345, "t2-write-read",
		  "ret %d, read %#x, model %#x", ret, val, s.model.brightness);

	st_ctl(&s, GMUX_SIM_OP_FAULT, GMUX_FAULT_STUCK_BUSY);
	ret = gmux_io_read32(&io, GMUX_PORT_BRIGHTNESS, &val);
	st_result(ret == -ETIMEDOUT, "t2-fault-stuck", "read ret %d, 0x0f %#x", ret,
		  simw_get8(w, GMUX_T2_COMMAND));
	st_ctl(&s, GMUX_SIM_OP_FAULT, GMUX_FAULT_NONE);
	ret = gmux_io_read32(&io, GMUX_PORT_BRIGHTNESS, &val);
	st_result(!ret && simw_get8(w, GMUX_T2_COMMAND) == 0, "t2-fault-cleared", "read ret %d, 0x0f %#x",
		  ret, simw_get8(w, GMUX_T2_COMMAND));
	munmap(w, GMUX_SIM_WINDOW_LEN);
}

static void st_classic(void)
{
	static struct gmux_sim s;
	u8 *w = st_window();
	struct gmux_model ref;
	struct simw_guest g;
	u8 st, v[3];

	sim_init(&s, w, MAC_GMUX_CLASSIC);
	gmux_model_init(&ref, MAC_GMUX_CLASSIC);
	st_guest(&g, &s);

	st_ctl(&s, GMUX_SIM_OP_FAULT, GMUX_FAULT_GARBAGE_VERSION);
	v[0] = simw_get8(w, 4);
	v[1] = simw_get8(w, 5);
	v[2] = simw_get8(w, 6);
	st_result(v[0] == 0xff && v[1] == 0xff && v[2] == 0xff, "classic-fault-garbage-version",
		  "version bytes %02x %02x %02x", v[0], v[1], v[2]);
	st_ctl(&s, GMUX_SIM_OP_FAULT, GMUX_FAULT_NONE);
	v[0] = simw_get8(w, 4);
	v[1] = simw_get8(w, 5);
	v[2] = simw_get8(w, 6);
	st_result(!memcmp(v, ref.version, 3), "classic-fault-cleared",
		  "version bytes %02x %02x %02x", v[0], v[1], v[2]);

	/*
	 * The indexed probe on a classic gmux: once the simulator has replayed
	 * the writes, 0xcc/0xcd read the model's 0, not the guest's 0xaa/0x55.
	 */
	simw_write8(&g, GMUX_INDEX_PROBE_LO, 0xaa);
	simw_write8(&g, GMUX_INDEX_PROBE_HI, 0x55);
	simw_write8(&g, GMUX_INDEX_PROBE_KICK, 0x00);
	simw_sync(&g);
	v[0] = simw_read8(&g, GMUX_INDEX_PROBE_LO);
	v[1] = simw_read8(&g, GMUX_INDEX_PROBE_HI);
	st_result(!v[0] && !v[1], "classic-probe-after-sync", "0xcc %#x 0xcd %#x", v[0], v[1]);

	st_ctl(&s, GMUX_SIM_OP_RAISE, GMUX_INT_POWER);
	st = simw_read8(&g, GMUX_PORT_INTERRUPT_STATUS);
	simw_write8(&g, GMUX_PORT_INTERRUPT_ENABLE, GMUX_INT_DISABLE);
	simw_write8(&g, GMUX_PORT_INTERRUPT_STATUS, st);
	simw_write8(&g, GMUX_PORT_INTERRUPT_ENABLE, GMUX_INT_ENABLE);
	simw_sync(&g);
	st_result(st == GMUX_INT_POWER && simw_get8(w, GMUX_PORT_INTERRUPT_STATUS) == 0 &&
		  !s.model.int_status && simw_load(w, GMUX_SIM_ST_IRQS_RAISED) == 1 &&
		  simw_load(w, GMUX_SIM_ST_IRQS_CLEARED) >= 1, "classic-interrupt-roundtrip",
		  "status read %#x, now %#x, model %#x, raised %u cleared %u", st,
		  simw_get8(w, GMUX_PORT_INTERRUPT_STATUS), s.model.int_status,
		  simw_load(w, GMUX_SIM_ST_IRQS_RAISED), simw_load(w, GMUX_SIM_ST_IRQS_CLEARED));

	simw_write8(&g, GMUX_PORT_SWITCH_DISPLAY, GMUX_SWITCH_DIS);
	simw_sync(&g);
	st_result(s.model.switch_display == GMUX_SWITCH_DIS &&
		  (simw_get8(w, GMUX_PORT_SWITCH_DISPLAY) & 1), "classic-switch-display",
		  "model %u, window %#x", s.model.switch_display, simw_get8(w, GMUX_PORT_SWITCH_DISPLAY));
	munmap(w, GMUX_SIM_WINDOW_LEN);
}

static void st_ring(void)
{
	static struct gmux_sim s;
	u8 *w = st_window();
	struct simw_guest g;
	unsigned int i;

	sim_init(&s, w, MAC_GMUX_INDEXED);
	st_guest(&g, &s);
	/* 1000 entries in chunks: the ring wraps, nothing is lost. */
	for (i = 0; i < 1000; i++) {
		simw_read8(&g, GMUX_PORT_VERSION_MAJOR);
		if (i % 100 == 99)
			sim_poll(&s);
	}
	st_result(s.tail == 1000 && simw_load(w, GMUX_SIM_TAIL) == 1000 && !s.dropped &&
		  s.model.stats.reads == 1000, "ring-wraps",
		  "tail %u dropped %u reads %lu", s.tail, s.dropped, s.model.stats.reads);

	/* A guest that ignores TAIL and runs 500 ahead loses 500 - ring. */
	for (i = 0; i < 500; i++) {
		unsigned int e = simw_entry_off(1000 + i);

		simw_store(w, e, GMUX_SIM_J_READ8 | GMUX_PORT_VERSION_MAJOR << 8);
		simw_store(w, GMUX_SIM_HEAD, 1000 + i + 1);
	}
	sim_poll(&s);
	st_result(s.tail == 1500 && simw_load(w, GMUX_SIM_ST_DROPPED) == 500 - GMUX_SIM_RING,
		  "ring-overrun-counted", "tail %u dropped %u", s.tail,
		  simw_load(w, GMUX_SIM_ST_DROPPED));
	munmap(w, GMUX_SIM_WINDOW_LEN);
}

/* A polling guest without flooding the journal: 20 us between polls. */
static void st_spin_poll(void *ctx)
{
	u64 until = simw_now_us() + 20;

	(void)ctx;
	while (simw_now_us() < until)
		__builtin_ia32_pause();
}

struct st_thread {
	struct gmux_sim *sim;
	int stop;
};

static void *st_sim_thread(void *arg)
{
	struct st_thread *t = arg;

	sim_loop(t->sim, &sim_default_timing, &t->stop);
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The real polling loop in a thread, a guest in this one: latency. */
static void st_threaded(enum mac_gmux_kind kind, const char *name)
{
	enum { N = 500 };
	static struct gmux_sim s;
	static u64 lat[N];
	u8 *w = st_window();
	struct st_thread t = { .sim = &s };
	struct simw_guest g;
	struct gmux_io io;
	pthread_t tid;
	unsigned int i, errors = 0;
	u64 sum = 0, t0, slow;
	u32 val;
	int ret;

	sim_init(&s, w, kind);
	st_guest(&g, &s);
	g.poll = st_spin_poll;
	/* Correctness here, not real time: a loaded host may stall a thread. */
	g.timeout_us = 1000000;
	simw_gmux_io(&g, kind, &io);
	if (pthread_create(&tid, NULL, st_sim_thread, &t)) {
		st_result(false, name, "pthread_create failed");
		return;
	}
	for (i = 0; i < N; i++) {
		/* Idle between commands now and then, as a driver does. */
		if (i % 50 == 0)
			sim_sleep_us(5000);
		t0 = simw_now_us();
		ret = gmux_io_read32(&io, GMUX_PORT_BRIGHTNESS, &val);
		lat[i] = simw_now_us() - t0;
		sum += lat[i];
		if (ret || (val & GMUX_BRIGHTNESS_MASK) != s.model.brightness)
			errors++;
	}

	/* GMUX_FAULT_SLOW: a command takes at least slow_us. */
	simw_store(w, GMUX_SIM_CTL_OP, GMUX_SIM_OP_SLOW_US);
	simw_store(w, GMUX_SIM_CTL_ARG, 3000);
	simw_store(w, GMUX_SIM_CTL_SEQ, 1);
	while (simw_load(w, GMUX_SIM_CTL_ACK) != 1)
		sim_sleep_us(10);
	simw_store(w, GMUX_SIM_CTL_OP, GMUX_SIM_OP_FAULT);
	simw_store(w, GMUX_SIM_CTL_ARG, GMUX_FAULT_SLOW);
	simw_store(w, GMUX_SIM_CTL_SEQ, 2);
	while (simw_load(w, GMUX_SIM_CTL_ACK) != 2)
		sim_sleep_us(10);
	t0 = simw_now_us();
	ret = gmux_io_read32(&io, GMUX_PORT_BRIGHTNESS, &val);
	slow = simw_now_us() - t0;

	__atomic_store_n(&t.stop, 1, __ATOMIC_RELAXED);
	pthread_join(tid, NULL);
	qsort(lat, N, sizeof(lat[0]), cmp_u64);
	st_result(!errors && !g.timeouts && !io.timeouts && !s.dropped && !s.bad, name,
		  "%u errors, %lu timeouts, %u dropped, %lu bad", errors, g.timeouts + io.timeouts,
		  s.dropped, s.bad);
	printf("# %s: %u register reads (guest polls every 20 us), latency min %llu us, median %llu us, p99 %llu us, max %llu us, mean %llu us\n",
	       name, N, (unsigned long long)lat[0], (unsigned long long)lat[N / 2],
	       (unsigned long long)lat[N * 99 / 100], (unsigned long long)lat[N - 1],
	       (unsigned long long)(sum / N));
	st_result(!ret && slow >= 3000, kind == MAC_GMUX_T2 ?
		  "t2-fault-slow" : "indexed-fault-slow", "ret %d, took %llu us", ret,
		  (unsigned long long)slow);
	munmap(w, GMUX_SIM_WINDOW_LEN);
}

static void st_idle_cpu(void)
{
	static struct gmux_sim s;
	u8 *w = st_window();
	struct st_thread t = { .sim = &s };
	pthread_t tid;
	double c0, cpu;
	u64 t0, wall;

	sim_init(&s, w, MAC_GMUX_INDEXED);
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	c0 = cpu_seconds();
	t0 = simw_now_us();
	if (pthread_create(&tid, NULL, st_sim_thread, &t)) {
		st_result(false, "idle-cpu", "pthread_create failed");
		return;
	}
	sim_sleep_us(300000);
	__atomic_store_n(&t.stop, 1, __ATOMIC_RELAXED);
	pthread_join(tid, NULL);
	wall = simw_now_us() - t0;
	cpu = cpu_seconds() - c0;
	printf("# idle (polling every %u us): %.1f %% of one CPU\n", SIM_IDLE_POLL_US,
	       100.0 * cpu / (wall / 1e6));
	/* Generous: a busy host stretches the sleeps, it never shortens them. */
	st_result(cpu / (wall / 1e6) < 0.5, "idle-cpu", "%.0f %% of one CPU while idle",
		  100.0 * cpu / (wall / 1e6));
	munmap(w, GMUX_SIM_WINDOW_LEN);
}

static int selftest(void)
{
	st_layout();
	st_indexed();
	st_t2();
	st_classic();
	st_ring();
	st_threaded(MAC_GMUX_INDEXED, "indexed-threaded");
	st_threaded(MAC_GMUX_T2, "t2-threaded");
	st_idle_cpu();
	printf("# %s\n", st_failed ? "FAILED" : "all passed");
	return st_failed ? 1 : 0;
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: gmux-sim --kind classic|indexed|t2 --shm /dev/shm/FILE [--size 1M]\n"
		"                [--poll-us N] [--spin-us N] [--panel igd|dis]\n"
		"       gmux-sim --selftest\n"
		"TEST ONLY: simulates a gmux behind an ivshmem-plain window (see gmux_sim.h).\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kind", required_argument, NULL, 'k' },
		{ "shm", required_argument, NULL, 's' },
		{ "size", required_argument, NULL, 'z' },
		{ "poll-us", required_argument, NULL, 'p' },
		{ "spin-us", required_argument, NULL, 'S' },
		{ "panel", required_argument, NULL, 'P' },
		{ "selftest", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	enum mac_gmux_kind kind = MAC_GMUX_NONE;
	struct sim_timing timing = sim_default_timing;
	unsigned long size = SIM_DEFAULT_SIZE, v;
	const char *shm = NULL;
	char *end;
	int c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			if (parse_kind(optarg, &kind)) {
				fprintf(stderr, "gmux-sim: unknown --kind '%s' (classic, indexed or t2)\n",
					optarg);
				return 1;
			}
			break;
		case 's':
			shm = optarg;
			break;
		case 'z':
			if (parse_size(optarg, &size)) {
				fprintf(stderr, "gmux-sim: bad --size '%s'\n", optarg);
				return 1;
			}
			break;
		case 'p':
		case 'S':
			v = strtoul(optarg, &end, 0);
			if (*end || v > 100000 || (c == 'p' && !v)) {
				fprintf(stderr, "gmux-sim: bad --%s '%s' (%u..100000)\n",
					c == 'p' ? "poll-us" : "spin-us", optarg, c == 'p');
				return 1;
			}
			if (c == 'p')
				timing.idle_us = v;
			else
				timing.spin_us = v;
			break;
		case 'P':
			if (strcmp(optarg, "igd") && strcmp(optarg, "dis")) {
				fprintf(stderr, "gmux-sim: bad --panel '%s' (igd or dis)\n", optarg);
				return 1;
			}
			sim_boot_dis = !strcmp(optarg, "dis");
			break;
		case 't':
			return selftest();
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 1;
		}
	}
	if (optind != argc || kind == MAC_GMUX_NONE || !shm) {
		print_usage(stderr);
		return 1;
	}
	if (timing.busy_us > timing.idle_us)
		timing.busy_us = timing.idle_us;
	return run_sim(kind, shm, size, &timing);
}
