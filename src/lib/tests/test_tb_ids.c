// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for src/lib/tb_ids.c (cmocka): which PCI functions
 * tb_macpm takes for a Thunderbolt NHI, and which generations have a plug
 * interrupt.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "macsupport/tb_ids.h"

/* Every NHI of the list, with its generation. */
static void test_nhis(void **state)
{
	static const struct { u16 dev; enum mac_tb_gen gen; } nhi[] = {
		{ 0x1513, MAC_TB_LIGHT_RIDGE }, { 0x151a, MAC_TB_EAGLE_RIDGE },
		{ 0x1547, MAC_TB_CACTUS_RIDGE }, { 0x1548, MAC_TB_CACTUS_RIDGE },
		{ 0x156a, MAC_TB_FALCON_RIDGE }, { 0x156c, MAC_TB_FALCON_RIDGE },
		{ 0x1575, MAC_TB_ALPINE_RIDGE }, { 0x1577, MAC_TB_ALPINE_RIDGE },
		{ 0x15bf, MAC_TB_ALPINE_RIDGE }, { 0x15d2, MAC_TB_ALPINE_RIDGE },
		{ 0x15d9, MAC_TB_ALPINE_RIDGE }, { 0x15e8, MAC_TB_TITAN_RIDGE },
		{ 0x15eb, MAC_TB_TITAN_RIDGE },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(nhi); i++)
		assert_int_equal(mac_tb_nhi_gen(0x8086, nhi[i].dev, 0x0880), nhi[i].gen);
}

/* Bridges (class 0x0604), even where they share the NHI's ID, are not NHIs. */
static void test_bridges_and_others(void **state)
{
	static const u16 bridge[] = {
		0x1513, 0x1547, 0x156b, 0x156d, 0x1576, 0x1578, 0x15c0, 0x15d3,
		0x15da, 0x15e7, 0x15ea,
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bridge); i++)
		assert_int_equal(mac_tb_nhi_gen(0x8086, bridge[i], 0x0604), MAC_TB_NONE);
	/* a bridge-only ID never is an NHI, whatever its class */
	assert_int_equal(mac_tb_nhi_gen(0x8086, 0x156b, 0x0880), MAC_TB_NONE);
	/* not Intel; QEMU's edu (the harness's stand-in) is not taken by ID */
	assert_int_equal(mac_tb_nhi_gen(0x106b, 0x1513, 0x0880), MAC_TB_NONE);
	assert_int_equal(mac_tb_nhi_gen(0x1234, 0x11e8, 0x00ff), MAC_TB_NONE);
	/* USB4 hosts and Ice Lake are not in the table */
	assert_int_equal(mac_tb_nhi_gen(0x8086, 0x8a17, 0x0880), MAC_TB_NONE);
}

static void test_plug_gpe(void **state)
{
	(void)state;
	assert_false(mac_tb_gen_has_plug_gpe(MAC_TB_NONE));
	assert_true(mac_tb_gen_has_plug_gpe(MAC_TB_LIGHT_RIDGE));
	assert_true(mac_tb_gen_has_plug_gpe(MAC_TB_EAGLE_RIDGE));
	assert_true(mac_tb_gen_has_plug_gpe(MAC_TB_CACTUS_RIDGE));
	assert_true(mac_tb_gen_has_plug_gpe(MAC_TB_FALCON_RIDGE));
	assert_false(mac_tb_gen_has_plug_gpe(MAC_TB_ALPINE_RIDGE));
	assert_false(mac_tb_gen_has_plug_gpe(MAC_TB_TITAN_RIDGE));
	assert_false(mac_tb_gen_has_plug_gpe(MAC_TB_ICE_LAKE));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nhis),
		cmocka_unit_test(test_bridges_and_others),
		cmocka_unit_test(test_plug_gpe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
