/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TEST ONLY: layout of the gmux simulator's shared-memory window.
 *
 * Stock QEMU cannot back I/O ports (or trap memory accesses) with a host
 * process. The harness therefore gives the guest an ivshmem-plain device;
 * the gmux's ACPI _CRS names a 4 KiB window inside its BAR2 as a memory
 * resource, and apple_gmux_ng, when told so by its test-only module
 * parameter, speaks the classic, indexed or T2 protocol over that window
 * with the same protocol code as on real hardware. Because the host cannot
 * see the guest's accesses happen, the test transport also appends each
 * access to a journal in the window, which the host-side simulator
 * (qemu-tests/sim/gmux-sim) replays into the register model
 * (gmux_model.h) before it writes the resulting register state back.
 *
 * All multi-byte fields outside the register space are little-endian u32.
 */
#ifndef MACSUPPORT_GMUX_SIM_H
#define MACSUPPORT_GMUX_SIM_H

/* Where the window starts in the ivshmem BAR2 and how long it is. */
#define GMUX_SIM_BAR_OFFSET	0x10000
#define GMUX_SIM_WINDOW_LEN	0x1000

/* 0x000-0x0ff: the gmux's port space (T2: the 16-byte command window) */
#define GMUX_SIM_REGS		0x000

/* 0x100-0x1ff: header, written by the simulator */
#define GMUX_SIM_MAGIC		0x100	/* GMUX_SIM_MAGIC_VALUE while it runs */
#define GMUX_SIM_MAGIC_VALUE	0x4d495347	/* "GSIM" */
#define GMUX_SIM_KIND		0x104	/* enum mac_gmux_kind it simulates */

/* 0x200-0x23f: journal indices */
#define GMUX_SIM_HEAD		0x200	/* entries produced (guest) */
#define GMUX_SIM_TAIL		0x204	/* entries consumed (simulator) */

/* 0x240-0x27f: control: the guest's gmux-simctl writes SEQ, OP, ARG; the simulator RESULT, ACK */
#define GMUX_SIM_CTL_SEQ	0x240	/* bumped after the fields below are set */
#define GMUX_SIM_CTL_OP		0x244	/* GMUX_SIM_OP_* */
#define GMUX_SIM_CTL_ARG	0x248
#define GMUX_SIM_CTL_ACK	0x24c	/* the simulator copies SEQ here when done */
#define GMUX_SIM_CTL_RESULT	0x250	/* set before ACK: 0 done, else a positive errno */

#define GMUX_SIM_OP_FAULT	1	/* ARG: enum gmux_fault */
#define GMUX_SIM_OP_SLOW_US	2	/* ARG: delay of GMUX_FAULT_SLOW */
#define GMUX_SIM_OP_RAISE	3	/* ARG: interrupt status bits */
#define GMUX_SIM_OP_RESET_STATS	4
#define GMUX_SIM_OP_STUCK_AFTER	5	/* ARG: register accesses before the handshake sticks */
#define GMUX_SIM_OP_MAX_BRIGHTNESS 6	/* ARG: what MAX_BRIGHTNESS reports from now on */

/* 0x280-0x2ff: model state and counters, written by the simulator */
#define GMUX_SIM_ST_READS	0x280	/* window reads seen */
#define GMUX_SIM_ST_WRITES	0x284	/* window writes seen */
#define GMUX_SIM_ST_REG_READS	0x288	/* register reads carried out */
#define GMUX_SIM_ST_REG_WRITES	0x28c	/* register writes carried out */
#define GMUX_SIM_ST_IRQS_RAISED	0x290
#define GMUX_SIM_ST_IRQS_CLEARED 0x294
#define GMUX_SIM_ST_INT_STATUS	0x298	/* model's INTERRUPT_STATUS */
#define GMUX_SIM_ST_INT_ENABLE	0x29c	/* model's INTERRUPT_ENABLE */
#define GMUX_SIM_ST_BRIGHTNESS	0x2a0	/* model's BRIGHTNESS */
#define GMUX_SIM_ST_FAULT	0x2a4	/* current enum gmux_fault */
#define GMUX_SIM_ST_DROPPED	0x2a8	/* entries lost: HEAD ran more than a ring ahead of TAIL */
#define GMUX_SIM_ST_SWITCH_DISPLAY 0x2ac	/* model's SWITCH_DISPLAY (2 IGD, 3 DIS) */
#define GMUX_SIM_ST_SWITCH_DDC	0x2b0	/* model's SWITCH_DDC (1 IGD, 2 DIS) */
#define GMUX_SIM_ST_SWITCH_EXTERNAL 0x2b4	/* model's SWITCH_EXTERNAL (2 IGD, 3 DIS) */
#define GMUX_SIM_ST_POWER	0x2b8	/* model's DISCRETE_POWER register */
#define GMUX_SIM_ST_DGPU_ON	0x2bc	/* 1 while the modelled dGPU is powered */
#define GMUX_SIM_ST_DGPU_OFFS	0x2c0	/* power cuts of the modelled dGPU (on -> off) */
#define GMUX_SIM_ST_MAX_GAP_US	0x2c4	/* longest time between two polls (host starved it) */

/* 0x400-0xfff: the journal, a ring of GMUX_SIM_RING entries */
#define GMUX_SIM_RING_OFF	0x400
#define GMUX_SIM_RING		384
#define GMUX_SIM_ENTRY_LEN	8

/*
 * One journal entry: u8 op, u8 offset, u16 reserved, u32 value (the value
 * written, or the value the guest read). The guest writes the entry, then
 * (after a write barrier) HEAD + 1. Entry i lives at
 * GMUX_SIM_RING_OFF + (i % GMUX_SIM_RING) * GMUX_SIM_ENTRY_LEN.
 * The guest must not run more than GMUX_SIM_RING entries ahead of TAIL;
 * if it does, the simulator skips to the newest GMUX_SIM_RING entries and
 * counts the rest in GMUX_SIM_ST_DROPPED. HEAD and TAIL count from 0 when
 * the simulator starts (GMUX_SIM_RING is not a power of two, so they must
 * not wrap: 2^32 entries are far beyond any test).
 */
#define GMUX_SIM_J_READ8	1
#define GMUX_SIM_J_WRITE8	2
#define GMUX_SIM_J_READ32	3
#define GMUX_SIM_J_WRITE32	4
#define GMUX_SIM_J_READ32BE	5
#define GMUX_SIM_J_WRITE32BE	6

#endif /* MACSUPPORT_GMUX_SIM_H */
