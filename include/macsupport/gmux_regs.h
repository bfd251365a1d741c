/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gmux register map and transport constants (facts: the in-tree apple-gmux
 * driver, drivers/platform/x86/apple-gmux.c, and the Macs' ACPI tables).
 *
 * Port numbers are offsets from the gmux's I/O base (classic, indexed) or
 * the register numbers sent through the T2 command window.
 */
#ifndef MACSUPPORT_GMUX_REGS_H
#define MACSUPPORT_GMUX_REGS_H

/* Registers, the same numbers on all three kinds */
#define GMUX_PORT_VERSION_MAJOR		0x04	/* classic: u8 each; others: u32 at 0x04 */
#define GMUX_PORT_VERSION_MINOR		0x05
#define GMUX_PORT_VERSION_RELEASE	0x06
#define GMUX_PORT_SWITCH_DISPLAY	0x10	/* write 2 = IGD, 3 = DIS; read bit0 = DIS */
#define GMUX_PORT_SWITCH_GET_DISPLAY	0x11
#define GMUX_PORT_INTERRUPT_ENABLE	0x14	/* 0xff enable, 0x00 disable */
#define GMUX_PORT_INTERRUPT_STATUS	0x16	/* cleared by writing the value back */
#define GMUX_PORT_SWITCH_DDC		0x28	/* 1 = IGD, 2 = DIS (classic only) */
#define GMUX_PORT_SWITCH_EXTERNAL	0x40	/* 2 = IGD, 3 = DIS */
#define GMUX_PORT_SWITCH_GET_EXTERNAL	0x41
#define GMUX_PORT_DISCRETE_POWER	0x50	/* on: 1 then 3; off: 1 then 0 */
#define GMUX_PORT_MAX_BRIGHTNESS	0x70	/* u32 */
#define GMUX_PORT_BRIGHTNESS		0x74	/* u32, low 24 bits */

/* Indexed (H8S/2113) mailbox */
#define GMUX_PORT_VALUE			0xc2	/* 4-byte data window 0xc2..0xc5 */
#define GMUX_PORT_READ			0xd0	/* write a port number: start a read; read: ack */
#define GMUX_PORT_WRITE			0xd4	/* write a port: start a write; bit0 = pending */
#define GMUX_INDEX_PROBE_LO		0xcc	/* detection: 0xaa, 0x55, 0x00 to 0xcc..0xce */
#define GMUX_INDEX_PROBE_HI		0xcd
#define GMUX_INDEX_PROBE_KICK		0xce
#define GMUX_INDEX_PROBE_MAGIC		0x55aa

/* T2 memory-mapped command window (ACPI declares 8 bytes; 16 are used) */
#define GMUX_T2_DATA			0x00	/* u32, big-endian */
#define GMUX_T2_PORT_SELECT		0x0e
#define GMUX_T2_COMMAND			0x0f	/* 0x00|len read, 0x40|len write; 0 = idle */
#define GMUX_T2_CMD_READ		0x00
#define GMUX_T2_CMD_WRITE		0x40
#define GMUX_T2_WINDOW_LEN		16

/* Interrupt status bits */
#define GMUX_INT_DISPLAY		0x01
#define GMUX_INT_POWER			0x04
#define GMUX_INT_HOTPLUG		0x08
#define GMUX_INT_ENABLE			0xff
#define GMUX_INT_DISABLE		0x00

/* Switch values */
#define GMUX_SWITCH_IGD			2
#define GMUX_SWITCH_DIS			3
#define GMUX_DDC_IGD			1
#define GMUX_DDC_DIS			2

#define GMUX_BRIGHTNESS_MASK		0x00ffffff
#define GMUX_MAX_BRIGHTNESS		0x00ffffff
/* A T2 gmux's range, whatever it reports (some T2 iMacs report 0x3ff). */
#define GMUX_T2_MAX_BRIGHTNESS		0xffff

/* An I/O range shorter than this cannot be a classic or indexed gmux. */
#define GMUX_MIN_IO_LEN			(GMUX_PORT_BRIGHTNESS + 4)

/*
 * Every operation gives up after this long. A gmux answers in well under a
 * millisecond; the in-tree driver polls 200 x 100 us. 15 ms keeps a stuck
 * operation below 25 ms even with the scheduling delays of a loaded
 * machine (or an emulator) on top.
 */
#define GMUX_TIMEOUT_US			15000
/*
 * Once a command is sent, it gets at least this long even if the budget
 * ran out meanwhile: a CPU that was taken away (a preempted vCPU, an SMI)
 * must not turn a working gmux into a timeout.
 */
#define GMUX_MIN_WAIT_US		2000
#define GMUX_POLL_US			100

#endif /* MACSUPPORT_GMUX_REGS_H */
