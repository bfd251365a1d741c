// SPDX-License-Identifier: GPL-2.0
/*
 * gmux transport protocols: classic port I/O, the indexed H8S mailbox and
 * the T2 memory-mapped command window, over the accessors of gmux_proto.h.
 *
 * Pure C: compiled into apple_gmux_ng and into the host unit tests
 * (src/lib/tests/test_gmux_proto.c), which wire the accessors to the
 * register model of gmux_model.c. No kernel or libc calls beyond
 * lib_types.h.
 */

#include "macsupport/gmux_proto.h"
#include "macsupport/gmux_regs.h"

/**
 * DOC: Transport protocols
 *
 * The three kinds of gmux share one register map (gmux_regs.h) but reach it
 * differently:
 *
 * - Classic (Lattice XP2): every register is a port. 8-bit registers are one
 *   byte access; a 32-bit register is read with one little-endian word read
 *   but written as four byte writes, low byte first, because old versions
 *   latch the value when the top byte arrives. There is no handshake.
 *
 * - Indexed (Renesas H8S/2113): a mailbox. Bit0 of port 0xd4 is the
 *   handshake flag: set while a completion waits to be acknowledged, and a
 *   byte read of 0xd0 acknowledges it. Before a command the flag must be
 *   clear (acknowledging what is left, waiting ready); after it the flag
 *   must come up (waiting complete) and is acknowledged. A read writes the
 *   register number to 0xd0 and fetches the value from 0xc2..0xc5; a write
 *   puts the value in 0xc2..0xc5 first and then writes the register number
 *   to 0xd4.
 *
 * - T2: a 16-byte memory window. The register number goes to 0x0e and a
 *   command byte (0x00 | length to read, 0x40 | length to write) to 0x0f;
 *   the gmux resets 0x0f to zero when it is done. Data sit big-endian at
 *   0x00..0x03, an 8-bit value in the byte at 0x00.
 *
 * Mainline's apple-gmux polls at most 200 times and then carries on as if
 * the handshake had finished. Here every operation gets one deadline,
 * io->timeout_us from its start, shared by all of its waits, so a stuck
 * gmux costs one timeout per operation, never two, and the operation stops
 * at the first wait that misses it: a read returns nothing, a write is not
 * sent. Only a poll that began at or after the deadline can conclude that
 * the gmux is late: the time is taken before each poll, so a CPU taken away
 * between a poll and the check (a preempted vCPU, a long interrupt) costs
 * one more poll, never a false timeout. As a backstop against a
 * clock that does not advance, an operation also polls at most twice as
 * often as the timeout allows at GMUX_POLL_US per poll.
 */

/**
 * struct gmux_op - the budget of one register operation
 * @deadline: now_us() value after which a wait gives up
 * @grace: now_us() value before which it does not (GMUX_MIN_WAIT_US after
 *	the command was sent)
 * @polls_left: polls allowed before giving up whatever the clock says
 */
struct gmux_op {
	u64 deadline;
	u64 grace;
	unsigned int polls_left;
};

static void gmux_op_start(const struct gmux_io *io, struct gmux_op *op)
{
	unsigned int timeout = io->timeout_us ? io->timeout_us : GMUX_TIMEOUT_US;

	op->deadline = io->ops->now_us(io->ctx) + timeout;
	op->grace = 0;
	op->polls_left = 2 * ((timeout + GMUX_MIN_WAIT_US) / GMUX_POLL_US) + 2;
}

/* The command is on its way: give it GMUX_MIN_WAIT_US whatever the budget says. */
static void gmux_op_sent(const struct gmux_io *io, struct gmux_op *op)
{
	op->grace = io->ops->now_us(io->ctx) + GMUX_MIN_WAIT_US;
}

/* The time a poll begins, for gmux_op_expired(). */
static u64 gmux_op_poll(const struct gmux_io *io)
{
	return io->ops->now_us(io->ctx);
}

/*
 * Called after a poll that began at @polled and did not see the state
 * waited for: 0 to poll again after a delay, -ETIMEDOUT (counted in
 * io->timeouts) to give up.
 */
static int gmux_op_expired(struct gmux_io *io, struct gmux_op *op, u64 polled)
{
	if ((polled >= op->deadline && polled >= op->grace) || !--op->polls_left) {
		io->timeouts++;
		return -ETIMEDOUT;
	}
	return 0;
}

/* Classic: plain port I/O, no handshake. */

static u8 gmux_pio_read8(struct gmux_io *io, u8 port)
{
	return io->ops->read8(io->ctx, port);
}

static void gmux_pio_write8(struct gmux_io *io, u8 port, u8 val)
{
	io->ops->write8(io->ctx, port, val);
}

static u32 gmux_pio_read32(struct gmux_io *io, u8 port)
{
	return io->ops->read32(io->ctx, port);
}

static void gmux_pio_write32(struct gmux_io *io, u8 port, u32 val)
{
	unsigned int i;

	/* Low byte first: old versions latch the value on the top byte. */
	for (i = 0; i < 4; i++)
		io->ops->write8(io->ctx, port + i, (u8)(val >> (i * 8)));
}

/* Indexed: the H8S mailbox at 0xc2..0xc5, 0xd0 and 0xd4. */

static int gmux_index_wait_ready(struct gmux_io *io, struct gmux_op *op)
{
	u64 polled = gmux_op_poll(io);
	int ret;

	while (io->ops->read8(io->ctx, GMUX_PORT_WRITE) & 0x01) {
		ret = gmux_op_expired(io, op, polled);
		if (ret)
			return ret;
		/* Acknowledge whatever completion is still pending. */
		io->ops->read8(io->ctx, GMUX_PORT_READ);
		io->ops->delay_us(io->ctx, GMUX_POLL_US);
		polled = gmux_op_poll(io);
	}
	return 0;
}

static int gmux_index_wait_complete(struct gmux_io *io, struct gmux_op *op)
{
	u64 polled = gmux_op_poll(io);
	int ret;

	while (!(io->ops->read8(io->ctx, GMUX_PORT_WRITE) & 0x01)) {
		ret = gmux_op_expired(io, op, polled);
		if (ret)
			return ret;
		io->ops->delay_us(io->ctx, GMUX_POLL_US);
		polled = gmux_op_poll(io);
	}
	/* Acknowledge the completion. */
	io->ops->read8(io->ctx, GMUX_PORT_READ);
	return 0;
}

/* Ask for register @port; on success its value waits at 0xc2..0xc5. */
static int gmux_index_command_read(struct gmux_io *io, u8 port)
{
	struct gmux_op op;
	int ret;

	gmux_op_start(io, &op);
	ret = gmux_index_wait_ready(io, &op);
	if (ret)
		return ret;
	io->ops->write8(io->ctx, GMUX_PORT_READ, port);
	gmux_op_sent(io, &op);
	return gmux_index_wait_complete(io, &op);
}

/* Write register @port from the value already at 0xc2..0xc5. */
static int gmux_index_command_write(struct gmux_io *io, struct gmux_op *op, u8 port)
{
	int ret;

	ret = gmux_index_wait_ready(io, op);
	if (ret)
		return ret;
	io->ops->write8(io->ctx, GMUX_PORT_WRITE, port);
	gmux_op_sent(io, op);
	return gmux_index_wait_complete(io, op);
}

static int gmux_index_read8(struct gmux_io *io, u8 port, u8 *val)
{
	int ret;

	ret = gmux_index_command_read(io, port);
	if (ret)
		return ret;
	*val = io->ops->read8(io->ctx, GMUX_PORT_VALUE);
	return 0;
}

static int gmux_index_read32(struct gmux_io *io, u8 port, u32 *val)
{
	int ret;

	ret = gmux_index_command_read(io, port);
	if (ret)
		return ret;
	*val = io->ops->read32(io->ctx, GMUX_PORT_VALUE);
	return 0;
}

static int gmux_index_write8(struct gmux_io *io, u8 port, u8 val)
{
	struct gmux_op op;

	gmux_op_start(io, &op);
	io->ops->write8(io->ctx, GMUX_PORT_VALUE, val);
	return gmux_index_command_write(io, &op, port);
}

static int gmux_index_write32(struct gmux_io *io, u8 port, u32 val)
{
	struct gmux_op op;
	unsigned int i;

	gmux_op_start(io, &op);
	/* Byte by byte, as the H8S's LPC interface takes it. */
	for (i = 0; i < 4; i++)
		io->ops->write8(io->ctx, GMUX_PORT_VALUE + i, (u8)(val >> (i * 8)));
	return gmux_index_command_write(io, &op, port);
}

/* T2: the memory-mapped command window. */

static int gmux_t2_wait(struct gmux_io *io, struct gmux_op *op)
{
	u64 polled = gmux_op_poll(io);
	int ret;

	while (io->ops->read8(io->ctx, GMUX_T2_COMMAND)) {
		ret = gmux_op_expired(io, op, polled);
		if (ret)
			return ret;
		io->ops->delay_us(io->ctx, GMUX_POLL_US);
		polled = gmux_op_poll(io);
	}
	return 0;
}

/* Run a read of @len bytes of @port; on success the value is at 0x00. */
static int gmux_t2_command_read(struct gmux_io *io, u8 port, u8 len)
{
	struct gmux_op op;
	int ret;

	gmux_op_start(io, &op);
	ret = gmux_t2_wait(io, &op);
	if (ret)
		return ret;
	io->ops->write8(io->ctx, GMUX_T2_PORT_SELECT, port);
	io->ops->write8(io->ctx, GMUX_T2_COMMAND, GMUX_T2_CMD_READ | len);
	gmux_op_sent(io, &op);
	return gmux_t2_wait(io, &op);
}

static int gmux_t2_read8(struct gmux_io *io, u8 port, u8 *val)
{
	int ret;

	ret = gmux_t2_command_read(io, port, 1);
	if (ret)
		return ret;
	*val = io->ops->read8(io->ctx, GMUX_T2_DATA);
	return 0;
}

static int gmux_t2_read32(struct gmux_io *io, u8 port, u32 *val)
{
	int ret;

	ret = gmux_t2_command_read(io, port, 4);
	if (ret)
		return ret;
	*val = io->ops->read32be(io->ctx, GMUX_T2_DATA);
	return 0;
}

static int gmux_t2_write8(struct gmux_io *io, u8 port, u8 val)
{
	struct gmux_op op;
	int ret;

	gmux_op_start(io, &op);
	ret = gmux_t2_wait(io, &op);
	if (ret)
		return ret;
	io->ops->write8(io->ctx, GMUX_T2_DATA, val);
	io->ops->write8(io->ctx, GMUX_T2_PORT_SELECT, port);
	io->ops->write8(io->ctx, GMUX_T2_COMMAND, GMUX_T2_CMD_WRITE | 1);
	gmux_op_sent(io, &op);
	return gmux_t2_wait(io, &op);
}

static int gmux_t2_write32(struct gmux_io *io, u8 port, u32 val)
{
	struct gmux_op op;
	int ret;

	/* Unlike mainline, wait before the data too: a busy gmux owns them. */
	gmux_op_start(io, &op);
	ret = gmux_t2_wait(io, &op);
	if (ret)
		return ret;
	io->ops->write32be(io->ctx, GMUX_T2_DATA, val);
	io->ops->write8(io->ctx, GMUX_T2_PORT_SELECT, port);
	io->ops->write8(io->ctx, GMUX_T2_COMMAND, GMUX_T2_CMD_WRITE | 4);
	gmux_op_sent(io, &op);
	return gmux_t2_wait(io, &op);
}

/* The dispatchers: @val is left alone when an access fails. */

int gmux_io_read8(struct gmux_io *io, u8 port, u8 *val)
{
	switch (io->kind) {
	case MAC_GMUX_CLASSIC:
		*val = gmux_pio_read8(io, port);
		return 0;
	case MAC_GMUX_INDEXED:
		return gmux_index_read8(io, port, val);
	case MAC_GMUX_T2:
		return gmux_t2_read8(io, port, val);
	default:
		return -EINVAL;
	}
}

int gmux_io_write8(struct gmux_io *io, u8 port, u8 val)
{
	switch (io->kind) {
	case MAC_GMUX_CLASSIC:
		gmux_pio_write8(io, port, val);
		return 0;
	case MAC_GMUX_INDEXED:
		return gmux_index_write8(io, port, val);
	case MAC_GMUX_T2:
		return gmux_t2_write8(io, port, val);
	default:
		return -EINVAL;
	}
}

int gmux_io_read32(struct gmux_io *io, u8 port, u32 *val)
{
	switch (io->kind) {
	case MAC_GMUX_CLASSIC:
		*val = gmux_pio_read32(io, port);
		return 0;
	case MAC_GMUX_INDEXED:
		return gmux_index_read32(io, port, val);
	case MAC_GMUX_T2:
		return gmux_t2_read32(io, port, val);
	default:
		return -EINVAL;
	}
}

int gmux_io_write32(struct gmux_io *io, u8 port, u32 val)
{
	switch (io->kind) {
	case MAC_GMUX_CLASSIC:
		gmux_pio_write32(io, port, val);
		return 0;
	case MAC_GMUX_INDEXED:
		return gmux_index_write32(io, port, val);
	case MAC_GMUX_T2:
		return gmux_t2_write32(io, port, val);
	default:
		return -EINVAL;
	}
}

/**
 * DOC: Detection
 *
 * A port window holds a classic gmux when its version ports 0x04..0x06 are
 * not all 0xff (nothing decoded there reads 0xff). An indexed gmux reads
 * 0xff there; it is recognised by writing 0xaa, 0x55, 0x00 to 0xcc..0xce
 * and reading 0x55aa back from 0xcc/0xcd. Plain memory would pass that
 * probe too, so it is meaningful on real ports (and the model) only.
 *
 * A memory window holds a T2 gmux unless its command byte reads 0xff: T2
 * iMacs declare a gmux window where nothing answers.
 */
int gmux_detect(const struct gmux_io_ops *ops, void *ctx, bool is_port_window,
		enum mac_gmux_kind *kind)
{
	u16 probe;

	if (!is_port_window) {
		if (ops->read8(ctx, GMUX_T2_COMMAND) == 0xff)
			return -ENODEV;
		*kind = MAC_GMUX_T2;
		return 0;
	}

	if (ops->read8(ctx, GMUX_PORT_VERSION_MAJOR) != 0xff ||
	    ops->read8(ctx, GMUX_PORT_VERSION_MINOR) != 0xff ||
	    ops->read8(ctx, GMUX_PORT_VERSION_RELEASE) != 0xff) {
		*kind = MAC_GMUX_CLASSIC;
		return 0;
	}

	ops->write8(ctx, GMUX_INDEX_PROBE_LO, 0xaa);
	ops->write8(ctx, GMUX_INDEX_PROBE_HI, 0x55);
	ops->write8(ctx, GMUX_INDEX_PROBE_KICK, 0x00);
	probe = ops->read8(ctx, GMUX_INDEX_PROBE_LO) |
		(ops->read8(ctx, GMUX_INDEX_PROBE_HI) << 8);
	if (probe != GMUX_INDEX_PROBE_MAGIC)
		return -ENODEV;

	*kind = MAC_GMUX_INDEXED;
	return 0;
}

int gmux_read_version(struct gmux_io *io, struct gmux_version *ver)
{
	u8 major, minor, release;
	u32 packed;
	int ret;

	if (io->kind == MAC_GMUX_CLASSIC) {
		ret = gmux_io_read8(io, GMUX_PORT_VERSION_MAJOR, &major);
		if (!ret)
			ret = gmux_io_read8(io, GMUX_PORT_VERSION_MINOR, &minor);
		if (!ret)
			ret = gmux_io_read8(io, GMUX_PORT_VERSION_RELEASE, &release);
		if (ret)
			return ret;
	} else {
		ret = gmux_io_read32(io, GMUX_PORT_VERSION_MAJOR, &packed);
		if (ret)
			return ret;
		major = (u8)(packed >> 24);
		minor = (u8)(packed >> 16);
		release = (u8)(packed >> 8);
	}

	ver->major = major;
	ver->minor = minor;
	ver->release = release;
	return 0;
}

/*
 * Versions seen run from 1.7.3 (MacBookPro5,1) to 4.0.29; T2 versions are
 * not documented, so leave room above.
 */
#define GMUX_VERSION_MAJOR_MAX	15

bool gmux_version_plausible(const struct gmux_version *ver)
{
	/* Covers 0.0.0 and 255.255.255 too. */
	return ver->major >= 1 && ver->major <= GMUX_VERSION_MAJOR_MAX;
}
