// SPDX-License-Identifier: GPL-2.0
/*
 * A model of the gmux hardware: registers, the three transports as the
 * host sees them, and fault modes.
 *
 * Pure C, userspace only: linked into the host unit tests of gmux_proto.c
 * and the QEMU harness's gmux simulator, never into a module.
 */

#include "macsupport/gmux_model.h"
#include "macsupport/gmux_regs.h"

/**
 * DOC: Register model
 *
 * One register file serves all three kinds; only the version differs in
 * shape (classic: bytes at 0x04..0x06; indexed and T2: one u32 at 0x04,
 * major << 24 | minor << 16 | release << 8, with 0x05 and 0x06 unknown).
 *
 * - SWITCH_DISPLAY, SWITCH_DDC, SWITCH_EXTERNAL, INTERRUPT_ENABLE store the
 *   value written and read it back (SWITCH_DISPLAY: 2 = IGD, 3 = DIS, so
 *   bit0 set means DIS).
 * - INTERRUPT_STATUS reads the pending bits (GMUX_FAULT_STICKY_STATUS: never
 *   cleared); writing v clears the bits set
 *   in v. @stats.irqs_cleared counts the bits cleared, not the writes.
 * - DISCRETE_POWER stores the value; 3 after 1 switches the dGPU on, 0
 *   after 1 switches it off, and both raise GMUX_INT_POWER (even when the
 *   dGPU already was in that state). Any other sequence only stores.
 *   GMUX_FAULT_POWER_STUCK: it only stores, whatever the sequence.
 *   GMUX_FAULT_POWER_SILENT: the sequences act, but raise nothing.
 * - GMUX_FAULT_REFUSE_SWITCH: writes to the three switch registers are
 *   ignored, so they read back the mux's old position.
 * - MAX_BRIGHTNESS is read-only; BRIGHTNESS keeps the low 24 bits written.
 * - The version registers are read-only and read all 0xff under
 *   GMUX_FAULT_GARBAGE_VERSION.
 * - Other ports read 0 and ignore writes.
 *
 * gmux_model_reg_read() and gmux_model_reg_write() are the registers
 * themselves: they do not count in @stats.reg_reads / @stats.reg_writes,
 * which count only the register accesses a transport carried out, so a
 * test or the simulator may inspect state without disturbing the counts.
 */

/**
 * DOC: Window model
 *
 * @win is the window exactly as the host reads it, so the simulator can copy
 * it to the guest as it is; gmux_model_read8() returns win[@off] and adds
 * only the indexed acknowledge as a side effect. Offsets past the 256
 * bytes read 0xff and ignore writes.
 *
 * - Classic: every register byte at its port, 32-bit registers
 *   little-endian. A byte write to an 8-bit register is a register write.
 *   A byte write to a 32-bit register only lands in @win until its top byte
 *   is written, which writes the four bytes to the register (old classic
 *   gmux latch on the top byte). Everything else reads 0, including the
 *   indexed probe bytes 0xcc/0xcd.
 * - Indexed: 0x04..0x06 read 0xff (this is how detection tells it from a
 *   classic one). 0xc2..0xc5 (data) and the probe bytes 0xcc..0xce store
 *   what is written, so 0xaa/0x55 written to 0xcc/0xcd read back as 0x55aa.
 *   A port number written to 0xd0 reads that register into 0xc2..0xc5
 *   (little-endian); one written to 0xd4 writes the register from
 *   0xc2..0xc5 (an 8-bit register takes the byte at 0xc2). Either sets
 *   bit0 of 0xd4; a byte read of 0xd0 acknowledges, clearing it.
 * - T2: 16 bytes; 0x00..0x0e store what is written. A command byte written
 *   to 0x0f runs on the register named at 0x0e: a read (0x00 | len) puts an
 *   8-bit value at 0x00, a 16-bit one big-endian at 0x00..0x01, a 32-bit
 *   one big-endian at 0x00..0x03; a write (0x40 | len) takes the value from
 *   the same bytes. Then 0x0f returns to 0. A command with another length
 *   or stray bits runs nothing but still returns 0x0f to 0. Bytes 0x10 and
 *   above read 0xff.
 * - Any other kind (none, fake, unknown): nothing answers, every byte
 *   reads 0xff and writes are ignored.
 *
 * Faults: GMUX_FAULT_STUCK_BUSY holds bit0 of 0xd4 set (indexed) or 0x0f
 * at 0x01 (T2) from the moment it is set and ignores every command;
 * GMUX_FAULT_LOST_COMPLETION runs commands but leaves bit0 of 0xd4 clear
 * (indexed) or the command byte in 0x0f (T2); GMUX_FAULT_NONE releases
 * both. Classic gmux have no handshake, so only GARBAGE_VERSION affects
 * them. GMUX_FAULT_SLOW changes nothing here: the simulator applies
 * @slow_us.
 *
 * @stuck_after arms GMUX_FAULT_STUCK_BUSY for later: the register read
 * or write that brings it to 0 completes normally, and the handshake is stuck
 * from then on (indexed: the completion of that access is never
 * acknowledged; T2: the next command sticks), as a gmux that hangs between
 * two accesses of the driver. Setting any fault disarms it.
 */

#define GMUX_MODEL_MAX_BRIGHTNESS	0x1d4c0	/* about 120000, as real ones */
/* What the T2 MacBook Pros' gmux reports (some T2 iMacs say 0x3ff). */
#define GMUX_MODEL_T2_MAX_BRIGHTNESS	0xffff
#define GMUX_MODEL_T2_CMD_STUCK		0x01
#define GMUX_MODEL_INDEX_PENDING	0x01	/* bit0 of 0xd4 */

/* Register layout of the classic port space: first port, length. */
static const struct {
	u8 port;
	u8 len;
} gmux_model_classic_regs[] = {
	{ GMUX_PORT_VERSION_MAJOR, 1 },
	{ GMUX_PORT_VERSION_MINOR, 1 },
	{ GMUX_PORT_VERSION_RELEASE, 1 },
	{ GMUX_PORT_SWITCH_DISPLAY, 1 },
	{ GMUX_PORT_INTERRUPT_ENABLE, 1 },
	{ GMUX_PORT_INTERRUPT_STATUS, 1 },
	{ GMUX_PORT_SWITCH_DDC, 1 },
	{ GMUX_PORT_SWITCH_EXTERNAL, 1 },
	{ GMUX_PORT_DISCRETE_POWER, 1 },
	{ GMUX_PORT_MAX_BRIGHTNESS, 4 },
	{ GMUX_PORT_BRIGHTNESS, 4 },
};

/*
 * Which classic register does window byte @off belong to? Return its index
 * in gmux_model_classic_regs[], or -1 for a byte that is no register's.
 */
static int gmux_model_classic_reg_of(unsigned int off)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gmux_model_classic_regs); i++) {
		unsigned int port = gmux_model_classic_regs[i].port;

		if (off >= port && off < port + gmux_model_classic_regs[i].len)
			return (int)i;
	}
	return -1;
}

/* Refresh the classic window bytes of register @port from the register. */
static void gmux_model_classic_sync(struct gmux_model *m, u8 port)
{
	unsigned int i;
	int reg;
	u32 val;

	if (m->kind != MAC_GMUX_CLASSIC)
		return;
	reg = gmux_model_classic_reg_of(port);
	if (reg < 0 || gmux_model_classic_regs[reg].port != port)
		return;

	val = gmux_model_reg_read(m, port);
	for (i = 0; i < gmux_model_classic_regs[reg].len; i++)
		m->win[port + i] = (u8)(val >> (i * 8));
}

static void gmux_model_classic_sync_version(struct gmux_model *m)
{
	gmux_model_classic_sync(m, GMUX_PORT_VERSION_MAJOR);
	gmux_model_classic_sync(m, GMUX_PORT_VERSION_MINOR);
	gmux_model_classic_sync(m, GMUX_PORT_VERSION_RELEASE);
}

static unsigned int gmux_model_bits_set(u8 v)
{
	unsigned int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

void gmux_model_init(struct gmux_model *m, enum mac_gmux_kind kind)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->kind = kind;

	switch (kind) {
	case MAC_GMUX_CLASSIC:
		m->version[0] = 1;
		m->version[1] = 9;
		m->version[2] = 35;
		break;
	case MAC_GMUX_INDEXED:
		m->version[0] = 4;
		m->version[1] = 0;
		m->version[2] = 29;
		break;
	default:
		/* T2: no real version is documented; 5.0.0 is made up. */
		m->version[0] = 5;
		m->version[1] = 0;
		m->version[2] = 0;
		break;
	}

	m->switch_display = GMUX_SWITCH_IGD;
	m->switch_ddc = GMUX_DDC_IGD;
	m->switch_external = GMUX_SWITCH_IGD;
	m->power = 3;
	m->dgpu_on = true;
	m->int_enable = GMUX_INT_ENABLE;
	m->int_status = 0;
	if (kind == MAC_GMUX_T2)
		m->max_brightness = GMUX_MODEL_T2_MAX_BRIGHTNESS;
	else
		m->max_brightness = GMUX_MODEL_MAX_BRIGHTNESS;
	m->brightness = m->max_brightness / 2;
	m->fault = GMUX_FAULT_NONE;

	switch (kind) {
	case MAC_GMUX_CLASSIC:
		for (i = 0; i < ARRAY_SIZE(gmux_model_classic_regs); i++)
			gmux_model_classic_sync(m, gmux_model_classic_regs[i].port);
		break;
	case MAC_GMUX_INDEXED:
		m->win[GMUX_PORT_VERSION_MAJOR] = 0xff;
		m->win[GMUX_PORT_VERSION_MINOR] = 0xff;
		m->win[GMUX_PORT_VERSION_RELEASE] = 0xff;
		break;
	case MAC_GMUX_T2:
		memset(m->win + GMUX_T2_WINDOW_LEN, 0xff,
		       sizeof(m->win) - GMUX_T2_WINDOW_LEN);
		break;
	default:
		memset(m->win, 0xff, sizeof(m->win));
		break;
	}
}

void gmux_model_set_fault(struct gmux_model *m, enum gmux_fault fault)
{
	m->fault = fault;
	m->stuck_after = 0;
	m->stuck_pending = false;

	if (fault == GMUX_FAULT_NONE) {
		if (m->kind == MAC_GMUX_INDEXED)
			m->win[GMUX_PORT_WRITE] &= ~GMUX_MODEL_INDEX_PENDING;
		else if (m->kind == MAC_GMUX_T2)
			m->win[GMUX_T2_COMMAND] = 0;
	} else if (fault == GMUX_FAULT_STUCK_BUSY) {
		if (m->kind == MAC_GMUX_INDEXED)
			m->win[GMUX_PORT_WRITE] |= GMUX_MODEL_INDEX_PENDING;
		else if (m->kind == MAC_GMUX_T2)
			m->win[GMUX_T2_COMMAND] = GMUX_MODEL_T2_CMD_STUCK;
	}

	/* GARBAGE_VERSION coming or going shows in the classic ports. */
	gmux_model_classic_sync_version(m);
}

void gmux_model_set_max_brightness(struct gmux_model *m, u32 max)
{
	m->max_brightness = max;
	gmux_model_classic_sync(m, GMUX_PORT_MAX_BRIGHTNESS);
}

void gmux_model_raise(struct gmux_model *m, u8 bits)
{
	m->int_status |= bits;
	m->stats.irqs_raised++;
	gmux_model_classic_sync(m, GMUX_PORT_INTERRUPT_STATUS);
}

u32 gmux_model_reg_read(struct gmux_model *m, u8 port)
{
	bool garbage = m->fault == GMUX_FAULT_GARBAGE_VERSION;
	bool classic = m->kind == MAC_GMUX_CLASSIC;

	switch (port) {
	case GMUX_PORT_VERSION_MAJOR:
		if (garbage)
			return classic ? 0xff : 0xffffffff;
		if (classic)
			return m->version[0];
		return (u32)m->version[0] << 24 | (u32)m->version[1] << 16 |
		       (u32)m->version[2] << 8;
	case GMUX_PORT_VERSION_MINOR:
		if (!classic)
			return 0;
		return garbage ? 0xff : m->version[1];
	case GMUX_PORT_VERSION_RELEASE:
		if (!classic)
			return 0;
		return garbage ? 0xff : m->version[2];
	case GMUX_PORT_SWITCH_DISPLAY:
		return m->switch_display;
	case GMUX_PORT_INTERRUPT_ENABLE:
		return m->int_enable;
	case GMUX_PORT_INTERRUPT_STATUS:
		return m->int_status;
	case GMUX_PORT_SWITCH_DDC:
		return m->switch_ddc;
	case GMUX_PORT_SWITCH_EXTERNAL:
		return m->switch_external;
	case GMUX_PORT_DISCRETE_POWER:
		return m->power;
	case GMUX_PORT_MAX_BRIGHTNESS:
		return m->max_brightness;
	case GMUX_PORT_BRIGHTNESS:
		return m->brightness;
	default:
		return 0;
	}
}

static void gmux_model_write_power(struct gmux_model *m, u8 val)
{
	u8 prev = m->power;

	m->power = val;
	if (prev != 1 || m->fault == GMUX_FAULT_POWER_STUCK)
		return;
	if (val != 3 && val != 0)
		return;
	m->dgpu_on = val == 3;
	if (m->fault != GMUX_FAULT_POWER_SILENT)
		gmux_model_raise(m, GMUX_INT_POWER);
}

void gmux_model_reg_write(struct gmux_model *m, u8 port, u32 val)
{
	bool refuse = m->fault == GMUX_FAULT_REFUSE_SWITCH;
	u8 cleared;

	switch (port) {
	case GMUX_PORT_SWITCH_DISPLAY:
		if (refuse)
			break;
		m->switch_display = (u8)val;
		break;
	case GMUX_PORT_INTERRUPT_ENABLE:
		m->int_enable = (u8)val;
		break;
	case GMUX_PORT_INTERRUPT_STATUS:
		if (m->fault == GMUX_FAULT_STICKY_STATUS)
			break;
		cleared = m->int_status & (u8)val;
		m->int_status &= ~cleared;
		m->stats.irqs_cleared += gmux_model_bits_set(cleared);
		break;
	case GMUX_PORT_SWITCH_DDC:
		if (!refuse)
			m->switch_ddc = (u8)val;
		break;
	case GMUX_PORT_SWITCH_EXTERNAL:
		if (!refuse)
			m->switch_external = (u8)val;
		break;
	case GMUX_PORT_DISCRETE_POWER:
		gmux_model_write_power(m, (u8)val);
		break;
	case GMUX_PORT_BRIGHTNESS:
		m->brightness = val & GMUX_BRIGHTNESS_MASK;
		break;
	default:
		/* Read-only (version, MAX_BRIGHTNESS) or unknown. */
		break;
	}

	/* Also restores the bytes of a read-only 32-bit register. */
	gmux_model_classic_sync(m, port);
}

/* Register accesses carried out by a transport: these count. */

/* @stuck_after: one more register access done. */
static void gmux_model_count_access(struct gmux_model *m)
{
	if (m->stuck_after && !--m->stuck_after)
		m->stuck_pending = true;
}

static u32 gmux_model_do_read(struct gmux_model *m, u8 port)
{
	u32 val;

	m->stats.reg_reads++;
	val = gmux_model_reg_read(m, port);
	gmux_model_count_access(m);
	return val;
}

static void gmux_model_do_write(struct gmux_model *m, u8 port, u32 val)
{
	m->stats.reg_writes++;
	gmux_model_reg_write(m, port, val);
	gmux_model_count_access(m);
}

static u32 gmux_model_get_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

/* Classic */

static void gmux_model_classic_store(struct gmux_model *m, unsigned int off, u8 val)
{
	int reg = gmux_model_classic_reg_of(off);
	u8 port;

	if (reg < 0)
		return;
	port = gmux_model_classic_regs[reg].port;

	if (gmux_model_classic_regs[reg].len == 1) {
		gmux_model_do_write(m, port, val);
		return;
	}

	m->win[off] = val;
	if (off == port + 3u)
		gmux_model_do_write(m, port, gmux_model_get_le32(&m->win[port]));
}

/* Indexed */

static void gmux_model_index_command_done(struct gmux_model *m)
{
	if (m->fault != GMUX_FAULT_LOST_COMPLETION)
		m->win[GMUX_PORT_WRITE] |= GMUX_MODEL_INDEX_PENDING;
}

static void gmux_model_index_store(struct gmux_model *m, unsigned int off, u8 val)
{
	u32 data;
	unsigned int i;

	switch (off) {
	case GMUX_PORT_VALUE ... GMUX_PORT_VALUE + 3:
	case GMUX_INDEX_PROBE_LO:
	case GMUX_INDEX_PROBE_HI:
	case GMUX_INDEX_PROBE_KICK:
		m->win[off] = val;
		break;
	case GMUX_PORT_READ:
		if (m->fault == GMUX_FAULT_STUCK_BUSY)
			break;
		data = gmux_model_do_read(m, val);
		for (i = 0; i < 4; i++)
			m->win[GMUX_PORT_VALUE + i] = (u8)(data >> (i * 8));
		gmux_model_index_command_done(m);
		/* Completion shown, acknowledgment never taken. */
		if (m->stuck_pending)
			gmux_model_set_fault(m, GMUX_FAULT_STUCK_BUSY);
		break;
	case GMUX_PORT_WRITE:
		if (m->fault == GMUX_FAULT_STUCK_BUSY)
			break;
		gmux_model_do_write(m, val, gmux_model_get_le32(&m->win[GMUX_PORT_VALUE]));
		gmux_model_index_command_done(m);
		/* Completion shown, acknowledgment never taken. */
		if (m->stuck_pending)
			gmux_model_set_fault(m, GMUX_FAULT_STUCK_BUSY);
		break;
	default:
		break;
	}
}

/* T2 */

static void gmux_model_t2_command(struct gmux_model *m, u8 cmd)
{
	unsigned int len = cmd & ~GMUX_T2_CMD_WRITE;
	u8 port = m->win[GMUX_T2_PORT_SELECT];
	u8 *data = &m->win[GMUX_T2_DATA];
	u32 val;

	if (m->stuck_pending)
		gmux_model_set_fault(m, GMUX_FAULT_STUCK_BUSY);
	if (m->fault == GMUX_FAULT_STUCK_BUSY) {
		m->win[GMUX_T2_COMMAND] = GMUX_MODEL_T2_CMD_STUCK;
		return;
	}
	m->win[GMUX_T2_COMMAND] = cmd;

	if (len != 1 && len != 2 && len != 4)
		goto done;

	if (cmd & GMUX_T2_CMD_WRITE) {
		if (len == 1)
			val = data[0];
		else if (len == 2)
			val = (u32)data[0] << 8 | data[1];
		else
			val = (u32)data[0] << 24 | (u32)data[1] << 16 |
			      (u32)data[2] << 8 | data[3];
		gmux_model_do_write(m, port, val);
	} else {
		val = gmux_model_do_read(m, port);
		if (len == 1) {
			data[0] = (u8)val;
		} else if (len == 2) {
			data[0] = (u8)(val >> 8);
			data[1] = (u8)val;
		} else {
			data[0] = (u8)(val >> 24);
			data[1] = (u8)(val >> 16);
			data[2] = (u8)(val >> 8);
			data[3] = (u8)val;
		}
	}

done:
	if (m->fault != GMUX_FAULT_LOST_COMPLETION)
		m->win[GMUX_T2_COMMAND] = 0;
}

static void gmux_model_t2_store(struct gmux_model *m, unsigned int off, u8 val)
{
	if (off == GMUX_T2_COMMAND)
		gmux_model_t2_command(m, val);
	else if (off < GMUX_T2_WINDOW_LEN)
		m->win[off] = val;
}

/* One byte of the window, without counting it. */

static u8 gmux_model_load(struct gmux_model *m, unsigned int off)
{
	if (off >= sizeof(m->win))
		return 0xff;

	/* Indexed: a read of 0xd0 acknowledges a completion. */
	if (m->kind == MAC_GMUX_INDEXED && off == GMUX_PORT_READ &&
	    m->fault != GMUX_FAULT_STUCK_BUSY)
		m->win[GMUX_PORT_WRITE] &= ~GMUX_MODEL_INDEX_PENDING;

	return m->win[off];
}

static void gmux_model_store(struct gmux_model *m, unsigned int off, u8 val)
{
	if (off >= sizeof(m->win))
		return;

	switch (m->kind) {
	case MAC_GMUX_CLASSIC:
		gmux_model_classic_store(m, off, val);
		break;
	case MAC_GMUX_INDEXED:
		gmux_model_index_store(m, off, val);
		break;
	case MAC_GMUX_T2:
		gmux_model_t2_store(m, off, val);
		break;
	default:
		break;
	}
}

/*
 * Count a window read. On a classic gmux a read whose first byte is a
 * register's is that register read (one per access, inl included).
 */
static void gmux_model_count_read(struct gmux_model *m, unsigned int off)
{
	m->stats.reads++;
	if (m->kind == MAC_GMUX_CLASSIC && gmux_model_classic_reg_of(off) >= 0)
		m->stats.reg_reads++;
}

u8 gmux_model_read8(struct gmux_model *m, unsigned int off)
{
	gmux_model_count_read(m, off);
	return gmux_model_load(m, off);
}

void gmux_model_write8(struct gmux_model *m, unsigned int off, u8 val)
{
	m->stats.writes++;
	gmux_model_store(m, off, val);
}

u32 gmux_model_read32(struct gmux_model *m, unsigned int off)
{
	u32 val = 0;
	unsigned int i;

	gmux_model_count_read(m, off);
	for (i = 0; i < 4; i++)
		val |= (u32)gmux_model_load(m, off + i) << (i * 8);
	return val;
}

void gmux_model_write32(struct gmux_model *m, unsigned int off, u32 val)
{
	unsigned int i;

	m->stats.writes++;
	for (i = 0; i < 4; i++)
		gmux_model_store(m, off + i, (u8)(val >> (i * 8)));
}

u32 gmux_model_read32be(struct gmux_model *m, unsigned int off)
{
	u32 val = 0;
	unsigned int i;

	gmux_model_count_read(m, off);
	for (i = 0; i < 4; i++)
		val = val << 8 | gmux_model_load(m, off + i);
	return val;
}

void gmux_model_write32be(struct gmux_model *m, unsigned int off, u32 val)
{
	unsigned int i;

	m->stats.writes++;
	for (i = 0; i < 4; i++)
		gmux_model_store(m, off + i, (u8)(val >> (24 - i * 8)));
}
