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
	assert_string_equal(m->desc, "MacBook Pro (Retina, 15-inch, Mid 2012)");

	m = lookup_str("MacBookPro8,1");
	assert_non_null(m);
	assert_int_equal(m->gmux, MAC_GMUX_FAKE);
	assert_int_equal(m->tb, MAC_TB_LIGHT_RIDGE);

	m = lookup_str("MacBookPro8,2");
	assert_non_null(m);
	assert_int_equal(m->gmux, MAC_GMUX_CLASSIC);
	assert_string_equal(m->desc, "MacBook Pro (15-inch, Early 2011)");

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
	assert_null(lookup_str("MacBookPro7,1"));
	assert_null(lookup_str("MacBookPro10,3"));
	assert_null(lookup_str("MacBookPro1,10"));
	assert_null(lookup_str("MacBook10,1"));		/* prefix of a family */
	assert_null(lookup_str("MacBookProX10,1"));	/* family + suffix */
	assert_null(lookup_str("macbookpro10,1"));	/* case-sensitive */
	assert_null(mac_model_lookup(NULL));

	/* A hand-filled id without a NUL in family must not be over-read. */
	memset(id.family, 'M', sizeof(id.family));
	id.major = 10;
	id.minor = 1;
	assert_null(mac_model_lookup(&id));
}

/*
 * The facts each model must carry, written out independently of the table
 * (gmux.md section 2, thunderbolt.md section 8).
 */
static const struct {
	const char *model;
	enum mac_gmux_kind gmux;
	enum mac_tb_gen tb;
	unsigned int tb_count;
} expected[] = {
	{ "MacBookPro5,1",  MAC_GMUX_CLASSIC, MAC_TB_NONE, 0 },
	{ "MacBookPro5,2",  MAC_GMUX_CLASSIC, MAC_TB_NONE, 0 },
	{ "MacBookPro5,3",  MAC_GMUX_CLASSIC, MAC_TB_NONE, 0 },
	{ "MacBookPro5,4",  MAC_GMUX_NONE,    MAC_TB_NONE, 0 },
	{ "MacBookPro5,5",  MAC_GMUX_NONE,    MAC_TB_NONE, 0 },
	{ "MacBookPro6,1",  MAC_GMUX_CLASSIC, MAC_TB_NONE, 0 },
	{ "MacBookPro6,2",  MAC_GMUX_CLASSIC, MAC_TB_NONE, 0 },
	{ "MacBookPro8,1",  MAC_GMUX_FAKE,    MAC_TB_LIGHT_RIDGE, 1 },
	{ "MacBookPro8,2",  MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1 },
	{ "MacBookPro8,3",  MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1 },
	{ "MacBookPro9,1",  MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1 },
	{ "MacBookPro9,2",  MAC_GMUX_NONE,    MAC_TB_LIGHT_RIDGE, 1 },
	{ "MacBookPro10,1", MAC_GMUX_INDEXED, MAC_TB_CACTUS_RIDGE, 1 },
	{ "MacBookPro10,2", MAC_GMUX_NONE,    MAC_TB_CACTUS_RIDGE, 1 },
	{ "MacBookPro11,1", MAC_GMUX_NONE,    MAC_TB_FALCON_RIDGE, 1 },
	{ "MacBookPro11,2", MAC_GMUX_NONE,    MAC_TB_FALCON_RIDGE, 1 },
	{ "MacBookPro11,3", MAC_GMUX_INDEXED, MAC_TB_FALCON_RIDGE, 1 },
	{ "MacBookPro11,4", MAC_GMUX_NONE,    MAC_TB_FALCON_RIDGE, 1 },
	{ "MacBookPro11,5", MAC_GMUX_INDEXED, MAC_TB_FALCON_RIDGE, 1 },
	{ "MacBookPro12,1", MAC_GMUX_NONE,    MAC_TB_FALCON_RIDGE, 1 },
	{ "MacBookPro13,1", MAC_GMUX_NONE,    MAC_TB_ALPINE_RIDGE, 1 },
	{ "MacBookPro13,2", MAC_GMUX_NONE,    MAC_TB_ALPINE_RIDGE, 1 },
	{ "MacBookPro13,3", MAC_GMUX_INDEXED, MAC_TB_ALPINE_RIDGE, 1 },
	{ "MacBookPro14,1", MAC_GMUX_NONE,    MAC_TB_ALPINE_RIDGE, 1 },
	{ "MacBookPro14,2", MAC_GMUX_NONE,    MAC_TB_ALPINE_RIDGE, 1 },
	{ "MacBookPro14,3", MAC_GMUX_INDEXED, MAC_TB_ALPINE_RIDGE, 1 },
	{ "MacBookPro15,1", MAC_GMUX_T2,      MAC_TB_TITAN_RIDGE, 1 },
	{ "MacBookPro15,2", MAC_GMUX_NONE,    MAC_TB_TITAN_RIDGE, 1 },
	{ "MacBookPro15,3", MAC_GMUX_T2,      MAC_TB_TITAN_RIDGE, 1 },
	{ "MacBookPro15,4", MAC_GMUX_NONE,    MAC_TB_TITAN_RIDGE, 1 },
	{ "MacBookPro16,1", MAC_GMUX_T2,      MAC_TB_TITAN_RIDGE, 1 },
	{ "MacBookPro16,2", MAC_GMUX_NONE,    MAC_TB_ICE_LAKE, 1 },
	{ "MacBookPro16,3", MAC_GMUX_NONE,    MAC_TB_TITAN_RIDGE, 1 },
	{ "MacBookPro16,4", MAC_GMUX_T2,      MAC_TB_TITAN_RIDGE, 1 },
	{ "MacBookAir4,1",  MAC_GMUX_NONE,    MAC_TB_EAGLE_RIDGE, 1 },
	{ "MacBookAir4,2",  MAC_GMUX_NONE,    MAC_TB_EAGLE_RIDGE, 1 },
	{ "MacPro6,1",      MAC_GMUX_UNKNOWN, MAC_TB_FALCON_RIDGE, 3 },
	{ "iMacPro1,1",     MAC_GMUX_FAKE,    MAC_TB_TITAN_RIDGE, 1 },
	{ "iMac12,1",       MAC_GMUX_NONE,    MAC_TB_LIGHT_RIDGE, 1 },
	{ "iMac12,2",       MAC_GMUX_NONE,    MAC_TB_LIGHT_RIDGE, 1 },
	{ "iMac20,1",       MAC_GMUX_FAKE,    MAC_TB_TITAN_RIDGE, 1 },
	{ "iMac20,2",       MAC_GMUX_FAKE,    MAC_TB_TITAN_RIDGE, 1 },
	{ "Macmini5,1",     MAC_GMUX_NONE,    MAC_TB_LIGHT_RIDGE, 1 },
	{ "Macmini5,2",     MAC_GMUX_NONE,    MAC_TB_LIGHT_RIDGE, 1 },
	{ "Macmini5,3",     MAC_GMUX_NONE,    MAC_TB_LIGHT_RIDGE, 1 },
};

static void test_lookup_expected_facts(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(expected); i++) {
		const struct mac_model_info *m = lookup_str(expected[i].model);

		if (!m)
			fail_msg("%s: not in the table", expected[i].model);
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
	}
	/* Nothing in the table that this list does not pin down. */
	assert_int_equal(ARRAY_SIZE(mac_models), ARRAY_SIZE(expected));
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

static void test_table_self_check(void **state)
{
	size_t i, j;

	(void)state;
	assert_true(ARRAY_SIZE(mac_models) > 0);
	for (i = 0; i < ARRAY_SIZE(mac_models); i++) {
		const struct mac_model_info *m = &mac_models[i];
		struct mac_model_id id;
		char s[64];

		assert_non_null(m->family);
		assert_non_null(m->desc);
		assert_true(m->desc[0] != '\0');
		assert_true(strlen(m->family) < MAC_MODEL_FAMILY_MAX);
		assert_string_not_equal(mac_gmux_kind_name(m->gmux), "invalid");
		assert_string_not_equal(mac_tb_gen_name(m->tb), "invalid");
		if ((m->tb == MAC_TB_NONE) != (m->tb_count == 0))
			fail_msg("%s%u,%u: tb %s with tb_count %u", m->family, m->major,
				 m->minor, mac_tb_gen_name(m->tb), m->tb_count);

		/* Round trip: format, parse, look up, get this very entry. */
		snprintf(s, sizeof(s), "%s%u,%u", m->family, m->major, m->minor);
		if (mac_model_parse(s, &id))
			fail_msg("table entry \"%s\" does not parse", s);
		if (mac_model_lookup(&id) != m)
			fail_msg("table entry \"%s\" does not look up to itself", s);

		/* Unique, and sorted strictly ascending. */
		for (j = i + 1; j < ARRAY_SIZE(mac_models); j++)
			if (!model_cmp(m, &mac_models[j]))
				fail_msg("duplicate entry \"%s\" at %zu and %zu", s, i, j);
		if (i && model_cmp(&mac_models[i - 1], m) >= 0)
			fail_msg("table not sorted at \"%s\" (index %zu)", s, i);
	}
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
		cmocka_unit_test(test_table_self_check),
		cmocka_unit_test(test_gmux_kind_names),
		cmocka_unit_test(test_tb_gen_names),
	};

	return cmocka_run_group_tests_name("mac_model", tests, NULL, NULL);
}
