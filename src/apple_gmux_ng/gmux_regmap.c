// SPDX-License-Identifier: GPL-2.0
/*
 * apple_gmux_ng - register access
 *
 * Copyright (C) 2026 The macsupport developers
 */

#include <linux/delay.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/regmap.h>

#include "macsupport/gmux_sim.h"
#include "gmux.h"

/* TEST ONLY: how long a read waits for the simulator to catch up */
#define GMUX_SIM_SYNC_US	5000

/**
 * DOC: Register access
 *
 * The three kinds of gmux share one register map (macsupport/gmux_regs.h)
 * but reach it differently: plain port I/O (classic), an indexed mailbox in
 * port space (indexed) and a command byte in a memory window (T2). The
 * protocols live in src/lib/gmux_proto.c, shared with the host unit tests;
 * here they get their accessors: ioread8() and friends on an ioport_map()
 * or ioremap() cookie, so one code path serves ports and memory.
 *
 * On top sits a regmap whose reg_read/reg_write callbacks run the protocol.
 * Its lock serialises every exchange with the gmux, and its debugfs
 * "registers" file dumps every named register. All registers are volatile:
 * the gmux changes them behind our back.
 */

static u8 gmux_iomem_read8(void *ctx, unsigned int off)
{
	struct gmux_window *win = ctx;

	return ioread8(win->base + off);
}

static void gmux_iomem_write8(void *ctx, unsigned int off, u8 val)
{
	struct gmux_window *win = ctx;

	iowrite8(val, win->base + off);
}

static u32 gmux_iomem_read32(void *ctx, unsigned int off)
{
	struct gmux_window *win = ctx;

	return ioread32(win->base + off);
}

static void gmux_iomem_write32(void *ctx, unsigned int off, u32 val)
{
	struct gmux_window *win = ctx;

	iowrite32(val, win->base + off);
}

static u32 gmux_iomem_read32be(void *ctx, unsigned int off)
{
	struct gmux_window *win = ctx;

	return ioread32be(win->base + off);
}

static void gmux_iomem_write32be(void *ctx, unsigned int off, u32 val)
{
	struct gmux_window *win = ctx;

	iowrite32be(val, win->base + off);
}

static void gmux_delay_us(void *ctx, unsigned int us)
{
	fsleep(us);
}

static u64 gmux_now_us(void *ctx)
{
	return ktime_to_us(ktime_get());
}

const struct gmux_io_ops gmux_iomem_ops = {
	.read8		= gmux_iomem_read8,
	.write8		= gmux_iomem_write8,
	.read32		= gmux_iomem_read32,
	.write32	= gmux_iomem_write32,
	.read32be	= gmux_iomem_read32be,
	.write32be	= gmux_iomem_write32be,
	.delay_us	= gmux_delay_us,
	.now_us		= gmux_now_us,
};

/*
 * TEST ONLY: the simulator transport. The same accesses on the simulator's
 * memory window, each one also appended to the window's journal, because
 * the host-side simulator cannot see a guest's memory accesses happen.
 */
static void gmux_sim_log(struct gmux_window *win, u8 op, unsigned int off, u32 val)
{
	void __iomem *j = win->sim_journal;
	u64 deadline = ktime_to_us(ktime_get()) + GMUX_TIMEOUT_US;
	void __iomem *entry;
	u32 head = ioread32(j + GMUX_SIM_HEAD);

	while (head - ioread32(j + GMUX_SIM_TAIL) >= GMUX_SIM_RING) {
		if (ktime_to_us(ktime_get()) > deadline) {
			win->sim_dropped++;
			return;
		}
		fsleep(GMUX_POLL_US);
	}
	entry = j + GMUX_SIM_RING_OFF + (head % GMUX_SIM_RING) * GMUX_SIM_ENTRY_LEN;
	iowrite32(op | (off << 8), entry);
	iowrite32(val, entry + 4);
	wmb();		/* the entry before the head that publishes it */
	iowrite32(head + 1, j + GMUX_SIM_HEAD);
}

/*
 * Before a read of a classic gmux, let the simulator catch up with every
 * access logged so far, so that the window shows what the hardware would
 * answer now and not the bytes the guest itself just wrote there (plain
 * memory echoes them: a written-back interrupt status, the detection
 * probe). The indexed and T2 handshakes need no such wait: the guest polls
 * a byte that only the simulator changes. Bounded: a simulator that
 * stopped only makes reads stale.
 */
static void gmux_sim_sync(struct gmux_window *win)
{
	void __iomem *j = win->sim_journal;
	u64 deadline = ktime_to_us(ktime_get()) + GMUX_SIM_SYNC_US;

	if (!win->sim_sync)
		return;
	while (ioread32(j + GMUX_SIM_TAIL) != ioread32(j + GMUX_SIM_HEAD)) {
		if (ktime_to_us(ktime_get()) > deadline)
			return;
		udelay(2);
	}
	rmb();		/* the simulator's results after its tail */
}

static u8 gmux_sim_read8(void *ctx, unsigned int off)
{
	u8 val;

	gmux_sim_sync(ctx);
	val = gmux_iomem_read8(ctx, off);

	gmux_sim_log(ctx, GMUX_SIM_J_READ8, off, val);
	return val;
}

static void gmux_sim_write8(void *ctx, unsigned int off, u8 val)
{
	gmux_iomem_write8(ctx, off, val);
	gmux_sim_log(ctx, GMUX_SIM_J_WRITE8, off, val);
}

static u32 gmux_sim_read32(void *ctx, unsigned int off)
{
	u32 val;

	gmux_sim_sync(ctx);
	val = gmux_iomem_read32(ctx, off);

	gmux_sim_log(ctx, GMUX_SIM_J_READ32, off, val);
	return val;
}

static void gmux_sim_write32(void *ctx, unsigned int off, u32 val)
{
	gmux_iomem_write32(ctx, off, val);
	gmux_sim_log(ctx, GMUX_SIM_J_WRITE32, off, val);
}

static u32 gmux_sim_read32be(void *ctx, unsigned int off)
{
	u32 val;

	gmux_sim_sync(ctx);
	val = gmux_iomem_read32be(ctx, off);

	gmux_sim_log(ctx, GMUX_SIM_J_READ32BE, off, val);
	return val;
}

static void gmux_sim_write32be(void *ctx, unsigned int off, u32 val)
{
	gmux_iomem_write32be(ctx, off, val);
	gmux_sim_log(ctx, GMUX_SIM_J_WRITE32BE, off, val);
}

const struct gmux_io_ops gmux_sim_ops = {
	.read8		= gmux_sim_read8,
	.write8		= gmux_sim_write8,
	.read32		= gmux_sim_read32,
	.write32	= gmux_sim_write32,
	.read32be	= gmux_sim_read32be,
	.write32be	= gmux_sim_write32be,
	.delay_us	= gmux_delay_us,
	.now_us		= gmux_now_us,
};

/* The named registers: name, whether the driver may write it. */
static const struct {
	const char *name;
	bool writable;
} gmux_regs[GMUX_PORT_BRIGHTNESS + 1] = {
	[GMUX_PORT_VERSION_MAJOR]	= { "version_major", false },
	[GMUX_PORT_VERSION_MINOR]	= { "version_minor", false },
	[GMUX_PORT_VERSION_RELEASE]	= { "version_release", false },
	[GMUX_PORT_SWITCH_DISPLAY]	= { "switch_display", true },
	[GMUX_PORT_SWITCH_GET_DISPLAY]	= { "switch_get_display", false },
	[GMUX_PORT_INTERRUPT_ENABLE]	= { "interrupt_enable", true },
	[GMUX_PORT_INTERRUPT_STATUS]	= { "interrupt_status", true },
	[GMUX_PORT_SWITCH_DDC]		= { "switch_ddc", true },
	[GMUX_PORT_SWITCH_EXTERNAL]	= { "switch_external", true },
	[GMUX_PORT_SWITCH_GET_EXTERNAL]	= { "switch_get_external", false },
	[GMUX_PORT_DISCRETE_POWER]	= { "discrete_power", true },
	[GMUX_PORT_MAX_BRIGHTNESS]	= { "max_brightness", false },
	[GMUX_PORT_BRIGHTNESS]		= { "brightness", true },
};

/**
 * gmux_reg_name() - name of a gmux register
 * @reg: register number
 *
 * Return: its name, or NULL for a register the driver does not know.
 */
const char *gmux_reg_name(unsigned int reg)
{
	return reg < ARRAY_SIZE(gmux_regs) ? gmux_regs[reg].name : NULL;
}

/**
 * gmux_reg_is_32bit() - whether a register is accessed as 32 bits
 * @kind: the gmux kind
 * @reg: register number
 *
 * Return: true for the brightness registers, and for the packed version at
 * 0x04 on indexed and T2 gmux (the classic one has three byte registers).
 */
bool gmux_reg_is_32bit(enum mac_gmux_kind kind, unsigned int reg)
{
	if (reg == GMUX_PORT_MAX_BRIGHTNESS || reg == GMUX_PORT_BRIGHTNESS)
		return true;
	return reg == GMUX_PORT_VERSION_MAJOR && kind != MAC_GMUX_CLASSIC;
}

/**
 * gmux_reg_readable() - whether a register can be read on this gmux
 * @gmux: the gmux
 * @reg: register number
 *
 * Return: true for the named registers, except the minor and release
 * bytes of the version on indexed and T2 gmux, which pack it into one
 * 32-bit register at 0x04.
 */
bool gmux_reg_readable(struct apple_gmux_ng *gmux, unsigned int reg)
{
	if (!gmux_reg_name(reg))
		return false;
	return gmux->io.kind == MAC_GMUX_CLASSIC ||
	       (reg != GMUX_PORT_VERSION_MINOR && reg != GMUX_PORT_VERSION_RELEASE);
}

static bool gmux_readable_reg(struct device *dev, unsigned int reg)
{
	return gmux_reg_readable(dev_get_drvdata(dev), reg);
}

static bool gmux_writeable_reg(struct device *dev, unsigned int reg)
{
	return gmux_reg_name(reg) && gmux_regs[reg].writable;
}

static bool gmux_volatile_reg(struct device *dev, unsigned int reg)
{
	return true;
}

static int gmux_regmap_reg_read(void *context, unsigned int reg, unsigned int *val)
{
	struct apple_gmux_ng *gmux = context;
	u32 v32;
	u8 v8;
	int ret;

	if (gmux_reg_is_32bit(gmux->io.kind, reg)) {
		ret = gmux_io_read32(&gmux->io, reg, &v32);
		*val = v32;
	} else {
		ret = gmux_io_read8(&gmux->io, reg, &v8);
		*val = v8;
	}
	return ret;
}

static int gmux_regmap_reg_write(void *context, unsigned int reg, unsigned int val)
{
	struct apple_gmux_ng *gmux = context;

	if (gmux_reg_is_32bit(gmux->io.kind, reg))
		return gmux_io_write32(&gmux->io, reg, val);
	return gmux_io_write8(&gmux->io, reg, val);
}

static const struct regmap_config gmux_regmap_config = {
	.name		= "gmux",
	.reg_bits	= 8,
	.val_bits	= 32,
	.max_register	= GMUX_PORT_BRIGHTNESS,
	.readable_reg	= gmux_readable_reg,
	.writeable_reg	= gmux_writeable_reg,
	.volatile_reg	= gmux_volatile_reg,
	.reg_read	= gmux_regmap_reg_read,
	.reg_write	= gmux_regmap_reg_write,
	.cache_type	= REGCACHE_NONE,
};

/**
 * gmux_regmap_init() - put a regmap over the gmux protocol
 * @gmux: the gmux, with @gmux->io ready and drvdata set
 *
 * Return: 0 or a negative errno.
 */
int gmux_regmap_init(struct apple_gmux_ng *gmux)
{
	gmux->regmap = devm_regmap_init(&gmux->pnp->dev, NULL, gmux, &gmux_regmap_config);
	return PTR_ERR_OR_ZERO(gmux->regmap);
}

/* The pure C cores (src/lib/gmux_switch.c) reach the registers through this. */
static int gmux_acc_read(void *ctx, u8 port, u32 *val)
{
	struct apple_gmux_ng *gmux = ctx;
	unsigned int v;
	int ret;

	ret = regmap_read(gmux->regmap, port, &v);
	if (!ret)
		*val = v;
	return ret;
}

static int gmux_acc_write(void *ctx, u8 port, u32 val)
{
	struct apple_gmux_ng *gmux = ctx;

	return regmap_write(gmux->regmap, port, val);
}

const struct gmux_reg_access gmux_regmap_access = {
	.read	= gmux_acc_read,
	.write	= gmux_acc_write,
};
