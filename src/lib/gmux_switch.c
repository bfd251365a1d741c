// SPDX-License-Identifier: GPL-2.0
/*
 * gmux display switching and dGPU power: which registers, which values,
 * and how a switch is verified (see macsupport/gmux_switch.h).
 *
 * Pure C: compiled into apple_gmux_ng and into the host unit tests, which
 * run it against the register model of gmux_model.c.
 */

#include "macsupport/gmux_regs.h"
#include "macsupport/gmux_switch.h"

bool gmux_external_switchable(const struct mac_model_info *model)
{
	return model && model->gmux == MAC_GMUX_CLASSIC && model->tb == MAC_TB_NONE;
}

int gmux_switch_plan(enum mac_gmux_kind kind, bool external, enum gmux_gpu to,
		     struct gmux_switch_step steps[GMUX_SWITCH_MAX_STEPS])
{
	u8 mux = to == GMUX_GPU_DIS ? GMUX_SWITCH_DIS : GMUX_SWITCH_IGD;
	int n = 0;

	if (to != GMUX_GPU_IGD && to != GMUX_GPU_DIS)
		return -EINVAL;
	switch (kind) {
	case MAC_GMUX_CLASSIC:
		steps[n].port = GMUX_PORT_SWITCH_DDC;
		steps[n++].val = to == GMUX_GPU_DIS ? GMUX_DDC_DIS : GMUX_DDC_IGD;
		break;
	case MAC_GMUX_INDEXED:
	case MAC_GMUX_T2:
		break;
	default:
		return -EINVAL;
	}
	steps[n].port = GMUX_PORT_SWITCH_DISPLAY;
	steps[n++].val = mux;
	if (external) {
		steps[n].port = GMUX_PORT_SWITCH_EXTERNAL;
		steps[n++].val = mux;
	}
	return n;
}

enum gmux_gpu gmux_display_owner(u32 val)
{
	return val & 1 ? GMUX_GPU_DIS : GMUX_GPU_IGD;
}

bool gmux_switch_readback_ok(u8 port, u8 written, u32 readback)
{
	if (port == GMUX_PORT_SWITCH_DISPLAY)
		return gmux_display_owner(readback) == gmux_display_owner(written);
	return (readback & 0xff) == written;
}

static void gmux_switch_fail(struct gmux_switch_result *res, u8 port, u8 want, u32 got,
			     int err)
{
	if (res->err)
		return;		/* keep the first failure */
	res->port = port;
	res->want = want;
	res->got = got;
	res->err = err;
}

int gmux_switch_run(const struct gmux_reg_access *acc, void *ctx,
		    const struct gmux_switch_step *steps, unsigned int n,
		    struct gmux_switch_result *res)
{
	unsigned int i;
	u32 got;
	int ret;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < n; i++) {
		ret = acc->write(ctx, steps[i].port, steps[i].val);
		if (ret)
			gmux_switch_fail(res, steps[i].port, steps[i].val, 0, ret);
	}
	for (i = 0; i < n; i++) {
		got = 0;
		ret = acc->read(ctx, steps[i].port, &got);
		if (ret)
			gmux_switch_fail(res, steps[i].port, steps[i].val, 0, ret);
		else if (!gmux_switch_readback_ok(steps[i].port, steps[i].val, got))
			gmux_switch_fail(res, steps[i].port, steps[i].val, got, -EIO);
	}
	return res->err;
}

int gmux_switch_ddc(const struct gmux_reg_access *acc, void *ctx, enum gmux_gpu to,
		    enum gmux_gpu *old, struct gmux_switch_result *res)
{
	struct gmux_switch_step step = {
		.port = GMUX_PORT_SWITCH_DDC,
		.val = to == GMUX_GPU_DIS ? GMUX_DDC_DIS : GMUX_DDC_IGD,
	};
	u32 cur = 0;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = acc->read(ctx, GMUX_PORT_SWITCH_DDC, &cur);
	if (ret) {
		gmux_switch_fail(res, step.port, step.val, 0, ret);
		return ret;
	}
	if (cur == GMUX_DDC_IGD) {
		*old = GMUX_GPU_IGD;
	} else if (cur == GMUX_DDC_DIS) {
		*old = GMUX_GPU_DIS;
	} else {
		gmux_switch_fail(res, step.port, step.val, cur, -EPROTO);
		return -EPROTO;
	}
	if (*old == to)
		return 0;
	return gmux_switch_run(acc, ctx, &step, 1, res);
}

int gmux_power_request(const struct gmux_reg_access *acc, void *ctx, bool on)
{
	int ret;

	ret = acc->write(ctx, GMUX_PORT_DISCRETE_POWER, GMUX_POWER_PREPARE);
	if (ret)
		return ret;
	return acc->write(ctx, GMUX_PORT_DISCRETE_POWER, on ? GMUX_POWER_ON : GMUX_POWER_OFF);
}
