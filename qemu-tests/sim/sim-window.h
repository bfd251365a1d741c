/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Both ends of the gmux simulator window, in userspace (TEST ONLY;
 * layout in include/macsupport/gmux_sim.h).
 *
 * Field access with the ordering the window needs, and a guest-side
 * journal producer with the three gmux handshakes on top of it. The
 * producer plays the part of apple_gmux_ng's test transport: every access
 * is made on the window memory and then appended to the journal. It is
 * used by "gmux-sim --selftest" (which plays guest and simulator in one
 * process) and by "gmux-simctl bench" (which measures the round trip from
 * inside a guest while no driver is bound).
 */
#ifndef GMUX_SIM_WINDOW_H
#define GMUX_SIM_WINDOW_H

#include <endian.h>
#include <string.h>
#include <time.h>

#include "macsupport/lib_types.h"
#include "macsupport/gmux_proto.h"
#include "macsupport/gmux_regs.h"
#include "macsupport/gmux_sim.h"

/*
 * The window is shared with another process (or a guest): every access goes
 * through these helpers, the userspace counterparts of READ_ONCE() and
 * WRITE_ONCE(), so the compiler neither caches nor tears nor drops one.
 */
static inline void simw_barrier(void)
{
	__asm__ __volatile__("" : : : "memory");
}

static inline u8 simw_get8(const u8 *win, unsigned int off)
{
	return __atomic_load_n(win + off, __ATOMIC_RELAXED);
}

static inline void simw_put8(u8 *win, unsigned int off, u8 val)
{
	__atomic_store_n(win + off, val, __ATOMIC_RELAXED);
}

/* Four bytes of the register space in one access (may be unaligned: 0xc2). */
static inline u32 simw_get32(const u8 *win, unsigned int off)
{
	u32 v;

	simw_barrier();
	memcpy(&v, win + off, sizeof(v));
	simw_barrier();
	return v;
}

static inline void simw_put32(u8 *win, unsigned int off, u32 v)
{
	simw_barrier();
	memcpy(win + off, &v, sizeof(v));
	simw_barrier();
}

/* A u32 field of the window, little-endian, read with acquire semantics. */
static inline u32 simw_load(const u8 *win, unsigned int off)
{
	return le32toh(__atomic_load_n((const u32 *)(win + off), __ATOMIC_ACQUIRE));
}

/* A u32 field of the window, stored with release semantics. */
static inline void simw_store(u8 *win, unsigned int off, u32 val)
{
	__atomic_store_n((u32 *)(win + off), htole32(val), __ATOMIC_RELEASE);
}

static inline unsigned int simw_entry_off(u32 index)
{
	return GMUX_SIM_RING_OFF + (index % GMUX_SIM_RING) * GMUX_SIM_ENTRY_LEN;
}

static inline u64 simw_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/**
 * struct simw_guest - the guest's end of a window
 * @win: the window (GMUX_SIM_WINDOW_LEN bytes)
 * @poll: called in every wait iteration (single-process tests run the
 *	simulator from here); may be NULL
 * @ctx: argument of @poll
 * @timeout_us: bound of every handshake wait and of waiting for ring space
 * @timeouts: waits that gave up
 */
struct simw_guest {
	u8 *win;
	void (*poll)(void *ctx);
	void *ctx;
	u64 timeout_us;
	unsigned long timeouts;
};

static inline void simw_guest_poll(struct simw_guest *g)
{
	if (g->poll)
		g->poll(g->ctx);
}

/*
 * Append one journal entry; waits (bounded) while the ring is full.
 * Returns 0, or -ETIMEDOUT if the simulator did not make room in time.
 */
static inline int simw_journal(struct simw_guest *g, u8 op, u8 off, u32 val)
{
	u32 head = simw_load(g->win, GMUX_SIM_HEAD);
	u64 deadline = simw_now_us() + g->timeout_us;
	unsigned int e;

	while (head - simw_load(g->win, GMUX_SIM_TAIL) >= GMUX_SIM_RING) {
		if (simw_now_us() > deadline) {
			g->timeouts++;
			return -ETIMEDOUT;
		}
		simw_guest_poll(g);
	}
	e = simw_entry_off(head);
	simw_store(g->win, e, op | off << 8);
	simw_store(g->win, e + 4, val);
	simw_store(g->win, GMUX_SIM_HEAD, head + 1);
	return 0;
}

static inline u8 simw_read8(struct simw_guest *g, unsigned int off)
{
	u8 v = simw_get8(g->win, GMUX_SIM_REGS + off);

	simw_journal(g, GMUX_SIM_J_READ8, off, v);
	return v;
}

static inline void simw_write8(struct simw_guest *g, unsigned int off, u8 v)
{
	simw_put8(g->win, GMUX_SIM_REGS + off, v);
	simw_journal(g, GMUX_SIM_J_WRITE8, off, v);
}

static inline u32 simw_read32(struct simw_guest *g, unsigned int off)
{
	u32 v = le32toh(simw_get32(g->win, GMUX_SIM_REGS + off));

	simw_journal(g, GMUX_SIM_J_READ32, off, v);
	return v;
}

static inline void simw_write32(struct simw_guest *g, unsigned int off, u32 v)
{
	simw_put32(g->win, GMUX_SIM_REGS + off, htole32(v));
	simw_journal(g, GMUX_SIM_J_WRITE32, off, v);
}

static inline u32 simw_read32be(struct simw_guest *g, unsigned int off)
{
	u32 v = be32toh(simw_get32(g->win, GMUX_SIM_REGS + off));

	simw_journal(g, GMUX_SIM_J_READ32BE, off, v);
	return v;
}

static inline void simw_write32be(struct simw_guest *g, unsigned int off, u32 v)
{
	simw_put32(g->win, GMUX_SIM_REGS + off, htobe32(v));
	simw_journal(g, GMUX_SIM_J_WRITE32BE, off, v);
}

/* Wait until the simulator has consumed every entry appended so far. */
static inline int simw_sync(struct simw_guest *g)
{
	u32 head = simw_load(g->win, GMUX_SIM_HEAD);
	u64 deadline = simw_now_us() + g->timeout_us;

	while (simw_load(g->win, GMUX_SIM_TAIL) != head) {
		if (simw_now_us() > deadline) {
			g->timeouts++;
			return -ETIMEDOUT;
		}
		simw_guest_poll(g);
	}
	return 0;
}

/*
 * The gmux protocols over the window: the same src/lib/gmux_proto.c the
 * driver runs, plugged into the journalled accessors above. Between polls
 * the guest runs @poll (the in-process simulator of a self-test) or, with
 * none, spins for the poll interval as the driver sleeps.
 */
static u8 simw_io_read8(void *ctx, unsigned int off)
{
	return simw_read8(ctx, off);
}

static void simw_io_write8(void *ctx, unsigned int off, u8 val)
{
	simw_write8(ctx, off, val);
}

static u32 simw_io_read32(void *ctx, unsigned int off)
{
	return simw_read32(ctx, off);
}

static void simw_io_write32(void *ctx, unsigned int off, u32 val)
{
	simw_write32(ctx, off, val);
}

static u32 simw_io_read32be(void *ctx, unsigned int off)
{
	return simw_read32be(ctx, off);
}

static void simw_io_write32be(void *ctx, unsigned int off, u32 val)
{
	simw_write32be(ctx, off, val);
}

static void simw_io_delay_us(void *ctx, unsigned int us)
{
	struct simw_guest *g = ctx;
	u64 until = simw_now_us() + us;

	if (g->poll) {
		g->poll(g->ctx);
		return;
	}
	while (simw_now_us() < until)
		__builtin_ia32_pause();
}

static u64 simw_io_now_us(void *ctx)
{
	(void)ctx;
	return simw_now_us();
}

static const struct gmux_io_ops simw_io_ops __attribute__((unused)) = {
	.read8		= simw_io_read8,
	.write8		= simw_io_write8,
	.read32		= simw_io_read32,
	.write32	= simw_io_write32,
	.read32be	= simw_io_read32be,
	.write32be	= simw_io_write32be,
	.delay_us	= simw_io_delay_us,
	.now_us		= simw_io_now_us,
};

/* A gmux_io of @kind over the guest end @g, bounded by @g's timeout. */
static inline void simw_gmux_io(struct simw_guest *g, enum mac_gmux_kind kind, struct gmux_io *io)
{
	memset(io, 0, sizeof(*io));
	io->ops = &simw_io_ops;
	io->ctx = g;
	io->kind = kind;
	io->timeout_us = g->timeout_us;
}

#endif /* GMUX_SIM_WINDOW_H */
