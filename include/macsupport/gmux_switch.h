/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gmux display switching and dGPU power, the logic without the transport
 * (src/lib/gmux_switch.c).
 *
 * Which registers a switch writes on which gmux, in which order and with
 * which values, and how the values read back are judged. Register access
 * goes through callbacks: the module plugs in its regmap, the host unit
 * tests the register model of gmux_model.h. Pure C, shared by both.
 */
#ifndef MACSUPPORT_GMUX_SWITCH_H
#define MACSUPPORT_GMUX_SWITCH_H

#include "lib_types.h"
#include "mac_model.h"

/**
 * enum gmux_gpu - one of the two GPUs a gmux switches between
 * @GMUX_GPU_IGD: the integrated GPU
 * @GMUX_GPU_DIS: the discrete GPU
 */
enum gmux_gpu {
	GMUX_GPU_IGD,
	GMUX_GPU_DIS,
};

/**
 * struct gmux_reg_access - how the switch logic reaches the registers
 * @read: read register @port into @val; 0 or a negative errno
 * @write: write @val to register @port; 0 or a negative errno
 *
 * Both get the @ctx given to the gmux_switch_*() call.
 */
struct gmux_reg_access {
	int (*read)(void *ctx, u8 port, u32 *val);
	int (*write)(void *ctx, u8 port, u32 val);
};

/** GMUX_SWITCH_MAX_STEPS - registers one switch writes at most */
#define GMUX_SWITCH_MAX_STEPS	3

/**
 * struct gmux_switch_step - one register write of a switch
 * @port: GMUX_PORT_SWITCH_DDC, _DISPLAY or _EXTERNAL
 * @val: the value written
 */
struct gmux_switch_step {
	u8 port;
	u8 val;
};

/**
 * struct gmux_switch_result - what a failed switch found
 * @port: the register that failed (0 when none did)
 * @want: the value written to it
 * @got: the value read back (valid when @err is -EIO)
 * @err: 0, the errno of the access that failed, or -EIO when a register
 *	read back something else than was written
 */
struct gmux_switch_result {
	u8 port;
	u8 want;
	u32 got;
	int err;
};

/**
 * gmux_external_switchable() - does the external port follow the panel?
 * @model: the machine's model table entry, or NULL when it is unknown
 *
 * Only the classic gmux of Macs without Thunderbolt (MacBookPro5,x and
 * 6,x) switch the external DisplayPort. On every Thunderbolt Mac the
 * external port's main link is wired to the dGPU alone; an unknown model
 * is treated the same way (never switched).
 *
 * Return: true if a switch must also write SWITCH_EXTERNAL.
 */
bool gmux_external_switchable(const struct mac_model_info *model);

/**
 * gmux_switch_plan() - the register writes of a full switch
 * @kind: MAC_GMUX_CLASSIC, MAC_GMUX_INDEXED or MAC_GMUX_T2
 * @external: the external port follows the panel (gmux_external_switchable())
 * @to: the GPU the panel goes to
 * @steps: filled with the writes, in order
 *
 * Classic: SWITCH_DDC (1 IGD, 2 DIS), SWITCH_DISPLAY (2 IGD, 3 DIS), then
 * SWITCH_EXTERNAL (2, 3) if @external. Indexed and T2 have no separate DDC
 * mux (their eDP mux switches AUX with the main link): SWITCH_DISPLAY,
 * then SWITCH_EXTERNAL if @external.
 *
 * Return: the number of steps (at most GMUX_SWITCH_MAX_STEPS), or -EINVAL
 * for another kind or GPU.
 */
int gmux_switch_plan(enum mac_gmux_kind kind, bool external, enum gmux_gpu to,
		     struct gmux_switch_step steps[GMUX_SWITCH_MAX_STEPS]);

/**
 * gmux_switch_readback_ok() - does a register read back what was written?
 * @port: the register
 * @written: the value written
 * @readback: the value read
 *
 * SWITCH_DISPLAY reads bit0 set for the dGPU (2 and 3 written); the other
 * switch registers and DISCRETE_POWER read the value written (low 8 bits).
 *
 * Return: true when @readback shows the write carried out.
 */
bool gmux_switch_readback_ok(u8 port, u8 written, u32 readback);

/**
 * gmux_switch_run() - write a switch plan and verify every register
 * @acc: register access
 * @ctx: its context
 * @steps: the writes (gmux_switch_plan())
 * @n: how many
 * @res: what failed, if anything
 *
 * Writes every step, then reads every register written back. The writes
 * all go out even when one reads back wrong, so the gmux is left in the
 * state asked for as far as it takes it.
 *
 * Return: 0 when every register reads back as written; the first access
 * error; or -EIO when a register shows another value (@res says which).
 */
int gmux_switch_run(const struct gmux_reg_access *acc, void *ctx,
		    const struct gmux_switch_step *steps, unsigned int n,
		    struct gmux_switch_result *res);

/**
 * gmux_switch_ddc() - switch only the DDC lines (classic gmux)
 * @acc: register access
 * @ctx: its context
 * @to: the GPU the DDC lines go to
 * @old: the GPU that had them before
 * @res: what failed, if anything
 *
 * Reads SWITCH_DDC, and writes and verifies it unless it already points
 * at @to.
 *
 * Return: 0, an access error, -EIO when the write did not take (@res), or
 * -EPROTO when SWITCH_DDC reads neither 1 nor 2 before the write.
 */
int gmux_switch_ddc(const struct gmux_reg_access *acc, void *ctx, enum gmux_gpu to,
		    enum gmux_gpu *old, struct gmux_switch_result *res);

/**
 * gmux_display_owner() - which GPU SWITCH_DISPLAY says has the panel
 * @val: SWITCH_DISPLAY as read
 *
 * Return: GMUX_GPU_DIS when bit0 is set, else GMUX_GPU_IGD.
 */
enum gmux_gpu gmux_display_owner(u32 val);

/*
 * DISCRETE_POWER values: a change is always 1 followed by ON (3) or OFF (0);
 * the gmux then sequences the dGPU's rails and raises GMUX_INT_POWER.
 */
#define GMUX_POWER_PREPARE	1
#define GMUX_POWER_ON		3
#define GMUX_POWER_OFF		0

/**
 * gmux_power_request() - start a dGPU power change
 * @acc: register access
 * @ctx: its context
 * @on: power on (1 then 3) or off (1 then 0)
 *
 * Only writes: completion is signalled by GMUX_INT_POWER in the interrupt
 * status, which the caller waits for (interrupt, or polling). That
 * completion is the check that the change was carried out: what
 * DISCRETE_POWER reads back on real hardware is not documented.
 *
 * Return: 0 or the errno of the write that failed.
 */
int gmux_power_request(const struct gmux_reg_access *acc, void *ctx, bool on);

#endif /* MACSUPPORT_GMUX_SWITCH_H */
