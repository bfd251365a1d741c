// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for src/lib/mac_model.c (cmocka).
 *
 * The unit under test is #included rather than linked so the table
 * self-check can walk the static mac_models[] array; the Makefile therefore
 * links this test against no other source (test_mac_model_SRCS is empty).
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../mac_model.c"

static void expect_parse(const char *s, const char *family, unsigned int major,
			 unsigned int minor)
{
	struct mac_model_id id;
	int rc;

	memset(&id, 0x5a, sizeof(id));
	rc = mac_model_parse(s, &id);
	if (rc)
		fail_msg("rejected \"%s\" (%d)", s, rc);
	assert_string_equal(id.family, family);
	assert_int_equal(id.major, major);
	assert_int_equal(id.minor, minor);
}

static void expect_reject(const char *s)
{
	struct mac_model_id id;
	int rc;

	rc = mac_model_parse(s, &id);
	if (rc != -EINVAL)
		fail_msg("\"%s\": expected -EINVAL, got %d", s, rc);
}

static void test_parse_macbookpro10_1(void **state)
{
	(void)state;
	expect_parse("MacBookPro10,1", "MacBookPro", 10, 1);
}

static void test_parse_other_families(void **state)
{
	(void)state;
	expect_parse("MacBookAir4,2", "MacBookAir", 4, 2);
	expect_parse("MacPro6,1", "MacPro", 6, 1);
	expect_parse("Macmini5,3", "Macmini", 5, 3);
	expect_parse("iMac20,2", "iMac", 20, 2);
	expect_parse("iMacPro1,1", "iMacPro", 1, 1);
	expect_parse("X1,2", "X", 1, 2);
	expect_parse("MacBookPro999,999", "MacBookPro", 999, 999);
	expect_parse("MacBookPro0,0", "MacBookPro", 0, 0);
	/* Parsing keeps case; lookup is what is case-sensitive. */
	expect_parse("macbookpro10,1", "macbookpro", 10, 1);
}

/*
 * Documented choice: leading zeros are accepted and count towards the
 * three-digit limit, so "MacBookPro08,02" is MacBookPro8,2 while
 * "MacBookPro0010,1" is rejected.
 */
static void test_parse_leading_zeros(void **state)
{
	struct mac_model_id id;
	const struct mac_model_info *m;

	(void)state;
	expect_parse("MacBookPro08,2", "MacBookPro", 8, 2);
	expect_parse("MacBookPro008,002", "MacBookPro", 8, 2);
	expect_reject("MacBookPro0010,1");
	expect_reject("MacBookPro10,0001");

	assert_int_equal(mac_model_parse("MacBookPro08,02", &id), 0);
	m = mac_model_lookup(&id);
	assert_non_null(m);
	assert_int_equal(m->major, 8);
	assert_int_equal(m->minor, 2);
	assert_int_equal(m->gmux, MAC_GMUX_CLASSIC);
}

static void test_parse_rejects_malformed(void **state)
{
	static const char * const bad[] = {
		"",
		"MacBookPro",
		"MacBookPro10",
		"MacBookPro10,",
		",1",
		"10,1",
		"MacBookPro,1",
		"MacBookPro10,1 ",
		" MacBookPro10,1",
		"MacBookPro 10,1",
		"MacBookPro10 ,1",
		"MacBookPro10, 1",
		"MacBookPro+10,1",
		"MacBookPro-10,1",
		"MacBookPro10,+1",
		"MacBookPro10,-1",
		"+MacBookPro10,1",
		"MacBookPro1000,1",
		"MacBookPro10,1000",
		"MacBookPro10;1",
		"MacBookPro10.1",
		"MacBookPro10,1,2",
		"MacBookPro10,1a",
		"MacBookPro10,,1",
		"MacBook-Pro10,1",
		"MacBookPro10,1\n",
		"MacBookPr\xc3\xb6" "10,1",
		"MacBookPro0x1,1",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		expect_reject(bad[i]);
}

static void test_parse_family_length(void **state)
{
	char s[128];
	char family[MAC_MODEL_FAMILY_MAX];

	(void)state;
	/* MAC_MODEL_FAMILY_MAX - 1 letters: the longest that fits. */
	memset(family, 'A', sizeof(family) - 1);
	family[sizeof(family) - 1] = '\0';
	snprintf(s, sizeof(s), "%s1,1", family);
	expect_parse(s, family, 1, 1);

	/* MAC_MODEL_FAMILY_MAX letters and more. */
	snprintf(s, sizeof(s), "%sB1,1", family);
	expect_reject(s);
	memset(s, 'C', 100);
	strcpy(s + 100, "1,1");
	expect_reject(s);
}

static void test_parse_null(void **state)
{
	struct mac_model_id id;

	(void)state;
	assert_int_equal(mac_model_parse(NULL, &id), -EINVAL);
	assert_int_equal(mac_model_parse("MacBookPro10,1", NULL), -EINVAL);
	assert_int_equal(mac_model_parse(NULL, NULL), -EINVAL);
}

static void test_parse_failure_leaves_id(void **state)
{
	struct mac_model_id id, before;

	(void)state;
	assert_int_equal(mac_model_parse("iMac12,2", &id), 0);
	before = id;
	assert_int_equal(mac_model_parse("MacBookPro10;1", &id), -EINVAL);
	assert_int_equal(mac_model_parse("MacBookPro1000,1", &id), -EINVAL);
	assert_memory_equal(&id, &before, sizeof(id));
}

static const struct mac_model_info *lookup_str(const char *s)
{
	struct mac_model_id id;

	if (mac_model_parse(s, &id))
		fail_msg("cannot parse \"%s\"", s);
	return mac_model_lookup(&id);
}

static void test_lookup_known(void **state)
{
	const struct mac_model_info *m;

	(void)state;
	m = lookup_str("MacBookPro10,1");
	assert_non_null(m);
	assert_string_equal(m->family, "MacBookPro");
	assert_int_equal(m->major, 10);
	assert_int_equal(m->minor, 1);
	assert_int_equal(m->gmux, MAC_GMUX_INDEXED);
	assert_int_equal(m->tb, MAC_TB_CACTUS_RIDGE);
	assert_int_equal(m->tb_count, 1);
	assert_string_equal(m->desc, "MacBook Pro (Retina, 15-inch, Mid 2012 / Early 2013)");
	assert_int_equal(m->gpus, MAC_GPU_INTEGRATED | MAC_GPU_DISCRETE | MAC_GPU_MUXED);
	assert_false(m->t2);

	m = lookup_str("MacBookPro8,1");
	assert_non_null(m);
	assert_int_equal(m->gmux, MAC_GMUX_FAKE);
	assert_int_equal(m->tb, MAC_TB_LIGHT_RIDGE);

	m = lookup_str("MacBookPro8,2");
	assert_non_null(m);
	assert_int_equal(m->gmux, MAC_GMUX_CLASSIC);
	assert_string_equal(m->desc, "MacBook Pro (15-inch, Early 2011 / Late 2011)");

	m = lookup_str("MacPro6,1");
	assert_non_null(m);
	assert_int_equal(m->gmux, MAC_GMUX_UNKNOWN);
	assert_int_equal(m->tb, MAC_TB_FALCON_RIDGE);
	assert_int_equal(m->tb_count, 3);

	m = lookup_str("MacBookPro16,2");
	assert_non_null(m);
	assert_int_equal(m->gmux, MAC_GMUX_NONE);
	assert_int_equal(m->tb, MAC_TB_ICE_LAKE);

	m = lookup_str("MacBookPro5,1");
	assert_non_null(m);
	assert_int_equal(m->gmux, MAC_GMUX_CLASSIC);
	assert_int_equal(m->tb, MAC_TB_NONE);
	assert_int_equal(m->tb_count, 0);
}

static void test_lookup_unknown(void **state)
{
	struct mac_model_id id;

	(void)state;
	assert_null(lookup_str("MacBookPro99,9"));
	assert_null(lookup_str("MacBookPro99,1"));
	assert_null(lookup_str("MacBookPro7,2"));
	assert_null(lookup_str("MacBookPro10,3"));
	assert_null(lookup_str("MacBookPro1,10"));
	assert_null(lookup_str("MacBookPro16,5"));
	assert_null(lookup_str("MacBookPro0,0"));
	assert_null(lookup_str("Macmini10,1"));
	assert_null(lookup_str("Macmini9,1"));		/* Apple silicon */
	assert_null(lookup_str("MacBookAir10,1"));	/* Apple silicon */
	assert_null(lookup_str("MacBookPro17,1"));	/* Apple silicon */
	assert_null(lookup_str("iMac21,1"));		/* Apple silicon */
	assert_null(lookup_str("Mac13,1"));		/* Apple silicon */
	assert_null(lookup_str("MacBook11,1"));
	assert_null(lookup_str("iMac3,1"));
	assert_null(lookup_str("Xserve4,1"));
	assert_null(lookup_str("MacPro8,1"));
	assert_null(lookup_str("MacBookPr10,1"));	/* prefix of a family */
	assert_null(lookup_str("MacBookProX10,1"));	/* family + suffix */
	assert_null(lookup_str("macbookpro10,1"));	/* case-sensitive */
	assert_null(lookup_str("A1,1"));		/* before the first entry */
	assert_null(lookup_str("zzz1,1"));		/* after the last entry */
	assert_null(mac_model_lookup(NULL));

	/* A hand-filled id without a NUL in family must not be over-read. */
	memset(id.family, 'M', sizeof(id.family));
	id.major = 10;
	id.minor = 1;
	assert_null(mac_model_lookup(&id));
}

/*
 * The facts pinned down for these models, written out independently of the
 * table (the in-tree apple-gmux driver's detection, Linux's Thunderbolt
 * quirks, and the real Macs' firmware tables: their ACPI devices APP000B,
 * UPSB, NHI0 and their methods).
 */
#define I	MAC_GPU_INTEGRATED
#define D	MAC_GPU_DISCRETE
#define MUX	(MAC_GPU_INTEGRATED | MAC_GPU_DISCRETE | MAC_GPU_MUXED)
static const struct {
	const char *model;
	unsigned int gpus;
	enum mac_gmux_kind gmux;
	enum mac_tb_gen tb;
	unsigned int tb_count;
	bool t2;
} expected[] = {
	{ "MacBook1,1",     I,   MAC_GMUX_NONE,    MAC_TB_NONE, 0, false },
	{ "MacBook5,1",     I,   MAC_GMUX_NONE,    MAC_TB_NONE, 0, false },
	{ "MacBook8,1",     I,   MAC_GMUX_NONE,    MAC_TB_NONE, 0, false },
	{ "MacBook10,1",    I,   MAC_GMUX_NONE,    MAC_TB_NONE, 0, false },
	{ "MacBookPro1,1",  D,   MAC_GMUX_NONE,    MAC_TB_NONE, 0, false },
	{ "MacBookPro4,1",  D,   MAC_GMUX_NONE,    MAC_TB_NONE, 0, false },
	{ "MacBookPro5,1",  MUX, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0, false },
	{ "MacBookPro5,2",  MUX, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0, false },
	{ "MacBookPro5,3",  MUX, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0, false },
	{ "MacBookPro5,4",  I,   MAC_GMUX_FAKE,    MAC_TB_NONE, 0, false },
	{ "MacBookPro5,5",  I,   MAC_GMUX_NONE,    MAC_TB_NONE, 0, false },
	{ "MacBookPro6,1",  MUX, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0, false },
	{ "MacBookPro6,2",  MUX, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0, false },
	{ "MacBookPro7,1",  I,   MAC_GMUX_NONE,    MAC_TB_NONE, 0, false },
	{ "MacBookPro8,1",  I,   MAC_GMUX_FAKE,    MAC_TB_LIGHT_RIDGE, 1, false },
	{ "MacBookPro8,2",  MUX, MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1, false },
	{ "MacBookPro8,3",  MUX, MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1, false },
	{ "MacBookPro9,1",  MUX, MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1, false },
	{ "MacBookPro9,2",  I,   MAC_GMUX_FAKE,    MAC_TB_LIGHT_RIDGE, 1, false },
	{ "MacBookPro10,1", MUX, MAC_GMUX_INDEXED, MAC_TB_CACTUS_RIDGE, 1, false },
	{ "MacBookPro10,2", I,   MAC_GMUX_FAKE,    MAC_TB_CACTUS_RIDGE, 1, false },
	{ "MacBookPro11,1", I,   MAC_GMUX_NONE,    MAC_TB_FALCON_RIDGE, 1, false },
	{ "MacBookPro11,2", I,   MAC_GMUX_FAKE,    MAC_TB_FALCON_RIDGE, 1, false },
	{ "MacBookPro11,3", MUX, MAC_GMUX_INDEXED, MAC_TB_FALCON_RIDGE, 1, false },
	{ "MacBookPro11,4", I,   MAC_GMUX_NONE,    MAC_TB_FALCON_RIDGE, 1, false },
	{ "MacBookPro11,5", MUX, MAC_GMUX_INDEXED, MAC_TB_FALCON_RIDGE, 1, false },
	{ "MacBookPro12,1", I,   MAC_GMUX_NONE,    MAC_TB_FALCON_RIDGE, 1, false },
	{ "MacBookPro13,1", I,   MAC_GMUX_NONE,    MAC_TB_ALPINE_RIDGE, 1, false },
	{ "MacBookPro13,3", MUX, MAC_GMUX_INDEXED, MAC_TB_ALPINE_RIDGE, 2, false },
	{ "MacBookPro14,1", I,   MAC_GMUX_NONE,    MAC_TB_ALPINE_RIDGE, 1, false },
	{ "MacBookPro14,3", MUX, MAC_GMUX_INDEXED, MAC_TB_ALPINE_RIDGE, 2, false },
	{ "MacBookPro15,1", MUX, MAC_GMUX_T2,      MAC_TB_TITAN_RIDGE, 2, true },
	{ "MacBookPro15,2", I,   MAC_GMUX_NONE,    MAC_TB_TITAN_RIDGE, 2, true },
	{ "MacBookPro15,3", MUX, MAC_GMUX_T2,      MAC_TB_TITAN_RIDGE, 2, true },
	{ "MacBookPro15,4", I,   MAC_GMUX_NONE,    MAC_TB_TITAN_RIDGE, 1, true },
	{ "MacBookPro16,1", MUX, MAC_GMUX_T2,      MAC_TB_TITAN_RIDGE, 2, true },
	{ "MacBookPro16,2", I,   MAC_GMUX_NONE,    MAC_TB_ICE_LAKE, 2, true },
	{ "MacBookPro16,3", I,   MAC_GMUX_NONE,    MAC_TB_TITAN_RIDGE, 1, true },
	{ "MacBookPro16,4", MUX, MAC_GMUX_T2,      MAC_TB_TITAN_RIDGE, 2, true },
	{ "MacBookAir1,1",  I,   MAC_GMUX_NONE,    MAC_TB_NONE, 0, false },
	{ "MacBookAir4,1",  I,   MAC_GMUX_NONE,    MAC_TB_EAGLE_RIDGE, 1, false },
	{ "MacBookAir4,2",  I,   MAC_GMUX_NONE,    MAC_TB_EAGLE_RIDGE, 1, false },
	{ "MacBookAir7,2",  I,   MAC_GMUX_NONE,    MAC_TB_FALCON_RIDGE, 1, false },
	{ "MacBookAir8,1",  I,   MAC_GMUX_NONE,    MAC_TB_TITAN_RIDGE, 1, true },
	{ "MacBookAir9,1",  I,   MAC_GMUX_NONE,    MAC_TB_ICE_LAKE, 1, true },
	{ "MacPro1,1",      D,   MAC_GMUX_NONE,    MAC_TB_NONE, 0, false },
	{ "MacPro6,1",      D,   MAC_GMUX_UNKNOWN, MAC_TB_FALCON_RIDGE, 3, false },
	{ "MacPro7,1",      D,   MAC_GMUX_NONE,    MAC_TB_TITAN_RIDGE, 2, true },
	{ "Macmini1,1",     I,   MAC_GMUX_NONE,    MAC_TB_NONE, 0, false },
	{ "Macmini5,1",     I,   MAC_GMUX_FAKE,    MAC_TB_LIGHT_RIDGE, 1, false },
	{ "Macmini5,2",     D,   MAC_GMUX_FAKE,    MAC_TB_LIGHT_RIDGE, 1, false },
	{ "Macmini5,3",     I,   MAC_GMUX_NONE,    MAC_TB_LIGHT_RIDGE, 1, false },
	{ "Macmini8,1",     I,   MAC_GMUX_NONE,    MAC_TB_TITAN_RIDGE, 2, true },
	{ "Xserve1,1",      D,   MAC_GMUX_NONE,    MAC_TB_NONE, 0, false },
	{ "iMac4,1",        D,   MAC_GMUX_NONE,    MAC_TB_NONE, 0, false },
	{ "iMac12,1",       D,   MAC_GMUX_NONE,    MAC_TB_LIGHT_RIDGE, 1, false },
	{ "iMac12,2",       D,   MAC_GMUX_NONE,    MAC_TB_LIGHT_RIDGE, 1, false },
	{ "iMac18,3",       D,   MAC_GMUX_NONE,    MAC_TB_ALPINE_RIDGE, 1, false },
	{ "iMac20,1",       D,   MAC_GMUX_FAKE,    MAC_TB_TITAN_RIDGE, 1, true },
	{ "iMac20,2",       D,   MAC_GMUX_FAKE,    MAC_TB_TITAN_RIDGE, 1, true },
	{ "iMacPro1,1",     D,   MAC_GMUX_FAKE,    MAC_TB_ALPINE_RIDGE, 2, true },
};
#undef MUX
#undef D
#undef I

static void test_lookup_expected_facts(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(expected); i++) {
		const struct mac_model_info *m = lookup_str(expected[i].model);

		if (!m)
			fail_msg("%s: not in the table", expected[i].model);
		if (m->gpus != expected[i].gpus)
			fail_msg("%s: gpus %s, expected %s", expected[i].model,
				 mac_gpus_name(m->gpus), mac_gpus_name(expected[i].gpus));
		if (m->gmux != expected[i].gmux)
			fail_msg("%s: gmux %s, expected %s", expected[i].model,
				 mac_gmux_kind_name(m->gmux),
				 mac_gmux_kind_name(expected[i].gmux));
		if (m->tb != expected[i].tb)
			fail_msg("%s: tb %s, expected %s", expected[i].model,
				 mac_tb_gen_name(m->tb), mac_tb_gen_name(expected[i].tb));
		if (m->tb_count != expected[i].tb_count)
			fail_msg("%s: tb_count %u, expected %u", expected[i].model,
				 m->tb_count, expected[i].tb_count);
		if (m->t2 != expected[i].t2)
			fail_msg("%s: t2 %d, expected %d", expected[i].model, m->t2,
				 expected[i].t2);
	}
}

/* The facts the quirk table rests on, one by one. */
static void test_lookup_issue_facts(void **state)
{
	static const char * const fake[] = { "MacBookPro8,1", "MacBookPro9,2",
					     "MacBookPro11,2", "Macmini5,2",
					     /* macsupport-report --firmware on their dumps */
					     "MacBookPro5,4", "MacBookPro10,2",
					     "Macmini5,1", "Macmini6,2" };
	const struct mac_model_info *m;
	size_t i;

	(void)state;
	/* APP000B declared, no gmux behind it: "fake", not "none". */
	for (i = 0; i < ARRAY_SIZE(fake); i++) {
		m = lookup_str(fake[i]);
		if (!m || m->gmux != MAC_GMUX_FAKE)
			fail_msg("%s: expected gmux fake", fake[i]);
		assert_false(m->gpus & MAC_GPU_MUXED);
	}

	/* The 12-inch MacBook: present, USB-C only. */
	m = lookup_str("MacBook8,1");
	assert_non_null(m);
	assert_int_equal(m->tb, MAC_TB_NONE);
	assert_int_equal(m->tb_count, 0);
	assert_int_equal(m->gmux, MAC_GMUX_NONE);
	assert_string_equal(m->desc, "MacBook (Retina, 12-inch, Early 2015)");

	/* Four ports, two controllers. */
	m = lookup_str("MacBookPro15,2");
	assert_non_null(m);
	assert_int_equal(m->tb, MAC_TB_TITAN_RIDGE);
	assert_int_equal(m->tb_count, 2);
	assert_true(m->t2);

	/* Two discrete GPUs and no iGPU: discrete only. */
	m = lookup_str("MacPro6,1");
	assert_non_null(m);
	assert_int_equal(m->gpus, MAC_GPU_DISCRETE);
	assert_int_equal(m->tb_count, 3);
}

/*
 * Every Intel Mac model identifier, 2006-2020, written out independently of
 * the table: each must be in it, and it must hold nothing else.
 */
static const char * const all_models[] = {
	"MacBook1,1", "MacBook2,1", "MacBook3,1", "MacBook4,1", "MacBook5,1",
	"MacBook5,2", "MacBook6,1", "MacBook7,1", "MacBook8,1", "MacBook9,1",
	"MacBook10,1",
	"MacBookAir1,1", "MacBookAir2,1", "MacBookAir3,1", "MacBookAir3,2",
	"MacBookAir4,1", "MacBookAir4,2", "MacBookAir5,1", "MacBookAir5,2",
	"MacBookAir6,1", "MacBookAir6,2", "MacBookAir7,1", "MacBookAir7,2",
	"MacBookAir8,1", "MacBookAir8,2", "MacBookAir9,1",
	"MacBookPro1,1", "MacBookPro1,2", "MacBookPro2,1", "MacBookPro2,2",
	"MacBookPro3,1", "MacBookPro4,1", "MacBookPro5,1", "MacBookPro5,2",
	"MacBookPro5,3", "MacBookPro5,4", "MacBookPro5,5", "MacBookPro6,1",
	"MacBookPro6,2", "MacBookPro7,1", "MacBookPro8,1", "MacBookPro8,2",
	"MacBookPro8,3", "MacBookPro9,1", "MacBookPro9,2", "MacBookPro10,1",
	"MacBookPro10,2", "MacBookPro11,1", "MacBookPro11,2", "MacBookPro11,3",
	"MacBookPro11,4", "MacBookPro11,5", "MacBookPro12,1", "MacBookPro13,1",
	"MacBookPro13,2", "MacBookPro13,3", "MacBookPro14,1", "MacBookPro14,2",
	"MacBookPro14,3", "MacBookPro15,1", "MacBookPro15,2", "MacBookPro15,3",
	"MacBookPro15,4", "MacBookPro16,1", "MacBookPro16,2", "MacBookPro16,3",
	"MacBookPro16,4",
	"MacPro1,1", "MacPro2,1", "MacPro3,1", "MacPro4,1", "MacPro5,1",
	"MacPro6,1", "MacPro7,1",
	"Macmini1,1", "Macmini2,1", "Macmini3,1", "Macmini4,1", "Macmini5,1",
	"Macmini5,2", "Macmini5,3", "Macmini6,1", "Macmini6,2", "Macmini7,1",
	"Macmini8,1",
	"Xserve1,1", "Xserve2,1", "Xserve3,1",
	"iMac4,1", "iMac4,2", "iMac5,1", "iMac5,2", "iMac6,1", "iMac7,1",
	"iMac8,1", "iMac9,1", "iMac10,1", "iMac11,1", "iMac11,2", "iMac11,3",
	"iMac12,1", "iMac12,2", "iMac13,1", "iMac13,2", "iMac13,3", "iMac14,1",
	"iMac14,2", "iMac14,3", "iMac14,4", "iMac15,1", "iMac16,1", "iMac16,2",
	"iMac17,1", "iMac18,1", "iMac18,2", "iMac18,3", "iMac19,1", "iMac19,2",
	"iMac20,1", "iMac20,2",
	"iMacPro1,1",
};

static void test_table_complete(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(all_models); i++)
		if (!lookup_str(all_models[i]))
			fail_msg("%s: not in the table", all_models[i]);
	/* With the table unique (self-check), equal sizes mean nothing else. */
	assert_int_equal(ARRAY_SIZE(mac_models), ARRAY_SIZE(all_models));
}

static int model_cmp(const struct mac_model_info *a, const struct mac_model_info *b)
{
	int c = strcmp(a->family, b->family);

	if (c)
		return c;
	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	return 0;
}

/* The rules of the table (DOC: Model table), one code per rule. */
enum table_rule {
	RULE_OK,
	RULE_FAMILY,		/* family not in the allowed list */
	RULE_DESC,		/* desc NULL or empty */
	RULE_ENUM,		/* gmux or tb outside its enum */
	RULE_GPUS,		/* no GPU, unknown bits, or MUXED without both GPUs */
	RULE_GMUX_MUXED,	/* real gmux kind exactly on MUXED models */
	RULE_TB_COUNT,		/* tb_count == 0 exactly when tb == MAC_TB_NONE */
	RULE_T2,		/* T2: gmux none/t2/fake; gmux t2 only with a T2 */
	RULE_ORDER,		/* sorted strictly: also catches duplicates */
};

static const char * const allowed_families[] = {
	"MacBook", "MacBookAir", "MacBookPro", "MacPro", "Macmini", "Xserve",
	"iMac", "iMacPro",
};

static bool real_gmux(enum mac_gmux_kind k)
{
	return k == MAC_GMUX_CLASSIC || k == MAC_GMUX_INDEXED || k == MAC_GMUX_T2;
}

/*
 * Check @n entries of table @t against every rule. Return the first broken
 * rule and its entry's index in *@at, or RULE_OK.
 */
static enum table_rule check_table(const struct mac_model_info *t, size_t n, size_t *at)
{
	const unsigned int both = MAC_GPU_INTEGRATED | MAC_GPU_DISCRETE;
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct mac_model_info *m = &t[i];
		bool known = false;

		*at = i;
		for (j = 0; m->family && j < ARRAY_SIZE(allowed_families); j++)
			known |= !strcmp(m->family, allowed_families[j]);
		if (!known)
			return RULE_FAMILY;
		if (!m->desc || !m->desc[0])
			return RULE_DESC;
		if (!strcmp(mac_gmux_kind_name(m->gmux), "invalid") ||
		    !strcmp(mac_tb_gen_name(m->tb), "invalid"))
			return RULE_ENUM;
		if (!(m->gpus & both) || (m->gpus & ~(unsigned int)MAC_GPU_ALL) ||
		    ((m->gpus & MAC_GPU_MUXED) && (m->gpus & both) != both))
			return RULE_GPUS;
		if (real_gmux(m->gmux) != !!(m->gpus & MAC_GPU_MUXED))
			return RULE_GMUX_MUXED;
		if ((m->tb == MAC_TB_NONE) != (m->tb_count == 0))
			return RULE_TB_COUNT;
		if (m->t2 ? (m->gmux != MAC_GMUX_NONE && m->gmux != MAC_GMUX_T2 &&
			     m->gmux != MAC_GMUX_FAKE) : m->gmux == MAC_GMUX_T2)
			return RULE_T2;
		if (i && model_cmp(&t[i - 1], m) >= 0)
			return RULE_ORDER;
	}
	return RULE_OK;
}

static void test_table_self_check(void **state)
{
	enum table_rule r;
	size_t i, at = 0;

	(void)state;
	assert_true(ARRAY_SIZE(mac_models) > 0);
	r = check_table(mac_models, ARRAY_SIZE(mac_models), &at);
	if (r != RULE_OK)
		fail_msg("table breaks rule %d at %s%u,%u (index %zu)", r,
			 mac_models[at].family, mac_models[at].major, mac_models[at].minor, at);

	for (i = 0; i < ARRAY_SIZE(mac_models); i++) {
		const struct mac_model_info *m = &mac_models[i];
		struct mac_model_id id;
		char s[64];

		assert_true(strlen(m->family) < MAC_MODEL_FAMILY_MAX);
		assert_string_not_equal(mac_gpus_name(m->gpus), "invalid");

		/* Round trip: format, parse, look up, get this very entry. */
		snprintf(s, sizeof(s), "%s%u,%u", m->family, m->major, m->minor);
		if (mac_model_parse(s, &id))
			fail_msg("table entry \"%s\" does not parse", s);
		if (mac_model_lookup(&id) != m)
			fail_msg("table entry \"%s\" does not look up to itself", s);

		/* Its neighbours that are not in the table are not found. */
		id.minor = m->minor + 100;
		assert_null(mac_model_lookup(&id));
	}
}

#define T(fam, maj, min, g, kind, gen, tbs, has_t2) \
	{ .family = (fam), .major = (maj), .minor = (min), .gpus = (g), \
	  .gmux = (kind), .tb = (gen), .tb_count = (tbs), .t2 = (has_t2), .desc = "x" }
#define I	MAC_GPU_INTEGRATED
#define D	MAC_GPU_DISCRETE
#define MUX	(MAC_GPU_INTEGRATED | MAC_GPU_DISCRETE | MAC_GPU_MUXED)

/* A good two-entry table; each bad one below breaks one rule in entry 1. */
static const struct mac_model_info good_table[] = {
	T("MacBookPro", 8, 2, MUX, MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1, false),
	T("MacBookPro", 15, 1, MUX, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 2, true),
};

static const struct {
	enum table_rule rule;
	struct mac_model_info t[2];
} bad_tables[] = {
	{ RULE_FAMILY, { good_table[0],
		T("MacBookPro ", 15, 1, MUX, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 2, true) } },
	{ RULE_FAMILY, { good_table[0],
		T("Mac", 15, 1, I, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 2, true) } },
	{ RULE_FAMILY, { good_table[0],
		T(NULL, 15, 1, I, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 2, true) } },
	{ RULE_DESC, { good_table[0],
		{ .family = "MacBookPro", .major = 15, .minor = 1, .gpus = I, .desc = "" } } },
	{ RULE_DESC, { good_table[0],
		{ .family = "MacBookPro", .major = 15, .minor = 1, .gpus = I } } },
	{ RULE_ENUM, { good_table[0],
		T("MacBookPro", 15, 1, I, (enum mac_gmux_kind)99, MAC_TB_NONE, 0, false) } },
	{ RULE_ENUM, { good_table[0],
		T("MacBookPro", 15, 1, I, MAC_GMUX_NONE, (enum mac_tb_gen)99, 1, false) } },
	{ RULE_GPUS, { good_table[0],
		T("MacBookPro", 15, 1, 0, MAC_GMUX_NONE, MAC_TB_NONE, 0, false) } },
	{ RULE_GPUS, { good_table[0],
		T("MacBookPro", 15, 1, I | 8, MAC_GMUX_NONE, MAC_TB_NONE, 0, false) } },
	{ RULE_GPUS, { good_table[0],
		T("MacBookPro", 15, 1, D | MAC_GPU_MUXED, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 2,
		  true) } },
	{ RULE_GMUX_MUXED, { good_table[0],
		T("MacBookPro", 15, 1, I, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 2, true) } },
	{ RULE_GMUX_MUXED, { good_table[0],
		T("MacBookPro", 15, 1, I | D, MAC_GMUX_INDEXED, MAC_TB_TITAN_RIDGE, 2, false) } },
	{ RULE_GMUX_MUXED, { good_table[0],
		T("MacBookPro", 15, 1, MUX, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 2, true) } },
	{ RULE_TB_COUNT, { good_table[0],
		T("MacBookPro", 15, 1, MUX, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 0, true) } },
	{ RULE_TB_COUNT, { good_table[0],
		T("MacBookPro", 15, 1, MUX, MAC_GMUX_T2, MAC_TB_NONE, 1, true) } },
	{ RULE_T2, { good_table[0],
		T("MacBookPro", 15, 1, MUX, MAC_GMUX_INDEXED, MAC_TB_TITAN_RIDGE, 2, true) } },
	{ RULE_T2, { good_table[0],
		T("MacBookPro", 15, 1, I, MAC_GMUX_UNKNOWN, MAC_TB_TITAN_RIDGE, 2, true) } },
	{ RULE_T2, { good_table[0],
		T("MacBookPro", 15, 1, MUX, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 2, false) } },
	{ RULE_ORDER, { good_table[0],		/* duplicate */
		T("MacBookPro", 8, 2, MUX, MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1, false) } },
	{ RULE_ORDER, { good_table[0],		/* minor */
		T("MacBookPro", 8, 1, I, MAC_GMUX_FAKE, MAC_TB_LIGHT_RIDGE, 1, false) } },
	{ RULE_ORDER, { good_table[0],		/* major */
		T("MacBookPro", 7, 9, I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false) } },
	{ RULE_ORDER, { good_table[0],		/* family: "MacBookAir" < "MacBookPro" */
		T("MacBookAir", 9, 1, I, MAC_GMUX_NONE, MAC_TB_ICE_LAKE, 1, true) } },
};

#undef MUX
#undef D
#undef I
#undef T

/* The checker is able to fail: each rule, broken on purpose. */
static void test_table_checker_catches(void **state)
{
	size_t i, at;

	(void)state;
	at = 99;
	assert_int_equal(check_table(good_table, ARRAY_SIZE(good_table), &at), RULE_OK);
	for (i = 0; i < ARRAY_SIZE(bad_tables); i++) {
		enum table_rule r = check_table(bad_tables[i].t, 2, &at);

		if (r != bad_tables[i].rule || at != 1)
			fail_msg("bad table %zu: rule %d at %zu, expected rule %d at 1", i, r,
				 at, bad_tables[i].rule);
	}
}

static void test_gpus_names(void **state)
{
	(void)state;
	assert_string_equal(mac_gpus_name(0), "none");
	assert_string_equal(mac_gpus_name(MAC_GPU_INTEGRATED), "integrated");
	assert_string_equal(mac_gpus_name(MAC_GPU_DISCRETE), "discrete");
	assert_string_equal(mac_gpus_name(MAC_GPU_INTEGRATED | MAC_GPU_DISCRETE),
			    "integrated+discrete");
	assert_string_equal(mac_gpus_name(MAC_GPU_ALL), "integrated+discrete, muxed");
	assert_string_equal(mac_gpus_name(MAC_GPU_MUXED), "invalid");
	assert_string_equal(mac_gpus_name(MAC_GPU_MUXED | MAC_GPU_INTEGRATED), "invalid");
	assert_string_equal(mac_gpus_name(MAC_GPU_MUXED | MAC_GPU_DISCRETE), "invalid");
	assert_string_equal(mac_gpus_name(MAC_GPU_ALL + 1), "invalid");
	assert_string_equal(mac_gpus_name(~0U), "invalid");
}

static void test_gmux_kind_names(void **state)
{
	(void)state;
	assert_string_equal(mac_gmux_kind_name(MAC_GMUX_NONE), "none");
	assert_string_equal(mac_gmux_kind_name(MAC_GMUX_CLASSIC), "classic");
	assert_string_equal(mac_gmux_kind_name(MAC_GMUX_INDEXED), "indexed");
	assert_string_equal(mac_gmux_kind_name(MAC_GMUX_T2), "t2");
	assert_string_equal(mac_gmux_kind_name(MAC_GMUX_FAKE), "fake");
	assert_string_equal(mac_gmux_kind_name(MAC_GMUX_UNKNOWN), "unknown");
	assert_string_equal(mac_gmux_kind_name((enum mac_gmux_kind)(MAC_GMUX_UNKNOWN + 1)),
			    "invalid");
	assert_string_equal(mac_gmux_kind_name((enum mac_gmux_kind)99), "invalid");
	assert_string_equal(mac_gmux_kind_name((enum mac_gmux_kind)-1), "invalid");
}

static void test_tb_gen_names(void **state)
{
	(void)state;
	assert_string_equal(mac_tb_gen_name(MAC_TB_NONE), "none");
	assert_string_equal(mac_tb_gen_name(MAC_TB_LIGHT_RIDGE), "Light Ridge");
	assert_string_equal(mac_tb_gen_name(MAC_TB_EAGLE_RIDGE), "Eagle Ridge");
	assert_string_equal(mac_tb_gen_name(MAC_TB_CACTUS_RIDGE), "Cactus Ridge");
	assert_string_equal(mac_tb_gen_name(MAC_TB_FALCON_RIDGE), "Falcon Ridge");
	assert_string_equal(mac_tb_gen_name(MAC_TB_ALPINE_RIDGE), "Alpine Ridge");
	assert_string_equal(mac_tb_gen_name(MAC_TB_TITAN_RIDGE), "Titan Ridge");
	assert_string_equal(mac_tb_gen_name(MAC_TB_ICE_LAKE), "Ice Lake");
	assert_string_equal(mac_tb_gen_name((enum mac_tb_gen)(MAC_TB_ICE_LAKE + 1)),
			    "invalid");
	assert_string_equal(mac_tb_gen_name((enum mac_tb_gen)99), "invalid");
	assert_string_equal(mac_tb_gen_name((enum mac_tb_gen)-1), "invalid");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_macbookpro10_1),
		cmocka_unit_test(test_parse_other_families),
		cmocka_unit_test(test_parse_leading_zeros),
		cmocka_unit_test(test_parse_rejects_malformed),
		cmocka_unit_test(test_parse_family_length),
		cmocka_unit_test(test_parse_null),
		cmocka_unit_test(test_parse_failure_leaves_id),
		cmocka_unit_test(test_lookup_known),
		cmocka_unit_test(test_lookup_unknown),
		cmocka_unit_test(test_lookup_expected_facts),
		cmocka_unit_test(test_lookup_issue_facts),
		cmocka_unit_test(test_table_complete),
		cmocka_unit_test(test_table_self_check),
		cmocka_unit_test(test_table_checker_catches),
		cmocka_unit_test(test_gpus_names),
		cmocka_unit_test(test_gmux_kind_names),
		cmocka_unit_test(test_tb_gen_names),
	};

	return cmocka_run_group_tests_name("mac_model", tests, NULL, NULL);
}
