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

/* Indexed: wait until bit0 of 0xd4 is clear, acking with 0xd0 meanwhile. */
static inline int simw_index_wait_ready(struct simw_guest *g)
{
	u64 deadline = simw_now_us() + g->timeout_us;

	while (simw_read8(g, GMUX_PORT_WRITE) & 0x01) {
		if (simw_now_us() > deadline) {
			g->timeouts++;
			return -ETIMEDOUT;
		}
		simw_read8(g, GMUX_PORT_READ);
		simw_guest_poll(g);
	}
	return 0;
}

/* Indexed: wait until bit0 of 0xd4 is set, then ack with a read of 0xd0. */
static inline int simw_index_wait_complete(struct simw_guest *g)
{
	u64 deadline = simw_now_us() + g->timeout_us;

	while (!(simw_read8(g, GMUX_PORT_WRITE) & 0x01)) {
		if (simw_now_us() > deadline) {
			g->timeouts++;
			return -ETIMEDOUT;
		}
		simw_guest_poll(g);
	}
	simw_read8(g, GMUX_PORT_READ);
	return 0;
}

static inline int simw_index_read32(struct simw_guest *g, u8 port, u32 *val)
{
	int ret;

	ret = simw_index_wait_ready(g);
	if (ret)
		return ret;
	simw_write8(g, GMUX_PORT_READ, port);
	ret = simw_index_wait_complete(g);
	if (ret)
		return ret;
	*val = simw_read32(g, GMUX_PORT_VALUE);
	return 0;
}

static inline int simw_index_write32(struct simw_guest *g, u8 port, u32 val)
{
	int ret;

	simw_write32(g, GMUX_PORT_VALUE, val);
	ret = simw_index_wait_ready(g);
	if (ret)
		return ret;
	simw_write8(g, GMUX_PORT_WRITE, port);
	return simw_index_wait_complete(g);
}

/* T2: wait until the command byte reads 0. */
static inline int simw_t2_wait(struct simw_guest *g)
{
	u64 deadline = simw_now_us() + g->timeout_us;

	while (simw_read8(g, GMUX_T2_COMMAND)) {
		if (simw_now_us() > deadline) {
			g->timeouts++;
			return -ETIMEDOUT;
		}
		simw_guest_poll(g);
	}
	return 0;
}

static inline int simw_t2_read32(struct simw_guest *g, u8 port, u32 *val)
{
	int ret;

	ret = simw_t2_wait(g);
	if (ret)
		return ret;
	simw_write8(g, GMUX_T2_PORT_SELECT, port);
	simw_write8(g, GMUX_T2_COMMAND, GMUX_T2_CMD_READ | 4);
	ret = simw_t2_wait(g);
	if (ret)
		return ret;
	*val = simw_read32be(g, GMUX_T2_DATA);
	return 0;
}

static inline int simw_t2_write32(struct simw_guest *g, u8 port, u32 val)
{
	int ret;

	ret = simw_t2_wait(g);
	if (ret)
		return ret;
	simw_write32be(g, GMUX_T2_DATA, val);
	simw_write8(g, GMUX_T2_PORT_SELECT, port);
	simw_write8(g, GMUX_T2_COMMAND, GMUX_T2_CMD_WRITE | 4);
	return simw_t2_wait(g);
}

#endif /* GMUX_SIM_WINDOW_H */
