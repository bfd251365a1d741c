// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for src/lib/gmux_switch.c against the register model of
 * src/lib/gmux_model.c (cmocka): the registers a switch writes per kind and
 * model, their verification, DDC-only switches and the power sequence,
 * with the model's REFUSE_SWITCH and POWER_STUCK faults.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "macsupport/gmux_model.h"
#include "macsupport/gmux_regs.h"
#include "macsupport/gmux_switch.h"

#define LOG_MAX	16

/**
 * struct tctx - a modelled gmux and the accesses the switch logic made
 * @m: the model
 * @writes: register writes, in order
 * @nwrites: how many
 * @reads: register reads
 * @fail_port: an access to this register fails with @fail_err (0: none)
 * @fail_err: the errno it fails with
 */
struct tctx {
	struct gmux_model m;
	struct gmux_switch_step writes[LOG_MAX];
	unsigned int nwrites;
	unsigned int reads;
	u8 fail_port;
	int fail_err;
};

static int t_read(void *ctx, u8 port, u32 *val)
{
	struct tctx *t = ctx;

	t->reads++;
	if (t->fail_port && port == t->fail_port)
		return t->fail_err;
	*val = gmux_model_reg_read(&t->m, port);
	return 0;
}

static int t_write(void *ctx, u8 port, u32 val)
{
	struct tctx *t = ctx;

	if (t->fail_port && port == t->fail_port)
		return t->fail_err;
	if (t->nwrites < LOG_MAX) {
		t->writes[t->nwrites].port = port;
		t->writes[t->nwrites].val = (u8)val;
	}
	t->nwrites++;
	gmux_model_reg_write(&t->m, port, val);
	return 0;
}

static const struct gmux_reg_access t_acc = { .read = t_read, .write = t_write };

static void t_init(struct tctx *t, enum mac_gmux_kind kind)
{
	memset(t, 0, sizeof(*t));
	gmux_model_init(&t->m, kind);
}

/* Plan for @kind, run it on a fresh model, return the result. */
static int t_switch(struct tctx *t, enum mac_gmux_kind kind, bool ext, enum gmux_gpu to,
		    struct gmux_switch_result *res)
{
	struct gmux_switch_step steps[GMUX_SWITCH_MAX_STEPS];
	int n = gmux_switch_plan(kind, ext, to, steps);

	assert_true(n > 0);
	return gmux_switch_run(&t_acc, t, steps, (unsigned int)n, res);
}

static const struct mac_model_info *model(const char *name)
{
	struct mac_model_id id;

	assert_int_equal(mac_model_parse(name, &id), 0);
	return mac_model_lookup(&id);
}

static void test_external_only_without_thunderbolt(void **state)
{
	(void)state;
	assert_true(gmux_external_switchable(model("MacBookPro5,1")));
	assert_true(gmux_external_switchable(model("MacBookPro6,2")));
	/* Thunderbolt: the external port is the dGPU's */
	assert_false(gmux_external_switchable(model("MacBookPro8,2")));
	assert_false(gmux_external_switchable(model("MacBookPro9,1")));
	assert_false(gmux_external_switchable(model("MacBookPro10,1")));
	assert_false(gmux_external_switchable(model("MacBookPro11,3")));
	assert_false(gmux_external_switchable(model("MacBookPro15,1")));
	assert_false(gmux_external_switchable(model("MacBookPro8,1")));
	assert_false(gmux_external_switchable(NULL));
}

static void test_classic_writes_ddc_display(void **state)
{
	struct gmux_switch_result res;
	struct tctx t;

	(void)state;
	t_init(&t, MAC_GMUX_CLASSIC);
	assert_int_equal(t_switch(&t, MAC_GMUX_CLASSIC, false, GMUX_GPU_DIS, &res), 0);
	assert_int_equal(t.nwrites, 2);
	assert_int_equal(t.writes[0].port, GMUX_PORT_SWITCH_DDC);
	assert_int_equal(t.writes[0].val, GMUX_DDC_DIS);
	assert_int_equal(t.writes[1].port, GMUX_PORT_SWITCH_DISPLAY);
	assert_int_equal(t.writes[1].val, GMUX_SWITCH_DIS);
	assert_int_equal(t.reads, 2);
	assert_int_equal(t.m.switch_display, GMUX_SWITCH_DIS);
	assert_int_equal(t.m.switch_ddc, GMUX_DDC_DIS);
	/* external port untouched on a Thunderbolt Mac */
	assert_int_equal(t.m.switch_external, GMUX_SWITCH_IGD);

	assert_int_equal(t_switch(&t, MAC_GMUX_CLASSIC, false, GMUX_GPU_IGD, &res), 0);
	assert_int_equal(t.m.switch_display, GMUX_SWITCH_IGD);
	assert_int_equal(t.m.switch_ddc, GMUX_DDC_IGD);
}

static void test_classic_external_follows(void **state)
{
	struct gmux_switch_result res;
	struct tctx t;

	(void)state;
	t_init(&t, MAC_GMUX_CLASSIC);
	assert_int_equal(t_switch(&t, MAC_GMUX_CLASSIC, true, GMUX_GPU_DIS, &res), 0);
	assert_int_equal(t.nwrites, 3);
	assert_int_equal(t.writes[2].port, GMUX_PORT_SWITCH_EXTERNAL);
	assert_int_equal(t.m.switch_external, GMUX_SWITCH_DIS);
}

static void test_indexed_t2_no_ddc(void **state)
{
	static const enum mac_gmux_kind kinds[] = { MAC_GMUX_INDEXED, MAC_GMUX_T2 };
	struct gmux_switch_result res;
	struct tctx t;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		t_init(&t, kinds[i]);
		assert_int_equal(t_switch(&t, kinds[i], false, GMUX_GPU_DIS, &res), 0);
		assert_int_equal(t.nwrites, 1);
		assert_int_equal(t.writes[0].port, GMUX_PORT_SWITCH_DISPLAY);
		assert_int_equal(t.m.switch_display, GMUX_SWITCH_DIS);
		assert_int_equal(t.m.switch_ddc, GMUX_DDC_IGD);
	}
}

static void test_bad_kind_or_gpu(void **state)
{
	struct gmux_switch_step steps[GMUX_SWITCH_MAX_STEPS];

	(void)state;
	assert_int_equal(gmux_switch_plan(MAC_GMUX_FAKE, false, GMUX_GPU_DIS, steps), -EINVAL);
	assert_int_equal(gmux_switch_plan(MAC_GMUX_NONE, false, GMUX_GPU_DIS, steps), -EINVAL);
	assert_int_equal(gmux_switch_plan(MAC_GMUX_T2, false, (enum gmux_gpu)7, steps), -EINVAL);
}

static void test_refused_switch_is_error(void **state)
{
	static const enum mac_gmux_kind kinds[] = {
		MAC_GMUX_CLASSIC, MAC_GMUX_INDEXED, MAC_GMUX_T2,
	};
	struct gmux_switch_result res;
	struct tctx t;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		t_init(&t, kinds[i]);
		gmux_model_set_fault(&t.m, GMUX_FAULT_REFUSE_SWITCH);
		assert_int_equal(t_switch(&t, kinds[i], false, GMUX_GPU_DIS, &res), -EIO);
		assert_int_equal(res.err, -EIO);
		assert_int_equal(res.port, kinds[i] == MAC_GMUX_CLASSIC ?
				 GMUX_PORT_SWITCH_DDC : GMUX_PORT_SWITCH_DISPLAY);
		assert_int_equal(t.m.switch_display, GMUX_SWITCH_IGD);
	}
}

static void test_access_error_reported(void **state)
{
	struct gmux_switch_result res;
	struct tctx t;

	(void)state;
	t_init(&t, MAC_GMUX_INDEXED);
	t.fail_port = GMUX_PORT_SWITCH_DISPLAY;
	t.fail_err = -ETIMEDOUT;
	assert_int_equal(t_switch(&t, MAC_GMUX_INDEXED, false, GMUX_GPU_DIS, &res), -ETIMEDOUT);
	assert_int_equal(res.port, GMUX_PORT_SWITCH_DISPLAY);
}

static void test_display_readback_bit0(void **state)
{
	(void)state;
	assert_true(gmux_switch_readback_ok(GMUX_PORT_SWITCH_DISPLAY, GMUX_SWITCH_DIS, 3));
	assert_true(gmux_switch_readback_ok(GMUX_PORT_SWITCH_DISPLAY, GMUX_SWITCH_DIS, 1));
	assert_true(gmux_switch_readback_ok(GMUX_PORT_SWITCH_DISPLAY, GMUX_SWITCH_IGD, 2));
	assert_false(gmux_switch_readback_ok(GMUX_PORT_SWITCH_DISPLAY, GMUX_SWITCH_IGD, 3));
	assert_false(gmux_switch_readback_ok(GMUX_PORT_SWITCH_DISPLAY, GMUX_SWITCH_DIS, 2));
	assert_true(gmux_switch_readback_ok(GMUX_PORT_SWITCH_DDC, GMUX_DDC_DIS, 2));
	assert_false(gmux_switch_readback_ok(GMUX_PORT_SWITCH_DDC, GMUX_DDC_DIS, 1));
	assert_int_equal(gmux_display_owner(3), GMUX_GPU_DIS);
	assert_int_equal(gmux_display_owner(2), GMUX_GPU_IGD);
}

static void test_ddc_switch(void **state)
{
	struct gmux_switch_result res;
	enum gmux_gpu old;
	struct tctx t;

	(void)state;
	t_init(&t, MAC_GMUX_CLASSIC);
	assert_int_equal(gmux_switch_ddc(&t_acc, &t, GMUX_GPU_DIS, &old, &res), 0);
	assert_int_equal(old, GMUX_GPU_IGD);
	assert_int_equal(t.m.switch_ddc, GMUX_DDC_DIS);
	assert_int_equal(t.m.switch_display, GMUX_SWITCH_IGD);	/* DDC only */
	assert_int_equal(t.nwrites, 1);

	/* already there: nothing written */
	assert_int_equal(gmux_switch_ddc(&t_acc, &t, GMUX_GPU_DIS, &old, &res), 0);
	assert_int_equal(old, GMUX_GPU_DIS);
	assert_int_equal(t.nwrites, 1);

	gmux_model_set_fault(&t.m, GMUX_FAULT_REFUSE_SWITCH);
	assert_int_equal(gmux_switch_ddc(&t_acc, &t, GMUX_GPU_IGD, &old, &res), -EIO);
	assert_int_equal(res.got, GMUX_DDC_DIS);

	gmux_model_set_fault(&t.m, GMUX_FAULT_NONE);
	t.m.switch_ddc = 0x7;
	assert_int_equal(gmux_switch_ddc(&t_acc, &t, GMUX_GPU_IGD, &old, &res), -EPROTO);
}

static void test_power_sequence(void **state)
{
	struct tctx t;

	(void)state;
	t_init(&t, MAC_GMUX_T2);
	assert_int_equal(gmux_power_request(&t_acc, &t, false), 0);
	assert_int_equal(t.nwrites, 2);
	assert_int_equal(t.writes[0].port, GMUX_PORT_DISCRETE_POWER);
	assert_int_equal(t.writes[0].val, 1);
	assert_int_equal(t.writes[1].val, 0);
	assert_false(t.m.dgpu_on);
	assert_true(t.m.int_status & GMUX_INT_POWER);

	t.m.int_status = 0;
	assert_int_equal(gmux_power_request(&t_acc, &t, true), 0);
	assert_int_equal(t.writes[2].val, 1);
	assert_int_equal(t.writes[3].val, 3);
	assert_true(t.m.dgpu_on);
	assert_true(t.m.int_status & GMUX_INT_POWER);
}

static void test_power_stuck_never_completes(void **state)
{
	struct tctx t;

	(void)state;
	t_init(&t, MAC_GMUX_INDEXED);
	gmux_model_set_fault(&t.m, GMUX_FAULT_POWER_STUCK);
	assert_int_equal(gmux_power_request(&t_acc, &t, false), 0);
	assert_true(t.m.dgpu_on);
	assert_false(t.m.int_status & GMUX_INT_POWER);
}

static void test_power_write_error(void **state)
{
	struct tctx t;

	(void)state;
	t_init(&t, MAC_GMUX_INDEXED);
	t.fail_port = GMUX_PORT_DISCRETE_POWER;
	t.fail_err = -ETIMEDOUT;
	assert_int_equal(gmux_power_request(&t_acc, &t, false), -ETIMEDOUT);
	assert_true(t.m.dgpu_on);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_external_only_without_thunderbolt),
		cmocka_unit_test(test_classic_writes_ddc_display),
		cmocka_unit_test(test_classic_external_follows),
		cmocka_unit_test(test_indexed_t2_no_ddc),
		cmocka_unit_test(test_bad_kind_or_gpu),
		cmocka_unit_test(test_refused_switch_is_error),
		cmocka_unit_test(test_access_error_reported),
		cmocka_unit_test(test_display_readback_bit0),
		cmocka_unit_test(test_ddc_switch),
		cmocka_unit_test(test_power_sequence),
		cmocka_unit_test(test_power_stuck_never_completes),
		cmocka_unit_test(test_power_write_error),
	};

	return cmocka_run_group_tests_name("gmux_switch", tests, NULL, NULL);
}
