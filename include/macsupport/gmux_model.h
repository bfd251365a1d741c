/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A model of the gmux hardware in pure C (src/lib/gmux_model.c).
 *
 * Register semantics and the indexed and T2 handshakes, with fault modes.
 * It backs the host unit tests of gmux_proto.c (wired directly to the
 * protocol's accessors, so every access takes effect at once, read side
 * effects included) and the host-side simulator of the QEMU harness
 * (qemu-tests/sim/gmux-sim.c, which feeds it the accesses the guest made to
 * a shared-memory window). Userspace only: not built into the modules.
 */
#ifndef MACSUPPORT_GMUX_MODEL_H
#define MACSUPPORT_GMUX_MODEL_H

#include "lib_types.h"
#include "mac_model.h"

/**
 * enum gmux_fault - misbehaviour the model can be told to show
 * @GMUX_FAULT_NONE: behave
 * @GMUX_FAULT_STUCK_BUSY: the handshake never becomes ready (indexed: bit0
 *	of 0xd4 stays set whatever is acked; T2: the command byte never
 *	returns to 0). No effect on a classic gmux, which has no handshake.
 * @GMUX_FAULT_GARBAGE_VERSION: the version registers read 0xff
 * @GMUX_FAULT_LOST_COMPLETION: commands take effect but never signal
 *	completion (indexed: bit0 of 0xd4 is never set; T2: the command byte
 *	is not cleared)
 * @GMUX_FAULT_SLOW: commands complete only after @slow_us (simulator
 *	only; the unit-test wiring completes at once)
 * @GMUX_FAULT_STICKY_STATUS: writing INTERRUPT_STATUS back clears nothing,
 *	so a raised status stays pending (the GPE would fire again and again)
 * @GMUX_FAULT_REFUSE_SWITCH: writes to SWITCH_DISPLAY, SWITCH_DDC and
 *	SWITCH_EXTERNAL are ignored: the mux stays where it is and reads so
 * @GMUX_FAULT_POWER_STUCK: DISCRETE_POWER stores what is written, but the
 *	dGPU's power does not change and GMUX_INT_POWER is never raised
 * @GMUX_FAULT_POWER_SILENT: DISCRETE_POWER changes the dGPU's power as it
 *	should, but GMUX_INT_POWER is never raised: a change the driver cannot
 *	see complete, although it happened (a gmux that answers too late)
 *
 * Setting GMUX_FAULT_NONE also clears a handshake left stuck by a fault,
 * so the next operation works.
 */
enum gmux_fault {
	GMUX_FAULT_NONE,
	GMUX_FAULT_STUCK_BUSY,
	GMUX_FAULT_GARBAGE_VERSION,
	GMUX_FAULT_LOST_COMPLETION,
	GMUX_FAULT_SLOW,
	GMUX_FAULT_STICKY_STATUS,
	GMUX_FAULT_REFUSE_SWITCH,
	GMUX_FAULT_POWER_STUCK,
	GMUX_FAULT_POWER_SILENT,
};

/* The last enum gmux_fault value. */
#define GMUX_FAULT_MAX	GMUX_FAULT_POWER_SILENT

/**
 * struct gmux_model_stats - what the model has seen
 * @reads: byte and word reads of the window
 * @writes: byte and word writes of the window
 * @reg_reads: register reads carried out through the window (classic: a
 *	read whose first byte is a register's; indexed and T2: a read
 *	command run); direct gmux_model_reg_read() calls do not count
 * @reg_writes: register writes carried out through the window (classic: a
 *	byte write to an 8-bit register or the latching top byte of a 32-bit
 *	one; indexed and T2: a write command run); direct
 *	gmux_model_reg_write() calls do not count
 * @irqs_raised: calls of gmux_model_raise(), including those of a
 *	DISCRETE_POWER change
 * @irqs_cleared: interrupt status bits (not writes) cleared by a write-back
 */
struct gmux_model_stats {
	unsigned long reads;
	unsigned long writes;
	unsigned long reg_reads;
	unsigned long reg_writes;
	unsigned long irqs_raised;
	unsigned long irqs_cleared;
};

/**
 * struct gmux_model - the state of one modelled gmux
 * @kind: classic, indexed or T2
 * @version: version reported (before a GARBAGE_VERSION fault)
 * @switch_display: last value written to SWITCH_DISPLAY (2 IGD, 3 DIS)
 * @switch_ddc: last value written to SWITCH_DDC
 * @switch_external: last value written to SWITCH_EXTERNAL
 * @power: DISCRETE_POWER register
 * @dgpu_on: the modelled dGPU power state
 * @int_enable: INTERRUPT_ENABLE
 * @int_status: INTERRUPT_STATUS
 * @brightness: BRIGHTNESS (24 bits used)
 * @max_brightness: MAX_BRIGHTNESS
 * @fault: current fault mode
 * @slow_us: delay of GMUX_FAULT_SLOW
 * @stuck_after: when non-zero, the handshake sticks (as with
 *	GMUX_FAULT_STUCK_BUSY) once this many more register accesses are done
 * @stuck_pending: T2: the next command finds the handshake stuck
 * @win: the transport window as the host sees it: port space for classic
 *	and indexed, the 16-byte command window for T2
 * @stats: counters
 */
struct gmux_model {
	enum mac_gmux_kind kind;
	u8 version[3];
	u8 switch_display;
	u8 switch_ddc;
	u8 switch_external;
	u8 power;
	bool dgpu_on;
	u8 int_enable;
	u8 int_status;
	u32 brightness;
	u32 max_brightness;
	enum gmux_fault fault;
	unsigned int slow_us;
	unsigned int stuck_after;
	bool stuck_pending;
	u8 win[256];
	struct gmux_model_stats stats;
};

/**
 * gmux_model_init() - a gmux of @kind as it comes out of firmware
 * @m: the model
 * @kind: MAC_GMUX_CLASSIC, MAC_GMUX_INDEXED or MAC_GMUX_T2
 *
 * Versions: classic 1.9.35, indexed 4.0.29, T2 5.0.0 (no real T2 version
 * is documented). Panel, DDC and external port on the IGD, dGPU on
 * (DISCRETE_POWER 3), interrupts enabled, status 0, max brightness 0x1d4c0
 * (classic, indexed) or 0xffff (T2, as the MacBook Pros' report), brightness
 * half of it. Any other @kind (none, fake, unknown) models a window where
 * nothing answers: every byte reads 0xff.
 */
void gmux_model_init(struct gmux_model *m, enum mac_gmux_kind kind);

/**
 * gmux_model_set_fault() - change the fault mode
 * @m: the model
 * @fault: the new mode; GMUX_FAULT_NONE also unsticks the handshake
 */
void gmux_model_set_fault(struct gmux_model *m, enum gmux_fault fault);

/**
 * gmux_model_set_max_brightness() - change what MAX_BRIGHTNESS reports
 * @m: the model
 * @max: the value (e.g. 0x3ff, as some T2 iMacs report)
 *
 * Only the report: BRIGHTNESS keeps taking 24 bits whatever it says.
 */
void gmux_model_set_max_brightness(struct gmux_model *m, u32 max);

/**
 * gmux_model_raise() - the hardware raises interrupt status bits
 * @m: the model
 * @bits: GMUX_INT_* bits to set in INTERRUPT_STATUS
 */
void gmux_model_raise(struct gmux_model *m, u8 bits);

/**
 * gmux_model_reg_read() - value of a register, as the handshake delivers it
 * @m: the model
 * @port: register number
 *
 * No side effects; not counted in @stats.
 *
 * Return: the register's value (32 bits for MAX_BRIGHTNESS, BRIGHTNESS and,
 * on indexed and T2, the packed version at 0x04; 8 bits otherwise).
 */
u32 gmux_model_reg_read(struct gmux_model *m, u8 port);

/**
 * gmux_model_reg_write() - a register write carried out by the gmux
 * @m: the model
 * @port: register number
 * @val: the value (its low 8 bits for 8-bit registers)
 *
 * With the register's side effects (interrupt status clearing, dGPU power,
 * GMUX_INT_POWER); not counted in @stats.reg_writes.
 */
void gmux_model_reg_write(struct gmux_model *m, u8 port, u32 val);

/**
 * gmux_model_read8() - a byte read of the window, with its side effects
 * @m: the model
 * @off: offset in the window
 *
 * Classic: the register byte. Indexed: a read of 0xd0 acknowledges a
 * completion (clears bit0 of 0xd4). T2: window bytes.
 *
 * Return: the byte.
 */
u8 gmux_model_read8(struct gmux_model *m, unsigned int off);

/**
 * gmux_model_write8() - a byte write of the window, with its side effects
 * @m: the model
 * @off: offset in the window
 * @val: the byte
 *
 * Classic: register writes (32-bit registers latch on their top byte).
 * Indexed: a port number written to 0xd0 or 0xd4 runs a read or a write
 * through the 0xc2..0xc5 data window and sets bit0 of 0xd4 on completion.
 * T2: a command byte written to 0x0f runs the command on the port in 0x0e
 * with the big-endian data in 0x00..0x03 and clears 0x0f when done.
 */
void gmux_model_write8(struct gmux_model *m, unsigned int off, u8 val);

/**
 * gmux_model_read32() - a little-endian word read of the window
 * @m: the model
 * @off: offset
 *
 * Return: the four bytes at @off, little-endian (classic 32-bit registers,
 * the indexed data window).
 */
u32 gmux_model_read32(struct gmux_model *m, unsigned int off);

/**
 * gmux_model_write32() - a little-endian word write of the window
 * @m: the model
 * @off: offset
 * @val: the word, stored as four byte writes, low byte first, each with the
 *	side effects of gmux_model_write8() (a classic 32-bit register
 *	therefore latches on the last one); counted as one write
 */
void gmux_model_write32(struct gmux_model *m, unsigned int off, u32 val);

/**
 * gmux_model_read32be() - a big-endian word read of the window (T2 data)
 * @m: the model
 * @off: offset
 *
 * Return: the four bytes at @off, big-endian.
 */
u32 gmux_model_read32be(struct gmux_model *m, unsigned int off);

/**
 * gmux_model_write32be() - a big-endian word write of the window (T2 data)
 * @m: the model
 * @off: offset
 * @val: the word
 */
void gmux_model_write32be(struct gmux_model *m, unsigned int off, u32 val);

#endif /* MACSUPPORT_GMUX_MODEL_H */
