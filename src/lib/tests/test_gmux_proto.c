// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for src/lib/gmux_proto.c against the register model of
 * src/lib/gmux_model.c (cmocka).
 *
 * The protocol's accessors go straight to the model, so every access takes
 * effect at once; delay_us() advances a fake clock that now_us() returns,
 * which makes timeouts exact and instant. Every access is counted and
 * logged in the test context.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "macsupport/gmux_model.h"
#include "macsupport/gmux_proto.h"
#include "macsupport/gmux_regs.h"

#define LOG_MAX		64

enum acc_op { ACC_R8, ACC_W8, ACC_R32, ACC_W32, ACC_R32BE, ACC_W32BE };

struct access {
	enum acc_op op;
	unsigned int off;
	u32 val;
};

/**
 * struct tctx - one test's gmux and what the protocol did to it
 * @m: the model
 * @io: the protocol's view, wired to @m
 * @clock: fake microseconds, advanced by delay_us() only
 * @count: accesses per enum acc_op
 * @delays: delay_us() calls
 * @log: the first LOG_MAX accesses
 * @nlog: accesses seen (may exceed LOG_MAX)
 * @unstick_at: when @clock reaches it, the next window access first sets
 *	GMUX_FAULT_NONE and then @unstick_to (0: never)
 * @unstick_to: the fault mode to change to at @unstick_at
 */
struct tctx {
	struct gmux_model m;
	struct gmux_io io;
	u64 clock;
	unsigned long count[6];
	unsigned long delays;
	struct access log[LOG_MAX];
	unsigned int nlog;
	u64 unstick_at;
	enum gmux_fault unstick_to;
	u64 cmd_jump;
	u64 complete_at;
	unsigned int poll_jump_on;
	u64 poll_jump;
};

static void acc(struct tctx *t, enum acc_op op, unsigned int off, u32 val)
{
	if (t->unstick_at && t->clock >= t->unstick_at) {
		/* NONE releases the handshake, then the next mode applies. */
		gmux_model_set_fault(&t->m, GMUX_FAULT_NONE);
		gmux_model_set_fault(&t->m, t->unstick_to);
		t->unstick_at = 0;
	}
	if (t->complete_at && t->clock >= t->complete_at) {
		/* a completion the model was told to lose arrives late */
		if (t->m.kind == MAC_GMUX_T2)
			t->m.win[GMUX_T2_COMMAND] = 0;
		else
			t->m.win[GMUX_PORT_WRITE] |= 0x01;
		t->complete_at = 0;
	}
	t->count[op]++;
	if (t->nlog < LOG_MAX) {
		t->log[t->nlog].op = op;
		t->log[t->nlog].off = off;
		t->log[t->nlog].val = val;
	}
	t->nlog++;
}

/* Is @off the port of this kind's handshake (T2 command, indexed 0xd4)? */
static int t_handshake_port(const struct tctx *t, unsigned int off)
{
	return (t->m.kind == MAC_GMUX_T2 && off == GMUX_T2_COMMAND) ||
	       (t->m.kind == MAC_GMUX_INDEXED && off == GMUX_PORT_WRITE);
}

static u8 t_read8(void *ctx, unsigned int off)
{
	struct tctx *t = ctx;
	u8 val;

	acc(t, ACC_R8, off, 0);
	val = gmux_model_read8(&t->m, off);
	/* a CPU taken away right after the poll_jump_on'th handshake poll */
	if (t->poll_jump_on && t_handshake_port(t, off) && !--t->poll_jump_on)
		t->clock += t->poll_jump;
	return val;
}

static void t_write8(void *ctx, unsigned int off, u8 val)
{
	struct tctx *t = ctx;

	acc(t, ACC_W8, off, val);
	gmux_model_write8(&t->m, off, val);
	/* a CPU taken away just as the command went out */
	if (t->cmd_jump && (t_handshake_port(t, off) ||
			    (t->m.kind == MAC_GMUX_INDEXED && off == GMUX_PORT_READ))) {
		t->clock += t->cmd_jump;
		t->cmd_jump = 0;
	}
}

static u32 t_read32(void *ctx, unsigned int off)
{
	struct tctx *t = ctx;

	acc(t, ACC_R32, off, 0);
	return gmux_model_read32(&t->m, off);
}

static void t_write32(void *ctx, unsigned int off, u32 val)
{
	struct tctx *t = ctx;

	acc(t, ACC_W32, off, val);
	gmux_model_write32(&t->m, off, val);
}

static u32 t_read32be(void *ctx, unsigned int off)
{
	struct tctx *t = ctx;

	acc(t, ACC_R32BE, off, 0);
	return gmux_model_read32be(&t->m, off);
}

static void t_write32be(void *ctx, unsigned int off, u32 val)
{
	struct tctx *t = ctx;

	acc(t, ACC_W32BE, off, val);
	gmux_model_write32be(&t->m, off, val);
}

static void t_delay_us(void *ctx, unsigned int us)
{
	struct tctx *t = ctx;

	t->delays++;
	t->clock += us;
}

static u64 t_now_us(void *ctx)
{
	struct tctx *t = ctx;

	return t->clock;
}

static const struct gmux_io_ops t_ops = {
	.read8		= t_read8,
	.write8		= t_write8,
	.read32		= t_read32,
	.write32	= t_write32,
	.read32be	= t_read32be,
	.write32be	= t_write32be,
	.delay_us	= t_delay_us,
	.now_us		= t_now_us,
};

static const enum mac_gmux_kind kinds[] = {
	MAC_GMUX_CLASSIC, MAC_GMUX_INDEXED, MAC_GMUX_T2,
};

/* What the model's MAX_BRIGHTNESS reports out of firmware, per kind. */
static u32 kind_max(enum mac_gmux_kind kind)
{
	return kind == MAC_GMUX_T2 ? 0xffff : 0x1d4c0;
}

static void tctx_init(struct tctx *t, enum mac_gmux_kind kind)
{
	memset(t, 0, sizeof(*t));
	gmux_model_init(&t->m, kind);
	t->io.ops = &t_ops;
	t->io.ctx = t;
	t->io.kind = kind;
	t->io.timeout_us = 0;	/* GMUX_TIMEOUT_US */
}

/* Forget what was counted so far, in the context and in the model. */
static void tctx_reset_counts(struct tctx *t)
{
	memset(t->count, 0, sizeof(t->count));
	t->delays = 0;
	t->nlog = 0;
	memset(&t->m.stats, 0, sizeof(t->m.stats));
}

static unsigned long tctx_accesses(const struct tctx *t)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t->count); i++)
		n += t->count[i];
	return n;
}

static unsigned long tctx_reads(const struct tctx *t)
{
	return t->count[ACC_R8] + t->count[ACC_R32] + t->count[ACC_R32BE];
}

static unsigned long tctx_writes(const struct tctx *t)
{
	return t->count[ACC_W8] + t->count[ACC_W32] + t->count[ACC_W32BE];
}

static const char *kind_name(enum mac_gmux_kind kind)
{
	return mac_gmux_kind_name(kind);
}

/* Detection */

static void expect_detect(struct tctx *t, bool port_window, int want_rc,
			  enum mac_gmux_kind want_kind)
{
	enum mac_gmux_kind kind = MAC_GMUX_UNKNOWN;
	int rc;

	rc = gmux_detect(&t_ops, t, port_window, &kind);
	assert_int_equal(rc, want_rc);
	assert_int_equal(kind, want_kind);
}

static void test_detect_classic(void **state)
{
	struct tctx t;

	(void)state;
	tctx_init(&t, MAC_GMUX_CLASSIC);
	expect_detect(&t, true, 0, MAC_GMUX_CLASSIC);
	/* Decided by the version ports alone: no probe writes. */
	assert_int_equal(t.count[ACC_W8], 0);
}

static void test_detect_indexed(void **state)
{
	struct tctx t;

	(void)state;
	tctx_init(&t, MAC_GMUX_INDEXED);
	expect_detect(&t, true, 0, MAC_GMUX_INDEXED);
	/* 3 version reads, 3 probe writes, 2 probe reads */
	assert_int_equal(t.count[ACC_R8], 5);
	assert_int_equal(t.count[ACC_W8], 3);
	assert_int_equal(t.log[3].off, GMUX_INDEX_PROBE_LO);
	assert_int_equal(t.log[3].val, 0xaa);
	assert_int_equal(t.log[4].off, GMUX_INDEX_PROBE_HI);
	assert_int_equal(t.log[4].val, 0x55);
	assert_int_equal(t.log[5].off, GMUX_INDEX_PROBE_KICK);
	assert_int_equal(t.log[5].val, 0x00);
}

static void test_detect_t2(void **state)
{
	struct tctx t;

	(void)state;
	tctx_init(&t, MAC_GMUX_T2);
	expect_detect(&t, false, 0, MAC_GMUX_T2);
	assert_int_equal(t.count[ACC_R8], 1);
	assert_int_equal(t.log[0].off, GMUX_T2_COMMAND);
}

static void test_detect_t2_absent(void **state)
{
	struct tctx t;

	(void)state;
	/* A T2 iMac: the command byte of the declared window reads 0xff. */
	tctx_init(&t, MAC_GMUX_T2);
	t.m.win[GMUX_T2_COMMAND] = 0xff;
	expect_detect(&t, false, -ENODEV, MAC_GMUX_UNKNOWN);

	/* A window where nothing at all answers. */
	tctx_init(&t, MAC_GMUX_FAKE);
	expect_detect(&t, false, -ENODEV, MAC_GMUX_UNKNOWN);
}

static void test_detect_port_nothing(void **state)
{
	struct tctx t;

	(void)state;
	/* Every port reads 0xff: not classic, and the probe reads 0xffff. */
	tctx_init(&t, MAC_GMUX_FAKE);
	expect_detect(&t, true, -ENODEV, MAC_GMUX_UNKNOWN);
	assert_int_equal(t.count[ACC_W8], 3);

	/* A classic gmux whose version reads 0xff fails the probe too. */
	tctx_init(&t, MAC_GMUX_CLASSIC);
	gmux_model_set_fault(&t.m, GMUX_FAULT_GARBAGE_VERSION);
	expect_detect(&t, true, -ENODEV, MAC_GMUX_UNKNOWN);
}

/* Version */

static void expect_version(enum mac_gmux_kind kind, u8 major, u8 minor, u8 release)
{
	struct gmux_version ver;
	struct tctx t;

	tctx_init(&t, kind);
	assert_int_equal(gmux_read_version(&t.io, &ver), 0);
	if (ver.major != major || ver.minor != minor || ver.release != release)
		fail_msg("%s: version %u.%u.%u, expected %u.%u.%u", kind_name(kind),
			 ver.major, ver.minor, ver.release, major, minor, release);
	assert_true(gmux_version_plausible(&ver));
	if (kind == MAC_GMUX_CLASSIC) {
		assert_int_equal(t.count[ACC_R8], 3);
		assert_int_equal(tctx_accesses(&t), 3);
	} else {
		assert_int_equal(t.m.stats.reg_reads, 1);
	}
}

static void test_version_per_kind(void **state)
{
	(void)state;
	expect_version(MAC_GMUX_CLASSIC, 1, 9, 35);
	expect_version(MAC_GMUX_INDEXED, 4, 0, 29);
	expect_version(MAC_GMUX_T2, 5, 0, 0);
}

static bool plausible(u8 major, u8 minor, u8 release)
{
	struct gmux_version ver = { major, minor, release };

	return gmux_version_plausible(&ver);
}

static void test_version_plausible(void **state)
{
	(void)state;
	assert_true(plausible(1, 9, 35));
	assert_true(plausible(4, 0, 29));
	assert_true(plausible(1, 7, 3));
	assert_true(plausible(3, 2, 19));
	assert_true(plausible(15, 0, 0));
	assert_false(plausible(0, 0, 0));
	assert_false(plausible(255, 255, 255));
	assert_false(plausible(16, 0, 0));
	assert_false(plausible(0, 9, 35));
}

static void test_garbage_version(void **state)
{
	struct gmux_version ver;
	struct tctx t;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		tctx_init(&t, kinds[i]);
		gmux_model_set_fault(&t.m, GMUX_FAULT_GARBAGE_VERSION);
		assert_int_equal(gmux_read_version(&t.io, &ver), 0);
		assert_int_equal(ver.major, 0xff);
		assert_int_equal(ver.minor, 0xff);
		assert_int_equal(ver.release, 0xff);
		assert_false(gmux_version_plausible(&ver));

		/* And back. */
		gmux_model_set_fault(&t.m, GMUX_FAULT_NONE);
		assert_int_equal(gmux_read_version(&t.io, &ver), 0);
		assert_true(gmux_version_plausible(&ver));
	}
}

/* Round trips */

static void test_brightness_roundtrip(void **state)
{
	struct tctx t;
	unsigned int i;
	u32 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		tctx_init(&t, kinds[i]);

		assert_int_equal(gmux_io_read32(&t.io, GMUX_PORT_MAX_BRIGHTNESS, &val), 0);
		assert_int_equal(val, kind_max(kinds[i]));
		assert_int_equal(gmux_io_read32(&t.io, GMUX_PORT_BRIGHTNESS, &val), 0);
		assert_int_equal(val, kind_max(kinds[i]) / 2);

		assert_int_equal(gmux_io_write32(&t.io, GMUX_PORT_BRIGHTNESS, 0x012345), 0);
		assert_int_equal(t.m.brightness, 0x012345);
		val = 0;
		assert_int_equal(gmux_io_read32(&t.io, GMUX_PORT_BRIGHTNESS, &val), 0);
		assert_int_equal(val, 0x012345);

		/* The register keeps 24 bits. */
		assert_int_equal(gmux_io_write32(&t.io, GMUX_PORT_BRIGHTNESS, 0xa1b2c3d4), 0);
		assert_int_equal(t.m.brightness, 0xb2c3d4);
		assert_int_equal(gmux_io_read32(&t.io, GMUX_PORT_BRIGHTNESS, &val), 0);
		assert_int_equal(val, 0xb2c3d4);

		/* MAX_BRIGHTNESS is read-only. */
		assert_int_equal(gmux_io_write32(&t.io, GMUX_PORT_MAX_BRIGHTNESS, 0x3ff), 0);
		assert_int_equal(gmux_io_read32(&t.io, GMUX_PORT_MAX_BRIGHTNESS, &val), 0);
		assert_int_equal(val, kind_max(kinds[i]));

		/*
		 * A gmux that reports 0x3ff (some T2 iMacs) still takes
		 * brightness values above it.
		 */
		gmux_model_set_max_brightness(&t.m, 0x3ff);
		assert_int_equal(gmux_io_read32(&t.io, GMUX_PORT_MAX_BRIGHTNESS, &val), 0);
		assert_int_equal(val, 0x3ff);
		assert_int_equal(gmux_io_write32(&t.io, GMUX_PORT_BRIGHTNESS, 0xffff), 0);
		assert_int_equal(gmux_io_read32(&t.io, GMUX_PORT_BRIGHTNESS, &val), 0);
		assert_int_equal(val, 0xffff);
		assert_int_equal(t.io.timeouts, 0);
	}
}

static void test_switch_display_roundtrip(void **state)
{
	struct tctx t;
	unsigned int i;
	u8 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		tctx_init(&t, kinds[i]);

		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val), 0);
		assert_int_equal(val, GMUX_SWITCH_IGD);

		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_SWITCH_DISPLAY,
						GMUX_SWITCH_DIS), 0);
		assert_int_equal(t.m.switch_display, GMUX_SWITCH_DIS);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val), 0);
		assert_int_equal(val, GMUX_SWITCH_DIS);
		assert_true(val & 1);

		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_SWITCH_DISPLAY,
						GMUX_SWITCH_IGD), 0);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val), 0);
		assert_int_equal(val, GMUX_SWITCH_IGD);
		assert_false(val & 1);

		/* The other switches store too. */
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_SWITCH_DDC, GMUX_DDC_DIS), 0);
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_SWITCH_EXTERNAL,
						GMUX_SWITCH_DIS), 0);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DDC, &val), 0);
		assert_int_equal(val, GMUX_DDC_DIS);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_EXTERNAL, &val), 0);
		assert_int_equal(val, GMUX_SWITCH_DIS);
	}
}

static void test_classic_write32_bytes(void **state)
{
	struct tctx t;
	unsigned int i;

	(void)state;
	tctx_init(&t, MAC_GMUX_CLASSIC);
	assert_int_equal(gmux_io_write32(&t.io, GMUX_PORT_BRIGHTNESS, 0x00123456), 0);

	assert_int_equal(tctx_accesses(&t), 4);
	assert_int_equal(t.count[ACC_W8], 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(t.log[i].op, ACC_W8);
		assert_int_equal(t.log[i].off, GMUX_PORT_BRIGHTNESS + i);
		assert_int_equal(t.log[i].val, (0x00123456 >> (8 * i)) & 0xff);
	}
	assert_int_equal(t.m.brightness, 0x123456);
	/* One register write, on the top byte. */
	assert_int_equal(t.m.stats.reg_writes, 1);
}

static void test_classic_latch_on_top_byte(void **state)
{
	struct tctx t;

	(void)state;
	tctx_init(&t, MAC_GMUX_CLASSIC);
	gmux_model_write8(&t.m, GMUX_PORT_BRIGHTNESS + 0, 0x11);
	gmux_model_write8(&t.m, GMUX_PORT_BRIGHTNESS + 1, 0x22);
	gmux_model_write8(&t.m, GMUX_PORT_BRIGHTNESS + 2, 0x33);
	assert_int_equal(t.m.brightness, 0x1d4c0 / 2);
	gmux_model_write8(&t.m, GMUX_PORT_BRIGHTNESS + 3, 0x44);
	assert_int_equal(t.m.brightness, 0x332211);
	/* The window shows the register, not the 0x44 written on top. */
	assert_int_equal(gmux_model_read32(&t.m, GMUX_PORT_BRIGHTNESS), 0x332211);
}

static void test_model_window_layout(void **state)
{
	struct tctx t;

	(void)state;
	/* Classic: version bytes, no probe echo. */
	tctx_init(&t, MAC_GMUX_CLASSIC);
	assert_int_equal(gmux_model_read8(&t.m, GMUX_PORT_VERSION_MAJOR), 1);
	assert_int_equal(gmux_model_read8(&t.m, GMUX_PORT_VERSION_MINOR), 9);
	assert_int_equal(gmux_model_read8(&t.m, GMUX_PORT_VERSION_RELEASE), 35);
	gmux_model_write8(&t.m, GMUX_INDEX_PROBE_LO, 0xaa);
	gmux_model_write8(&t.m, GMUX_INDEX_PROBE_HI, 0x55);
	gmux_model_write8(&t.m, GMUX_INDEX_PROBE_KICK, 0);
	assert_int_equal(gmux_model_read8(&t.m, GMUX_INDEX_PROBE_LO), 0);
	assert_int_equal(gmux_model_read8(&t.m, GMUX_INDEX_PROBE_HI), 0);
	assert_int_equal(gmux_model_read32(&t.m, GMUX_PORT_MAX_BRIGHTNESS), 0x1d4c0);
	assert_int_equal(gmux_model_read8(&t.m, 0x1000), 0xff);

	/* Indexed: the classic version ports read 0xff. */
	tctx_init(&t, MAC_GMUX_INDEXED);
	assert_int_equal(gmux_model_read8(&t.m, GMUX_PORT_VERSION_MAJOR), 0xff);
	assert_int_equal(gmux_model_read8(&t.m, GMUX_PORT_VERSION_MINOR), 0xff);
	assert_int_equal(gmux_model_read8(&t.m, GMUX_PORT_VERSION_RELEASE), 0xff);
	assert_int_equal(gmux_model_reg_read(&t.m, GMUX_PORT_VERSION_MAJOR), 0x04001d00);

	/* T2: idle command byte, nothing past 16 bytes. */
	tctx_init(&t, MAC_GMUX_T2);
	assert_int_equal(gmux_model_read8(&t.m, GMUX_T2_COMMAND), 0);
	assert_int_equal(gmux_model_read8(&t.m, GMUX_T2_WINDOW_LEN), 0xff);
	assert_int_equal(gmux_model_reg_read(&t.m, GMUX_PORT_VERSION_MAJOR), 0x05000000);

	/* A T2 command of an unsupported length runs nothing but finishes. */
	gmux_model_write8(&t.m, GMUX_T2_DATA, 0x77);
	gmux_model_write8(&t.m, GMUX_T2_PORT_SELECT, GMUX_PORT_SWITCH_DISPLAY);
	gmux_model_write8(&t.m, GMUX_T2_COMMAND, GMUX_T2_CMD_WRITE | 3);
	assert_int_equal(gmux_model_read8(&t.m, GMUX_T2_COMMAND), 0);
	assert_int_equal(t.m.switch_display, GMUX_SWITCH_IGD);
	assert_int_equal(t.m.stats.reg_writes, 0);
}

/* Interrupts and power */

static void test_interrupt_clear(void **state)
{
	struct tctx t;
	unsigned int i;
	u8 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		tctx_init(&t, kinds[i]);
		gmux_model_raise(&t.m, GMUX_INT_POWER | GMUX_INT_HOTPLUG);
		assert_int_equal(t.m.stats.irqs_raised, 1);

		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_INTERRUPT_STATUS, &val), 0);
		assert_int_equal(val, GMUX_INT_POWER | GMUX_INT_HOTPLUG);

		/* Raised after the read: must survive the write-back. */
		gmux_model_raise(&t.m, GMUX_INT_DISPLAY);
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_INTERRUPT_STATUS, val), 0);
		assert_int_equal(t.m.int_status, GMUX_INT_DISPLAY);
		assert_int_equal(t.m.stats.irqs_cleared, 2);

		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_INTERRUPT_STATUS, &val), 0);
		assert_int_equal(val, GMUX_INT_DISPLAY);
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_INTERRUPT_STATUS, val), 0);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_INTERRUPT_STATUS, &val), 0);
		assert_int_equal(val, 0);
		assert_int_equal(t.m.stats.irqs_cleared, 3);

		/* Enable/disable */
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_INTERRUPT_ENABLE,
						GMUX_INT_DISABLE), 0);
		assert_int_equal(t.m.int_enable, 0);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_INTERRUPT_ENABLE, &val), 0);
		assert_int_equal(val, 0);
	}
}

static void test_discrete_power(void **state)
{
	struct tctx t;
	unsigned int i;
	u8 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		tctx_init(&t, kinds[i]);
		assert_true(t.m.dgpu_on);

		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_DISCRETE_POWER, 1), 0);
		assert_true(t.m.dgpu_on);
		assert_int_equal(t.m.int_status, 0);
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_DISCRETE_POWER, 0), 0);
		assert_false(t.m.dgpu_on);
		assert_int_equal(t.m.int_status, GMUX_INT_POWER);
		assert_int_equal(t.m.stats.irqs_raised, 1);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_DISCRETE_POWER, &val), 0);
		assert_int_equal(val, 0);

		/* 3 without 1 first only stores. */
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_DISCRETE_POWER, 3), 0);
		assert_false(t.m.dgpu_on);
		assert_int_equal(t.m.stats.irqs_raised, 1);

		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_DISCRETE_POWER, 1), 0);
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_DISCRETE_POWER, 3), 0);
		assert_true(t.m.dgpu_on);
		assert_int_equal(t.m.stats.irqs_raised, 2);
	}
}

/* Faults and timeouts */

static const enum mac_gmux_kind handshake_kinds[] = {
	MAC_GMUX_INDEXED, MAC_GMUX_T2,
};

static void test_stuck_busy(void **state)
{
	struct tctx t;
	unsigned int i;
	u64 start;
	u8 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(handshake_kinds); i++) {
		tctx_init(&t, handshake_kinds[i]);
		gmux_model_set_fault(&t.m, GMUX_FAULT_STUCK_BUSY);

		val = 0x5a;
		start = t.clock;
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val),
				 -ETIMEDOUT);
		assert_true(t.clock - start >= GMUX_TIMEOUT_US);
		assert_true(t.clock - start < 25000);
		assert_int_equal(t.io.timeouts, 1);
		assert_int_equal(val, 0x5a);
		assert_int_equal(t.m.stats.reg_reads, 0);

		start = t.clock;
		assert_int_equal(gmux_io_write32(&t.io, GMUX_PORT_BRIGHTNESS, 0x1234),
				 -ETIMEDOUT);
		assert_true(t.clock - start >= GMUX_TIMEOUT_US);
		assert_true(t.clock - start < 25000);
		assert_int_equal(t.io.timeouts, 2);
		assert_int_equal(t.m.stats.reg_writes, 0);
		assert_int_equal(t.m.brightness, kind_max(handshake_kinds[i]) / 2);
		print_message("# %s stuck busy: %llu us for one failed write32\n",
			      kind_name(handshake_kinds[i]),
			      (unsigned long long)(t.clock - start));

		/* A shorter timeout is honoured. */
		t.io.timeout_us = 1000;
		start = t.clock;
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_SWITCH_DISPLAY, 3),
				 -ETIMEDOUT);
		assert_true(t.clock - start >= 1000);
		assert_true(t.clock - start < 1000 + GMUX_POLL_US);
		t.io.timeout_us = 0;

		gmux_model_set_fault(&t.m, GMUX_FAULT_NONE);
		start = t.clock;
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val), 0);
		assert_int_equal(val, GMUX_SWITCH_IGD);
		assert_int_equal(t.clock, start);
		assert_int_equal(gmux_io_write32(&t.io, GMUX_PORT_BRIGHTNESS, 0x1234), 0);
		assert_int_equal(t.m.brightness, 0x1234);
		assert_int_equal(t.io.timeouts, 3);
	}
}

/* stuck_after: N accesses complete, read or write, then the handshake sticks. */
static void test_stuck_after(void **state)
{
	struct tctx t;
	unsigned int i;
	u8 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(handshake_kinds); i++) {
		tctx_init(&t, handshake_kinds[i]);
		t.m.stuck_after = 2;
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_INTERRUPT_ENABLE,
						GMUX_INT_DISABLE), 0);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_INTERRUPT_ENABLE, &val), 0);
		assert_int_equal(val, GMUX_INT_DISABLE);
		assert_int_equal(t.io.timeouts, 0);
		/* the third access finds the gmux stuck */
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_INTERRUPT_ENABLE,
						GMUX_INT_ENABLE), -ETIMEDOUT);
		assert_int_equal(t.m.int_enable, GMUX_INT_DISABLE);
		assert_int_equal(t.m.fault, GMUX_FAULT_STUCK_BUSY);
		assert_int_equal(t.m.stats.reg_writes, 1);
		assert_int_equal(t.m.stats.reg_reads, 1);

		gmux_model_set_fault(&t.m, GMUX_FAULT_NONE);
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_INTERRUPT_ENABLE,
						GMUX_INT_ENABLE), 0);
		assert_int_equal(t.m.int_enable, GMUX_INT_ENABLE);
		/* disarmed by the fault change: nothing sticks later */
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_INTERRUPT_ENABLE, &val), 0);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_INTERRUPT_ENABLE, &val), 0);
		assert_int_equal(t.m.fault, GMUX_FAULT_NONE);
	}
}

/* GMUX_FAULT_STICKY_STATUS: the write-back clears nothing, on every kind. */
static void test_sticky_status(void **state)
{
	struct tctx t;
	unsigned int i;
	u8 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		tctx_init(&t, kinds[i]);
		gmux_model_set_fault(&t.m, GMUX_FAULT_STICKY_STATUS);
		gmux_model_raise(&t.m, GMUX_INT_POWER);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_INTERRUPT_STATUS, &val), 0);
		assert_int_equal(val, GMUX_INT_POWER);
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_INTERRUPT_STATUS, val), 0);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_INTERRUPT_STATUS, &val), 0);
		assert_int_equal(val, GMUX_INT_POWER);
		assert_int_equal(t.m.stats.irqs_cleared, 0);

		gmux_model_set_fault(&t.m, GMUX_FAULT_NONE);
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_INTERRUPT_STATUS, val), 0);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_INTERRUPT_STATUS, &val), 0);
		assert_int_equal(val, 0);
	}
}

static void test_stuck_busy_classic_unaffected(void **state)
{
	struct tctx t;
	u8 val;

	(void)state;
	tctx_init(&t, MAC_GMUX_CLASSIC);
	gmux_model_set_fault(&t.m, GMUX_FAULT_STUCK_BUSY);
	assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_SWITCH_DISPLAY, 3), 0);
	assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val), 0);
	assert_int_equal(val, 3);
	assert_int_equal(t.clock, 0);
}

static void test_lost_completion(void **state)
{
	struct tctx t;
	unsigned int i;
	u64 start;
	u32 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(handshake_kinds); i++) {
		tctx_init(&t, handshake_kinds[i]);
		gmux_model_set_fault(&t.m, GMUX_FAULT_LOST_COMPLETION);

		start = t.clock;
		assert_int_equal(gmux_io_write32(&t.io, GMUX_PORT_BRIGHTNESS, 0x4321),
				 -ETIMEDOUT);
		assert_true(t.clock - start >= GMUX_TIMEOUT_US);
		assert_true(t.clock - start < 25000);
		assert_int_equal(t.io.timeouts, 1);
		/* The write reached the register all the same. */
		assert_int_equal(t.m.brightness, 0x4321);
		assert_int_equal(t.m.stats.reg_writes, 1);

		/* A read's result is discarded. */
		val = 0xdeadbeef;
		assert_int_equal(gmux_io_read32(&t.io, GMUX_PORT_BRIGHTNESS, &val),
				 -ETIMEDOUT);
		assert_int_equal(val, 0xdeadbeef);
		assert_int_equal(t.io.timeouts, 2);

		gmux_model_set_fault(&t.m, GMUX_FAULT_NONE);
		assert_int_equal(gmux_io_read32(&t.io, GMUX_PORT_BRIGHTNESS, &val), 0);
		assert_int_equal(val, 0x4321);
	}
}

static void test_ready_at_deadline(void **state)
{
	struct tctx t;
	unsigned int i;
	u8 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(handshake_kinds); i++) {
		/* Becomes ready exactly at the deadline: still in time. */
		tctx_init(&t, handshake_kinds[i]);
		gmux_model_set_fault(&t.m, GMUX_FAULT_STUCK_BUSY);
		t.unstick_at = GMUX_TIMEOUT_US;
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val), 0);
		assert_int_equal(val, GMUX_SWITCH_IGD);
		assert_int_equal(t.clock, GMUX_TIMEOUT_US);
		assert_int_equal(t.io.timeouts, 0);

		/* One poll later: too late. */
		tctx_init(&t, handshake_kinds[i]);
		gmux_model_set_fault(&t.m, GMUX_FAULT_STUCK_BUSY);
		t.unstick_at = GMUX_TIMEOUT_US + GMUX_POLL_US;
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val),
				 -ETIMEDOUT);
		assert_int_equal(t.io.timeouts, 1);
	}
}

/*
 * One deadline per operation: a gmux busy for 15 ms before the command and
 * then never completing costs one timeout, not 15 ms plus another one.
 */
static void test_one_deadline_per_operation(void **state)
{
	struct tctx t;
	unsigned int i;
	u8 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(handshake_kinds); i++) {
		tctx_init(&t, handshake_kinds[i]);
		gmux_model_set_fault(&t.m, GMUX_FAULT_STUCK_BUSY);
		t.unstick_at = GMUX_TIMEOUT_US * 3 / 4;
		t.unstick_to = GMUX_FAULT_LOST_COMPLETION;
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_SWITCH_DISPLAY, 3),
				 -ETIMEDOUT);
		assert_int_equal(t.m.switch_display, 3);
		assert_true(t.clock >= GMUX_TIMEOUT_US);
		assert_true(t.clock < GMUX_TIMEOUT_US + GMUX_POLL_US);
		assert_int_equal(t.io.timeouts, 1);

		/*
		 * A read that gets its command through late still waits
		 * GMUX_MIN_WAIT_US for it, and no longer.
		 */
		tctx_init(&t, handshake_kinds[i]);
		gmux_model_set_fault(&t.m, GMUX_FAULT_STUCK_BUSY);
		t.unstick_at = GMUX_TIMEOUT_US - GMUX_POLL_US;
		t.unstick_to = GMUX_FAULT_LOST_COMPLETION;
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val),
				 -ETIMEDOUT);
		assert_int_equal(t.m.stats.reg_reads, 1);
		assert_true(t.clock >= GMUX_TIMEOUT_US - GMUX_POLL_US + GMUX_MIN_WAIT_US);
		assert_true(t.clock < GMUX_TIMEOUT_US + GMUX_MIN_WAIT_US + GMUX_POLL_US);
	}
}

/*
 * Indexed: a completion nobody acknowledged (a late one after a timeout)
 * is acknowledged by the ready wait, not waited out.
 */
static void test_index_stale_completion(void **state)
{
	struct tctx t;
	u8 val;

	(void)state;
	tctx_init(&t, MAC_GMUX_INDEXED);
	t.m.win[GMUX_PORT_WRITE] |= 0x01;
	assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val), 0);
	assert_int_equal(val, GMUX_SWITCH_IGD);
	assert_int_equal(t.io.timeouts, 0);
	assert_true(t.clock <= GMUX_POLL_US);
	/* ready poll, dummy ack, ready poll, command, complete poll, ack, data */
	assert_int_equal(tctx_accesses(&t), 7);
}

static void test_slow_fault_is_simulator_only(void **state)
{
	struct tctx t;
	unsigned int i;
	u8 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		tctx_init(&t, kinds[i]);
		t.m.slow_us = 5000;
		gmux_model_set_fault(&t.m, GMUX_FAULT_SLOW);
		assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_SWITCH_DISPLAY, 3), 0);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val), 0);
		assert_int_equal(val, 3);
		assert_int_equal(t.m.slow_us, 5000);
		assert_int_equal(t.clock, 0);
	}
}

/* A clock that never moves must not hang a wait. */
static void t_delay_frozen(void *ctx, unsigned int us)
{
	struct tctx *t = ctx;

	(void)us;
	t->delays++;
}

static void test_frozen_clock_bounded(void **state)
{
	struct gmux_io_ops ops = t_ops;
	struct tctx t;
	unsigned int i;
	u8 val;

	(void)state;
	ops.delay_us = t_delay_frozen;
	for (i = 0; i < ARRAY_SIZE(handshake_kinds); i++) {
		tctx_init(&t, handshake_kinds[i]);
		t.io.ops = &ops;
		gmux_model_set_fault(&t.m, GMUX_FAULT_STUCK_BUSY);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val),
				 -ETIMEDOUT);
		assert_true(t.delays > 0);
		assert_true(t.delays <= 2 * ((GMUX_TIMEOUT_US + GMUX_MIN_WAIT_US) / GMUX_POLL_US) + 2);
	}
}

/*
 * The CPU was taken away for longer than the whole budget right after the
 * command went out (a preempted vCPU): the gmux that answers meanwhile
 * still counts.
 */
static void test_preempted_after_command(void **state)
{
	struct tctx t;
	unsigned int i;
	u8 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(handshake_kinds); i++) {
		tctx_init(&t, handshake_kinds[i]);
		gmux_model_set_fault(&t.m, GMUX_FAULT_LOST_COMPLETION);
		/*
		 * The clock jumps past the budget as the command goes out; the
		 * gmux completes 500 us later.
		 */
		t.cmd_jump = GMUX_TIMEOUT_US + 1000;
		t.complete_at = GMUX_TIMEOUT_US + 1500;
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val), 0);
		assert_int_equal(val, GMUX_SWITCH_IGD);
		assert_int_equal(t.io.timeouts, 0);
	}
}

/*
 * The CPU was taken away for longer than the whole budget right after a
 * poll that saw the gmux busy, and the gmux finished meanwhile: only a poll
 * made after the deadline may conclude that it is late.
 */
static void test_preempted_after_poll(void **state)
{
	struct tctx t;
	unsigned int i;
	u8 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(handshake_kinds); i++) {
		tctx_init(&t, handshake_kinds[i]);
		gmux_model_set_fault(&t.m, GMUX_FAULT_LOST_COMPLETION);
		/*
		 * Handshake poll 1 finds the gmux ready for the command, poll 2
		 * finds it busy with it; then the clock jumps past the budget
		 * and the completion arrives during the jump.
		 */
		t.poll_jump_on = 2;
		t.poll_jump = GMUX_TIMEOUT_US + GMUX_MIN_WAIT_US + 1000;
		t.complete_at = 500;
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &val), 0);
		assert_int_equal(val, GMUX_SWITCH_IGD);
		assert_int_equal(t.io.timeouts, 0);
		assert_int_equal(t.poll_jump_on, 0);
	}
}

static void test_unknown_kind(void **state)
{
	struct gmux_version ver;
	struct tctx t;
	u32 v32;
	u8 v8;

	(void)state;
	tctx_init(&t, MAC_GMUX_CLASSIC);
	t.io.kind = MAC_GMUX_FAKE;
	assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_SWITCH_DISPLAY, &v8), -EINVAL);
	assert_int_equal(gmux_io_write8(&t.io, GMUX_PORT_SWITCH_DISPLAY, 3), -EINVAL);
	assert_int_equal(gmux_io_read32(&t.io, GMUX_PORT_BRIGHTNESS, &v32), -EINVAL);
	assert_int_equal(gmux_io_write32(&t.io, GMUX_PORT_BRIGHTNESS, 1), -EINVAL);
	assert_int_equal(gmux_read_version(&t.io, &ver), -EINVAL);
	assert_int_equal(tctx_accesses(&t), 0);
}

/* Access counts, quoted by the benchmark notes */

struct count_want {
	enum mac_gmux_kind kind;
	unsigned long set_reads, set_writes;	/* write32 BRIGHTNESS */
	unsigned long get_reads, get_writes;	/* read8 INTERRUPT_STATUS */
};

static const struct count_want count_wants[] = {
	/* 4 byte writes; 1 byte read */
	{ MAC_GMUX_CLASSIC, 0, 4, 1, 0 },
	/*
	 * set: 4 data bytes, ready poll, port to 0xd4, complete poll, ack;
	 * get: ready poll, port to 0xd0, complete poll, ack, data read
	 */
	{ MAC_GMUX_INDEXED, 3, 5, 4, 1 },
	/*
	 * set: poll, data, port, command, poll;
	 * get: poll, port, command, poll, data read
	 */
	{ MAC_GMUX_T2, 2, 3, 3, 2 },
};

static void test_access_counts(void **state)
{
	struct tctx t;
	unsigned int i;
	u8 val;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(count_wants); i++) {
		const struct count_want *w = &count_wants[i];
		unsigned long sr, sw, gr, gw;

		tctx_init(&t, w->kind);
		gmux_model_raise(&t.m, GMUX_INT_POWER);

		tctx_reset_counts(&t);
		assert_int_equal(gmux_io_write32(&t.io, GMUX_PORT_BRIGHTNESS, 0x8000), 0);
		sr = tctx_reads(&t);
		sw = tctx_writes(&t);
		assert_int_equal(t.m.stats.reads, sr);
		assert_int_equal(t.m.stats.writes, sw);
		assert_int_equal(t.m.stats.reg_writes, 1);
		assert_int_equal(t.m.brightness, 0x8000);
		assert_int_equal(t.delays, 0);

		tctx_reset_counts(&t);
		assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_INTERRUPT_STATUS, &val), 0);
		assert_int_equal(val, GMUX_INT_POWER);
		gr = tctx_reads(&t);
		gw = tctx_writes(&t);
		assert_int_equal(t.m.stats.reads, gr);
		assert_int_equal(t.m.stats.writes, gw);
		assert_int_equal(t.m.stats.reg_reads, 1);
		assert_int_equal(t.delays, 0);

		print_message("# access counts %s backlight set: %lu (%lu reads, %lu writes)\n",
			      kind_name(w->kind), sr + sw, sr, sw);
		print_message("# access counts %s status read: %lu (%lu reads, %lu writes)\n",
			      kind_name(w->kind), gr + gw, gr, gw);

		assert_int_equal(sr, w->set_reads);
		assert_int_equal(sw, w->set_writes);
		assert_int_equal(gr, w->get_reads);
		assert_int_equal(gw, w->get_writes);
	}
}

static void test_access_order(void **state)
{
	struct tctx t;
	unsigned int i;
	u8 val;

	(void)state;
	/* Indexed write32 */
	tctx_init(&t, MAC_GMUX_INDEXED);
	assert_int_equal(gmux_io_write32(&t.io, GMUX_PORT_BRIGHTNESS, 0x8000), 0);
	assert_int_equal(t.nlog, 8);
	for (i = 0; i < 4; i++) {
		/* data low byte first */
		assert_int_equal(t.log[i].op, ACC_W8);
		assert_int_equal(t.log[i].off, GMUX_PORT_VALUE + i);
		assert_int_equal(t.log[i].val, (0x8000 >> (8 * i)) & 0xff);
	}
	assert_int_equal(t.log[4].op, ACC_R8);
	assert_int_equal(t.log[4].off, GMUX_PORT_WRITE);
	assert_int_equal(t.log[5].op, ACC_W8);
	assert_int_equal(t.log[5].off, GMUX_PORT_WRITE);
	assert_int_equal(t.log[5].val, GMUX_PORT_BRIGHTNESS);
	assert_int_equal(t.log[6].op, ACC_R8);
	assert_int_equal(t.log[6].off, GMUX_PORT_WRITE);
	assert_int_equal(t.log[7].op, ACC_R8);
	assert_int_equal(t.log[7].off, GMUX_PORT_READ);

	/* Indexed read8 */
	tctx_init(&t, MAC_GMUX_INDEXED);
	assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_INTERRUPT_STATUS, &val), 0);
	assert_int_equal(t.nlog, 5);
	assert_int_equal(t.log[1].op, ACC_W8);
	assert_int_equal(t.log[1].off, GMUX_PORT_READ);
	assert_int_equal(t.log[1].val, GMUX_PORT_INTERRUPT_STATUS);
	assert_int_equal(t.log[4].op, ACC_R8);
	assert_int_equal(t.log[4].off, GMUX_PORT_VALUE);

	/* T2 write32 */
	tctx_init(&t, MAC_GMUX_T2);
	assert_int_equal(gmux_io_write32(&t.io, GMUX_PORT_BRIGHTNESS, 0x8000), 0);
	assert_int_equal(t.nlog, 5);
	assert_int_equal(t.log[0].op, ACC_R8);
	assert_int_equal(t.log[0].off, GMUX_T2_COMMAND);
	assert_int_equal(t.log[1].op, ACC_W32BE);
	assert_int_equal(t.log[1].off, GMUX_T2_DATA);
	assert_int_equal(t.log[1].val, 0x8000);
	assert_int_equal(t.log[2].op, ACC_W8);
	assert_int_equal(t.log[2].off, GMUX_T2_PORT_SELECT);
	assert_int_equal(t.log[2].val, GMUX_PORT_BRIGHTNESS);
	assert_int_equal(t.log[3].op, ACC_W8);
	assert_int_equal(t.log[3].off, GMUX_T2_COMMAND);
	assert_int_equal(t.log[3].val, GMUX_T2_CMD_WRITE | 4);
	assert_int_equal(t.log[4].op, ACC_R8);
	assert_int_equal(t.log[4].off, GMUX_T2_COMMAND);
	/* Big-endian in the window */
	assert_int_equal(t.m.win[0], 0x00);
	assert_int_equal(t.m.win[2], 0x80);

	/* T2 read8 */
	tctx_init(&t, MAC_GMUX_T2);
	assert_int_equal(gmux_io_read8(&t.io, GMUX_PORT_INTERRUPT_STATUS, &val), 0);
	assert_int_equal(t.log[2].op, ACC_W8);
	assert_int_equal(t.log[2].off, GMUX_T2_COMMAND);
	assert_int_equal(t.log[2].val, GMUX_T2_CMD_READ | 1);
	assert_int_equal(t.log[4].op, ACC_R8);
	assert_int_equal(t.log[4].off, GMUX_T2_DATA);
}

/* Robustness: random operations with random faults */

static u32 rnd_state;

static u32 rnd(void)
{
	/* xorshift32 */
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

static const u8 byte_ports[] = {
	GMUX_PORT_VERSION_MAJOR, GMUX_PORT_SWITCH_DISPLAY, GMUX_PORT_SWITCH_GET_DISPLAY,
	GMUX_PORT_INTERRUPT_ENABLE, GMUX_PORT_INTERRUPT_STATUS, GMUX_PORT_SWITCH_DDC,
	GMUX_PORT_SWITCH_EXTERNAL, GMUX_PORT_DISCRETE_POWER, 0x00, 0x80, 0xff,
};

static const u8 word_ports[] = {
	GMUX_PORT_VERSION_MAJOR, GMUX_PORT_MAX_BRIGHTNESS, GMUX_PORT_BRIGHTNESS,
};

static const unsigned int timeouts[] = { 0, 100, 1234, 5000, GMUX_TIMEOUT_US };

static void fuzz_kind(enum mac_gmux_kind kind, u32 seed, unsigned int rounds)
{
	unsigned long failures = 0, faults = 0;
	bool clean = true;
	struct tctx t;
	unsigned int i;

	tctx_init(&t, kind);
	rnd_state = seed;
	for (i = 0; i < rounds; i++) {
		unsigned int timeout, limit;
		bool is_write, is_word;
		u32 r = rnd();
		u32 v32 = 0x5a5a5a5a;
		u8 v8 = 0x5a;
		u64 start;
		u8 port;
		int rc;

		if ((r & 0xf) == 0) {
			enum gmux_fault f = (enum gmux_fault)(rnd() % 5);

			gmux_model_set_fault(&t.m, f);
			faults++;
			if (f == GMUX_FAULT_NONE)
				clean = true;
			else if (f == GMUX_FAULT_STUCK_BUSY ||
				 f == GMUX_FAULT_LOST_COMPLETION)
				clean = false;
			if (f == GMUX_FAULT_SLOW)
				t.m.slow_us = rnd() % 100000;
		}
		if ((r & 0xf0) == 0)
			gmux_model_raise(&t.m, (u8)rnd());

		timeout = timeouts[(r >> 8) % ARRAY_SIZE(timeouts)];
		t.io.timeout_us = timeout;
		limit = (timeout ? timeout : GMUX_TIMEOUT_US) + GMUX_MIN_WAIT_US + GMUX_POLL_US;
		is_write = r & 0x10000;
		is_word = r & 0x20000;
		if (is_word)
			port = word_ports[(r >> 18) % ARRAY_SIZE(word_ports)];
		else
			port = byte_ports[(r >> 18) % ARRAY_SIZE(byte_ports)];

		start = t.clock;
		if (is_write && is_word) {
			v32 = rnd();
			rc = gmux_io_write32(&t.io, port, v32);
		} else if (is_write) {
			v8 = (u8)rnd();
			if (port == GMUX_PORT_DISCRETE_POWER)
				v8 &= 3;
			rc = gmux_io_write8(&t.io, port, v8);
		} else if (is_word) {
			rc = gmux_io_read32(&t.io, port, &v32);
		} else {
			rc = gmux_io_read8(&t.io, port, &v8);
		}

		if (t.clock - start >= limit || t.clock - start >= 25000)
			fail_msg("%s round %u: %llu us for one operation (timeout %u)",
				 kind_name(kind), i,
				 (unsigned long long)(t.clock - start), timeout);
		if (rc && rc != -ETIMEDOUT)
			fail_msg("%s round %u: rc %d", kind_name(kind), i, rc);
		if (rc && (clean || kind == MAC_GMUX_CLASSIC))
			fail_msg("%s round %u: rc %d with no handshake fault",
				 kind_name(kind), i, rc);
		if (rc) {
			failures++;
			if (!is_write && (is_word ? v32 != 0x5a5a5a5a : v8 != 0x5a))
				fail_msg("%s round %u: failed read wrote its result",
					 kind_name(kind), i);
			continue;
		}

		/* What went through must match the model. */
		if (port == GMUX_PORT_BRIGHTNESS && is_word) {
			if (is_write)
				assert_int_equal(t.m.brightness, v32 & GMUX_BRIGHTNESS_MASK);
			else
				assert_int_equal(v32, t.m.brightness);
		}
		if (port == GMUX_PORT_SWITCH_DISPLAY && !is_word)
			assert_int_equal(v8, t.m.switch_display);
		if (port == GMUX_PORT_INTERRUPT_STATUS && !is_word && !is_write)
			assert_int_equal(v8, t.m.int_status);
		assert_true(t.m.brightness <= GMUX_BRIGHTNESS_MASK);
	}

	assert_int_equal(t.io.timeouts, failures);
	print_message("# fuzz %s: %u ops, %lu fault changes, %lu timeouts, %llu us fake time\n",
		      kind_name(kind), rounds, faults, failures,
		      (unsigned long long)t.clock);
	if (kind != MAC_GMUX_CLASSIC)
		assert_true(failures > 0);
}

static void test_fuzz(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		fuzz_kind(kinds[i], 0x1234567u + i, 20000);
		fuzz_kind(kinds[i], 0xdeadbeefu ^ i, 20000);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect_classic),
		cmocka_unit_test(test_detect_indexed),
		cmocka_unit_test(test_detect_t2),
		cmocka_unit_test(test_detect_t2_absent),
		cmocka_unit_test(test_detect_port_nothing),
		cmocka_unit_test(test_version_per_kind),
		cmocka_unit_test(test_version_plausible),
		cmocka_unit_test(test_garbage_version),
		cmocka_unit_test(test_brightness_roundtrip),
		cmocka_unit_test(test_switch_display_roundtrip),
		cmocka_unit_test(test_classic_write32_bytes),
		cmocka_unit_test(test_classic_latch_on_top_byte),
		cmocka_unit_test(test_model_window_layout),
		cmocka_unit_test(test_interrupt_clear),
		cmocka_unit_test(test_discrete_power),
		cmocka_unit_test(test_stuck_busy),
		cmocka_unit_test(test_stuck_after),
		cmocka_unit_test(test_sticky_status),
		cmocka_unit_test(test_stuck_busy_classic_unaffected),
		cmocka_unit_test(test_lost_completion),
		cmocka_unit_test(test_ready_at_deadline),
		cmocka_unit_test(test_one_deadline_per_operation),
		cmocka_unit_test(test_index_stale_completion),
		cmocka_unit_test(test_slow_fault_is_simulator_only),
		cmocka_unit_test(test_frozen_clock_bounded),
		cmocka_unit_test(test_preempted_after_command),
		cmocka_unit_test(test_preempted_after_poll),
		cmocka_unit_test(test_unknown_kind),
		cmocka_unit_test(test_access_counts),
		cmocka_unit_test(test_access_order),
		cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests_name("gmux_proto", tests, NULL, NULL);
}
