/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gmux transport protocols in pure C (src/lib/gmux_proto.c).
 *
 * One implementation of the classic (plain port I/O), indexed (H8S mailbox)
 * and T2 (memory-mapped command byte) protocols, over accessor callbacks.
 * The kernel module plugs in ioread8()/iowrite8() on an ioport_map() or
 * ioremap() cookie; the host unit tests plug in the register model of
 * gmux_model.h. Every handshake wait is bounded by io->timeout_us and a
 * timeout is returned as -ETIMEDOUT, never ignored.
 *
 * Callers serialise access (the module does it through its regmap lock).
 */
#ifndef MACSUPPORT_GMUX_PROTO_H
#define MACSUPPORT_GMUX_PROTO_H

#include "lib_types.h"
#include "mac_model.h"

/**
 * struct gmux_io_ops - how to reach the gmux's window
 * @read8: read the byte at offset @off of the window
 * @write8: write a byte at offset @off
 * @read32: read a little-endian 32-bit word at @off (inl/ioread32)
 * @write32: write a little-endian 32-bit word at @off (outl/iowrite32)
 * @read32be: read a big-endian 32-bit word at @off (ioread32be; T2 data)
 * @write32be: write a big-endian 32-bit word at @off (iowrite32be; T2 data)
 * @delay_us: wait about @us microseconds between polls (may sleep)
 * @now_us: a monotonic clock in microseconds, for the wait deadlines
 *
 * Every callback gets the @ctx of struct gmux_io.
 */
struct gmux_io_ops {
	u8 (*read8)(void *ctx, unsigned int off);
	void (*write8)(void *ctx, unsigned int off, u8 val);
	u32 (*read32)(void *ctx, unsigned int off);
	void (*write32)(void *ctx, unsigned int off, u32 val);
	u32 (*read32be)(void *ctx, unsigned int off);
	void (*write32be)(void *ctx, unsigned int off, u32 val);
	void (*delay_us)(void *ctx, unsigned int us);
	u64 (*now_us)(void *ctx);
};

/**
 * struct gmux_io - one gmux as the protocol code sees it
 * @ops: accessors
 * @ctx: passed to every accessor
 * @kind: MAC_GMUX_CLASSIC, MAC_GMUX_INDEXED or MAC_GMUX_T2
 * @timeout_us: time one register operation may spend in its handshake
 *	waits, all of them together, counted from its start; 0 means
 *	GMUX_TIMEOUT_US
 * @timeouts: number of operations that timed out, for debugfs
 */
struct gmux_io {
	const struct gmux_io_ops *ops;
	void *ctx;
	enum mac_gmux_kind kind;
	unsigned int timeout_us;
	unsigned long timeouts;
};

/**
 * struct gmux_version - firmware version of the gmux
 * @major: major
 * @minor: minor
 * @release: release
 */
struct gmux_version {
	u8 major;
	u8 minor;
	u8 release;
};

/**
 * gmux_detect() - find out which kind of gmux answers in a window
 * @ops: accessors for the window
 * @ctx: their context
 * @is_port_window: true for an I/O port range (classic or indexed), false
 *	for a memory window (T2)
 * @kind: the kind found
 *
 * Port window: the classic version ports 0x04..0x06 not all 0xff mean a
 * classic gmux; otherwise the indexed probe (0xaa, 0x55, 0x00 written to
 * 0xcc..0xce must read back 0x55aa) means an indexed one. Memory window:
 * a command byte that reads 0xff means nothing is there (T2 iMacs declare
 * a gmux that does not exist), anything else a T2 gmux.
 *
 * Return: 0 and @kind set, or -ENODEV when no gmux answers.
 */
int gmux_detect(const struct gmux_io_ops *ops, void *ctx, bool is_port_window,
		enum mac_gmux_kind *kind);

/**
 * gmux_io_read8() - read an 8-bit gmux register
 * @io: the gmux
 * @port: register number
 * @val: the value read; unchanged on error
 *
 * Return: 0, or -ETIMEDOUT when a handshake did not finish in time
 * (indexed and T2), or -EINVAL for an unknown kind.
 */
int gmux_io_read8(struct gmux_io *io, u8 port, u8 *val);

/**
 * gmux_io_write8() - write an 8-bit gmux register
 * @io: the gmux
 * @port: register number
 * @val: the value
 *
 * On -ETIMEDOUT the write may or may not have taken effect: a gmux that
 * was never ready did not get it, one that lost its completion did.
 *
 * Return: 0, -ETIMEDOUT or -EINVAL as gmux_io_read8().
 */
int gmux_io_write8(struct gmux_io *io, u8 port, u8 val);

/**
 * gmux_io_read32() - read a 32-bit gmux register
 * @io: the gmux
 * @port: register number
 * @val: the value read; unchanged on error
 *
 * Return: 0, -ETIMEDOUT or -EINVAL as gmux_io_read8().
 */
int gmux_io_read32(struct gmux_io *io, u8 port, u32 *val);

/**
 * gmux_io_write32() - write a 32-bit gmux register
 * @io: the gmux
 * @port: register number
 * @val: the value; classic gmux get four byte writes, low byte first,
 *	because old versions latch the value on the top byte
 *
 * Return: 0, -ETIMEDOUT or -EINVAL as gmux_io_read8().
 */
int gmux_io_write32(struct gmux_io *io, u8 port, u32 val);

/**
 * gmux_read_version() - read the gmux firmware version
 * @io: the gmux
 * @ver: the version; unchanged on error
 *
 * Classic: three byte reads of 0x04..0x06. Indexed and T2: one 32-bit read
 * of 0x04, major in bits 31-24, minor 23-16, release 15-8.
 *
 * Return: 0 or a negative errno from the register access.
 */
int gmux_read_version(struct gmux_io *io, struct gmux_version *ver);

/**
 * gmux_version_plausible() - does a version look like a real gmux?
 * @ver: the version read
 *
 * Real versions run from 1.7.3 (MacBookPro5,1) to 4.x and later. All-zero,
 * all-0xff and a major of 0 or above 15 are what a window with no gmux, a
 * dead gmux or a bus error returns.
 *
 * Return: true if @ver can be a real gmux's version.
 */
bool gmux_version_plausible(const struct gmux_version *ver);

#endif /* MACSUPPORT_GMUX_PROTO_H */
