// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for src/lib/aml_gpe.c (cmocka): the walk that finds the
 * GPE a root port's scope declares, on AML assembled here in the shapes of
 * Apple's Thunderbolt 3 tables (checked against the real tables with
 * "make -C src/lib/tests tb3-tables MAC_DUMPS=DIR"), and on broken AML.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "macsupport/aml_gpe.h"

/* --- a small AML assembler ------------------------------------------------ */

struct aml_buf {
	u8 b[4096];
	size_t len;
};

static void put(struct aml_buf *a, const void *p, size_t n)
{
	assert_true(a->len + n <= sizeof(a->b));
	memcpy(a->b + a->len, p, n);
	a->len += n;
}

static void put1(struct aml_buf *a, u8 v)
{
	put(a, &v, 1);
}

/* An object with a PkgLength: @op (1 or 2 bytes), PkgLength, @body. */
static void put_pkg(struct aml_buf *a, const u8 *op, size_t oplen, const struct aml_buf *body)
{
	size_t len = body->len + 2;	/* a 2-byte PkgLength covers up to 4095 */

	put(a, op, oplen);
	put1(a, 0x40 | (len & 0x0f));
	put1(a, len >> 4);
	put(a, body->b, body->len);
}

/* A NameString from "\_SB_.PCI0.RP05" or "_GPE" or "^FOO" (4-char segments). */
static void put_name(struct aml_buf *a, const char *s)
{
	unsigned int segs = 0;
	const char *t;

	while (*s == '\\' || *s == '^')
		put1(a, (u8)*s++);
	for (t = s; *t; t += (t[4] == '.') ? 5 : 4)
		segs++;
	if (segs == 2)
		put1(a, 0x2e);
	else if (segs > 2) {
		put1(a, 0x2f);
		put1(a, (u8)segs);
	}
	while (*s) {
		put(a, s, 4);
		s += 4;
		if (*s == '.')
			s++;
	}
}

static void put_scope(struct aml_buf *a, const char *name, const struct aml_buf *body)
{
	struct aml_buf in = { .len = 0 };
	const u8 op = 0x10;

	put_name(&in, name);
	put(&in, body->b, body->len);
	put_pkg(a, &op, 1, &in);
}

static void put_device(struct aml_buf *a, const char *name, const struct aml_buf *body)
{
	struct aml_buf in = { .len = 0 };
	const u8 op[2] = { 0x5b, 0x82 };

	put_name(&in, name);
	put(&in, body->b, body->len);
	put_pkg(a, op, 2, &in);
}

/* Method (NAME, 0) { Notify (\_SB.PCI0, Zero) } */
static void put_method(struct aml_buf *a, const char *name)
{
	static const u8 notify[] = { 0x86, 0x5c, 0x2e, '_', 'S', 'B', '_', 'P', 'C', 'I', '0', 0x00 };
	struct aml_buf in = { .len = 0 };
	const u8 op = 0x14;

	put_name(&in, name);
	put1(&in, 0x00);	/* MethodFlags */
	put(&in, notify, sizeof(notify));
	put_pkg(a, &op, 1, &in);
}

/* \_SB_.<name> (pad[, arg]) as AML: the call, a DWord pad, a second argument. */
static void put_pad_call(struct aml_buf *a, const char *name, u32 pad, int arg)
{
	static const u8 sb[] = { 0x5c, 0x2e, '_', 'S', 'B', '_' };
	const u8 dw[5] = { 0x0c, pad & 0xff, (pad >> 8) & 0xff, (pad >> 16) & 0xff, pad >> 24 };

	put(a, sb, sizeof(sb));
	put(a, name, 4);
	put(a, dw, sizeof(dw));
	if (arg >= 0)
		put1(a, (u8)arg);	/* Zero or One */
}

/*
 * Method (NAME, 0) { If (OSDW ()) { If (\_SB.GGII (@get) == One)
 * { \_SB.SGII (@set0, Zero) } Else { \_SB.SGII (@set1, One) } } }, as
 * Apple's Alpine Ridge plug GPE; a pad of 0 leaves that call out.
 */
static void put_pad_method(struct aml_buf *a, const char *name, u32 get, u32 set0, u32 set1)
{
	struct aml_buf in = { .len = 0 }, osdw = { .len = 0 }, yes = { .len = 0 };
	struct aml_buf no = { .len = 0 };
	const u8 method = 0x14, if_op = 0xa0, else_op = 0xa1;

	put1(&yes, 0x93);	/* LEqual */
	if (get)
		put_pad_call(&yes, "GGII", get, -1);
	else
		put(&yes, "ZRXI", 4);
	put1(&yes, 0x01);
	if (set0)
		put_pad_call(&yes, "SGII", set0, 0);
	if (set1)
		put_pad_call(&no, "SGII", set1, 1);
	put(&osdw, "OSDW", 4);
	put_pkg(&osdw, &if_op, 1, &yes);
	put_pkg(&osdw, &else_op, 1, &no);
	put_name(&in, name);
	put1(&in, 0x00);	/* MethodFlags */
	put_pkg(&in, &if_op, 1, &osdw);
	put_pkg(a, &method, 1, &in);
}

/* What sits around the GPE scope in the real tables. */
static void put_clutter(struct aml_buf *a)
{
	/* Name (TBTF, One), Name (VSTR, "x"), Name (PKG0, Package () { 0x12 }) */
	static const u8 names[] = {
		0x08, 'T', 'B', 'T', 'F', 0x01,
		0x08, 'V', 'S', 'T', 'R', 0x0d, 'x', 0x00,
		0x08, 'P', 'K', 'G', '0', 0x12, 0x04, 0x01, 0x0a, 0x12,
	};
	/* OperationRegion (A1E0, PCI_Config, Zero, 0x40) */
	static const u8 region[] = { 0x5b, 0x80, 'A', '1', 'E', '0', 0x02, 0x00, 0x0a, 0x40 };
	/* OperationRegion (ITXX, SystemMemory, ((BAU1 & 0xFFF00000) - 0x00200000), 0x54) */
	static const u8 region2[] = {
		0x5b, 0x80, 'I', 'T', 'X', 'X', 0x00,
		0x74, 0x7b, 'B', 'A', 'U', '1', 0x0c, 0x00, 0x00, 0xf0, 0xff, 0x00,
		0x0c, 0x00, 0x00, 0x20, 0x00, 0x00, 0x0a, 0x54,
	};
	/* Field (A1E0, ByteAcc, NoLock, Preserve) { AVND, 32 } */
	static const u8 field[] = { 0x5b, 0x81, 0x0b, 'A', '1', 'E', '0', 0x01,
				    'A', 'V', 'N', 'D', 0x20 };
	/* Mutex (TBMX, 0), External (\OSDW, MethodObj, 0) */
	static const u8 misc[] = { 0x5b, 0x01, 'T', 'B', 'M', 'X', 0x00,
				   0x15, 0x5c, 'O', 'S', 'D', 'W', 0x08, 0x00 };

	put(a, names, sizeof(names));
	put(a, region, sizeof(region));
	put(a, region2, sizeof(region2));
	put(a, field, sizeof(field));
	put(a, misc, sizeof(misc));
}

/*
 * Scope (\_SB.PCI0.<rp>) { clutter; Method (PCDA); Scope (\_GPE) { Method
 * (<gpe>) }; Device (UPSB) { Scope (\_GPE) { Method (_L27) } } }
 */
static void put_tb3_table(struct aml_buf *a, const char *rp, const char *gpe)
{
	struct aml_buf rps = { .len = 0 }, g = { .len = 0 }, upsb = { .len = 0 };
	struct aml_buf dp = { .len = 0 }, dpg = { .len = 0 };
	char path[32];

	put_clutter(a);
	put_clutter(&rps);
	put_method(&rps, "PCDA");
	put_method(&g, gpe);
	put_scope(&rps, "\\_GPE", &g);
	put_method(&dpg, "_L27");
	put_scope(&dp, "\\_GPE", &dpg);
	put_device(&upsb, "UPSB", &dp);
	put_device(&rps, "UPSB", &upsb);
	snprintf(path, sizeof(path), "\\_SB_.PCI0.%s", rp);
	put_scope(a, path, &rps);
}

static int find(const struct aml_buf *a, const char *path, struct aml_gpe_method *m,
		unsigned int max)
{
	return aml_find_scope_gpe(a->b, a->len, path, m, max);
}

/* --- tests ----------------------------------------------------------------- */

static void test_level_gpe_of_pch_port(void **state)
{
	struct aml_buf a = { .len = 0 };
	struct aml_gpe_method m[4];
	(void)state;

	put_tb3_table(&a, "RP05", "_L32");
	assert_int_equal(find(&a, "\\_SB_.PCI0.RP05", m, 4), 1);
	assert_int_equal(m[0].gpe, 0x32);
	assert_true(m[0].level);
	/* the acpi_get_name() form and a short segment name the same port */
	assert_int_equal(find(&a, "\\_SB.PCI0.RP05", m, 4), 1);
}

static void test_edge_gpe_of_peg_ports(void **state)
{
	struct aml_buf a = { .len = 0 };
	struct aml_gpe_method m[4];
	(void)state;

	put_tb3_table(&a, "PEG1", "_E4C");
	put_tb3_table(&a, "PEG2", "_E4B");
	assert_int_equal(find(&a, "\\_SB_.PCI0.PEG1", m, 4), 1);
	assert_int_equal(m[0].gpe, 0x4c);
	assert_false(m[0].level);
	assert_int_equal(find(&a, "\\_SB_.PCI0.PEG2", m, 4), 1);
	assert_int_equal(m[0].gpe, 0x4b);
}

/* The DisplayPort GPE inside UPSB (Macmini8,1) is not the port's. */
static void test_nested_gpe_scope_not_taken(void **state)
{
	struct aml_buf a = { .len = 0 }, rps = { .len = 0 }, upsb = { .len = 0 };
	struct aml_buf g = { .len = 0 };
	struct aml_gpe_method m[4];
	(void)state;

	put_method(&g, "_L28");
	put_scope(&upsb, "\\_GPE", &g);
	put_device(&rps, "UPSB", &upsb);
	put_scope(&a, "\\_SB_.PCI0.PEG1", &rps);
	assert_int_equal(find(&a, "\\_SB_.PCI0.PEG1", m, 4), 0);
	assert_int_equal(find(&a, "\\_SB_.PCI0.PEG1.UPSB", m, 4), 1);
	assert_int_equal(m[0].gpe, 0x28);
	/* another port, the parent, a child: nothing */
	assert_int_equal(find(&a, "\\_SB_.PCI0.PEG2", m, 4), 0);
	assert_int_equal(find(&a, "\\_SB_.PCI0", m, 4), 0);
}

/* Scope (\_SB) { Scope (PCI0.RP09) { Scope (\_GPE) ... } }: relative names. */
static void test_relative_scope_names(void **state)
{
	struct aml_buf a = { .len = 0 }, sb = { .len = 0 }, rps = { .len = 0 };
	struct aml_buf g = { .len = 0 }, up = { .len = 0 }, ug = { .len = 0 };
	struct aml_gpe_method m[4];
	(void)state;

	put_method(&g, "_L09");
	put_scope(&rps, "\\_GPE", &g);
	/* Scope (^RP09) from inside RP10 names RP09 too */
	put_method(&ug, "_L0A");
	put_scope(&up, "\\_GPE", &ug);
	put_scope(&rps, "^RP10", &up);
	put_scope(&sb, "PCI0.RP09", &rps);
	put_scope(&a, "\\_SB_", &sb);
	assert_int_equal(find(&a, "\\_SB_.PCI0.RP09", m, 4), 1);
	assert_int_equal(m[0].gpe, 0x09);
	assert_int_equal(find(&a, "\\_SB_.PCI0.RP10", m, 4), 1);
	assert_int_equal(m[0].gpe, 0x0a);
}

/* Two GPE methods: both counted, only @max stored. */
static void test_count_and_room(void **state)
{
	struct aml_buf a = { .len = 0 }, rps = { .len = 0 }, g = { .len = 0 };
	struct aml_gpe_method m[1];
	(void)state;

	put_method(&g, "_E2A");
	put_method(&g, "_PS0");	/* not a GPE method */
	put_method(&g, "_E2B");
	put_scope(&rps, "\\_GPE", &g);
	put_scope(&a, "\\_SB_.PC04.MCP0.US00.DS18", &rps);
	assert_int_equal(find(&a, "\\_SB_.PC04.MCP0.US00.DS18", m, 1), 2);
	assert_int_equal(m[0].gpe, 0x2a);
	assert_int_equal(aml_find_scope_gpe(a.b, a.len, "\\_SB_.PC04.MCP0.US00.DS18", NULL, 0),
			 2);
}

/* Scope (\_SB.PCI0.RP05) { Scope (\_GPE) { <an _L32 flipping pads> } } */
static int find_pad(u32 get, u32 set0, u32 set1, struct aml_gpe_method *m)
{
	struct aml_buf a = { .len = 0 }, rps = { .len = 0 }, g = { .len = 0 };

	put_pad_method(&g, "_L32", get, set0, set1);
	put_scope(&rps, "\\_GPE", &g);
	put_clutter(&rps);
	put_scope(&a, "\\_SB_.PCI0.RP05", &rps);
	return find(&a, "\\_SB_.PCI0.RP05", m, 4);
}

/* The pad Alpine Ridge's GPE method flips: read and written, one pad. */
static void test_plug_pad(void **state)
{
	struct aml_gpe_method m[4];
	(void)state;

	assert_int_equal(find_pad(0x02020012, 0x02020012, 0x02020012, m), 1);
	assert_int_equal(m[0].gpe, 0x32);
	assert_int_equal(m[0].pad, 0x02020012);
	/* another pad written than read, or one of them a second pad: none */
	assert_int_equal(find_pad(0x02020012, 0x02020013, 0x02020012, m), 1);
	assert_int_equal(m[0].pad, 0);
	assert_int_equal(find_pad(0x02020012, 0x02020012, 0x02020013, m), 1);
	assert_int_equal(m[0].pad, 0);
	/* read but never written, or written but read from elsewhere: none */
	assert_int_equal(find_pad(0x01070015, 0, 0, m), 1);
	assert_int_equal(m[0].pad, 0);
	assert_int_equal(find_pad(0, 0x01070015, 0x01070015, m), 1);
	assert_int_equal(m[0].pad, 0);
	/* one write is enough beside the read */
	assert_int_equal(find_pad(0x01070015, 0x01070015, 0, m), 1);
	assert_int_equal(m[0].pad, 0x01070015);
}

/* Titan Ridge's edge GPE notifies the NHI and flips no pad. */
static void test_no_pad_in_notify(void **state)
{
	struct aml_buf a = { .len = 0 };
	struct aml_gpe_method m[4];
	(void)state;

	put_tb3_table(&a, "PEG1", "_E4B");
	assert_int_equal(find(&a, "\\_SB_.PCI0.PEG1", m, 4), 1);
	assert_int_equal(m[0].pad, 0);
}

/* Module-level code it cannot read is stepped over, within If blocks. */
static void test_if_blocks(void **state)
{
	struct aml_buf a = { .len = 0 }, body = { .len = 0 }, rps = { .len = 0 };
	struct aml_buf g = { .len = 0 }, bad = { .len = 0 };
	struct aml_gpe_method m[4];
	const u8 if_op = 0xa0;
	(void)state;

	/* If (LEqual (OSDW, One)) { Scope (\_SB.PCI0.RP05) { ... } } */
	put_method(&g, "_L32");
	put_scope(&rps, "\\_GPE", &g);
	put(&body, (const u8[]){ 0x93, 'O', 'S', 'D', 'W', 0x01 }, 6);
	put_scope(&body, "\\_SB_.PCI0.RP05", &rps);
	put_pkg(&a, &if_op, 1, &body);
	/* If (One) { <a Store statement it does not read> } */
	put1(&bad, 0x01);
	put(&bad, (const u8[]){ 0x70, 0x01, 0x60 }, 3);
	put_pkg(&a, &if_op, 1, &bad);
	assert_int_equal(find(&a, "\\_SB_.PCI0.RP05", m, 4), 1);
	assert_int_equal(m[0].gpe, 0x32);
}

static void test_unknown_opcode_fails(void **state)
{
	struct aml_buf a = { .len = 0 }, rps = { .len = 0 }, g = { .len = 0 };
	struct aml_gpe_method m[4];
	(void)state;

	put_method(&g, "_L32");
	put_scope(&rps, "\\_GPE", &g);
	put_scope(&a, "\\_SB_.PCI0.RP05", &rps);
	put(&a, (const u8[]){ 0x70, 0x01, 0x60 }, 3);	/* Store (One, Local0) */
	assert_int_equal(find(&a, "\\_SB_.PCI0.RP05", m, 4), -EINVAL);
}

static void count_objs(void *ctx, const struct aml_obj *obj)
{
	(void)obj;
	(*(unsigned int *)ctx)++;
}

/*
 * A bad name in a Device's, a Scope's or a Method's header: the walk
 * fails at the name's byte, not at the end of the object (where the walk
 * has moved on to when it reads the name).
 */
static void test_bad_name_offset(void **state)
{
	static const char * const kind[] = { "Device", "Scope", "Method" };
	struct aml_buf a, sb, body;
	unsigned int n, k;
	size_t err, at;
	(void)state;

	for (k = 0; k < ARRAY_SIZE(kind); k++) {
		a.len = sb.len = body.len = 0;
		put_method(&body, "_STA");
		put_device(&sb, "GOOD", &body);
		/*
		 * Scope (\_SB_): opcode, 2-byte PkgLength, 5-byte name; then in
		 * it the bad object's opcode (2 bytes for a Device) and PkgLength
		 */
		at = 1 + 2 + 5 + sb.len + (k == 0 ? 2 : 1) + 2;
		if (k == 0)
			put_device(&sb, "1BAD", &body);	/* a digit cannot lead a name */
		else if (k == 1)
			put_scope(&sb, "1BAD", &body);
		else
			put_method(&sb, "1BAD");
		put_scope(&a, "\\_SB_", &sb);
		assert_int_equal(a.b[at], '1');
		n = 0;
		err = 0;
		assert_int_equal(aml_walk_objects(a.b, a.len, count_objs, &n, &err), -EINVAL);
		if (err != at)
			print_message("%s: the walk stopped at %zu, the name is at %zu\n", kind[k],
				      err, at);
		assert_int_equal(err, at);
		assert_true(n >= 3);	/* the scope, GOOD and its _STA seen */
	}
}

static void test_bad_paths(void **state)
{
	struct aml_buf a = { .len = 0 };
	struct aml_gpe_method m[4];
	(void)state;

	put_tb3_table(&a, "RP05", "_L32");
	assert_int_equal(find(&a, "_SB_.PCI0.RP05", m, 4), -EINVAL);
	assert_int_equal(find(&a, "\\", m, 4), -EINVAL);
	assert_int_equal(find(&a, "\\_SB_..RP05", m, 4), -EINVAL);
	assert_int_equal(find(&a, "\\_SB_.PCI00.RP05", m, 4), -EINVAL);
	assert_int_equal(aml_find_scope_gpe(NULL, 0, "\\_SB_", m, 4), -EINVAL);
}

/* @a's definition block behind an SSDT header whose Length says @length. */
static void put_table(u8 *t, const struct aml_buf *a, u32 length)
{
	memset(t, 0, AML_TABLE_HEADER_LEN);
	memcpy(t, "SSDT", 4);
	t[4] = length & 0xff;
	t[5] = (length >> 8) & 0xff;
	t[6] = (length >> 16) & 0xff;
	t[7] = (length >> 24) & 0xff;
	memcpy(t + 10, "APPLE ", 6);
	memcpy(t + AML_TABLE_HEADER_LEN, a->b, a->len);
}

/*
 * Whole tables: a header-only SSDT (Apple's "SmcDppt", 36 bytes) declares
 * nothing and is no error; a Length shorter than the header or longer than
 * the bytes at hand is.
 */
static void test_whole_tables(void **state)
{
	struct aml_buf a = { .len = 0 }, empty = { .len = 0 };
	struct aml_gpe_method m[4];
	u8 t[AML_TABLE_HEADER_LEN + sizeof(a.b)];
	size_t n;
	(void)state;

	put_table(t, &empty, AML_TABLE_HEADER_LEN);
	assert_int_equal(aml_table_scope_gpe(t, AML_TABLE_HEADER_LEN, "\\_SB_.PCI0.RP05", m, 4), 0);

	put_tb3_table(&a, "RP05", "_L32");
	n = AML_TABLE_HEADER_LEN + a.len;
	put_table(t, &a, n);
	assert_int_equal(aml_table_scope_gpe(t, n, "\\_SB_.PCI0.RP05", m, 4), 1);
	assert_int_equal(m[0].gpe, 0x32);
	/* the walk ends at the table's own Length, not at the buffer's */
	assert_int_equal(aml_table_scope_gpe(t, sizeof(t), "\\_SB_.PCI0.RP05", m, 4), 1);

	assert_int_equal(aml_table_scope_gpe(t, n - 1, "\\_SB_.PCI0.RP05", m, 4), -EINVAL);
	assert_int_equal(aml_table_scope_gpe(t, AML_TABLE_HEADER_LEN - 1, "\\_SB_.PCI0.RP05", m, 4),
			 -EINVAL);
	put_table(t, &a, AML_TABLE_HEADER_LEN - 1);
	assert_int_equal(aml_table_scope_gpe(t, n, "\\_SB_.PCI0.RP05", m, 4), -EINVAL);
	assert_int_equal(aml_table_scope_gpe(NULL, n, "\\_SB_.PCI0.RP05", m, 4), -EINVAL);
}

/* Every truncation of a table: an answer, never a read past the end. */
static void test_truncated(void **state)
{
	struct aml_buf a = { .len = 0 };
	struct aml_gpe_method m[4];
	u8 copy[4096];
	size_t n;
	int r;
	(void)state;

	put_tb3_table(&a, "RP05", "_L32");
	for (n = 0; n < a.len; n++) {
		/* an exact-size copy, so that a read past it is one past the heap object */
		u8 *t = test_malloc(n ? n : 1);

		memcpy(t, a.b, n);
		r = aml_find_scope_gpe(t, n, "\\_SB_.PCI0.RP05", m, 4);
		assert_true(r == -EINVAL || r == 0);
		test_free(t);
	}
	memcpy(copy, a.b, a.len);
	assert_int_equal(aml_find_scope_gpe(copy, a.len, "\\_SB_.PCI0.RP05", m, 4), 1);
}

/* Lengths that point past their object, and bytes flipped at random. */
static void test_corrupt(void **state)
{
	struct aml_buf a = { .len = 0 };
	struct aml_gpe_method m[4];
	unsigned int seed = 1, i;
	u8 t[4096];
	(void)state;

	put_tb3_table(&a, "RP05", "_L32");
	memcpy(t, a.b, a.len);
	t[a.len - 40] = 0x7f;	/* somewhere a PkgLength may be */
	(void)aml_find_scope_gpe(t, a.len, "\\_SB_.PCI0.RP05", m, 4);
	for (i = 0; i < 20000; i++) {
		memcpy(t, a.b, a.len);
		seed = seed * 1103515245 + 12345;
		t[(seed >> 8) % a.len] = (u8)(seed >> 20);
		seed = seed * 1103515245 + 12345;
		t[(seed >> 8) % a.len] = (u8)(seed >> 20);
		assert_true(aml_find_scope_gpe(t, a.len, "\\_SB_.PCI0.RP05", m, 4) >= -EINVAL);
	}
}

/* If blocks nested deeper than the walker follows: no stack overflow. */
static void test_deep_nesting(void **state)
{
	struct aml_buf *lvl = test_calloc(60, sizeof(*lvl));
	struct aml_gpe_method m[4];
	const u8 if_op = 0xa0;
	int i;
	(void)state;

	put_tb3_table(&lvl[0], "RP05", "_L32");
	for (i = 1; i < 40; i++) {
		struct aml_buf body = { .len = 0 };

		put1(&body, 0x01);	/* If (One) { lvl[i - 1] } */
		put(&body, lvl[i - 1].b, lvl[i - 1].len);
		put_pkg(&lvl[i], &if_op, 1, &body);
	}
	assert_int_equal(aml_find_scope_gpe(lvl[39].b, lvl[39].len, "\\_SB_.PCI0.RP05", m, 4), 0);
	/* 10 deep, as deep as the real tables go, is within reach */
	assert_int_equal(aml_find_scope_gpe(lvl[10].b, lvl[10].len, "\\_SB_.PCI0.RP05", m, 4), 1);
	test_free(lvl);
}

/*
 * Scopes that each reopen a long absolute path: their paths fill the walk's
 * pool of segments before its nesting runs out. A walk that runs out of
 * either ends with -EINVAL, and one within both finds the GPE.
 */
static void test_long_scope_paths(void **state)
{
	static const char *const path = "\\_SB_.PCI0.RP05.UPSB.DSB0.NHI0.AAAA.BBBB.CCCC";
	struct aml_buf *lvl = test_calloc(12, sizeof(*lvl));
	struct aml_gpe_method m[4];
	int i;
	(void)state;

	put_tb3_table(&lvl[0], "RP05", "_L32");
	for (i = 1; i < 12; i++)
		put_scope(&lvl[i], path, &lvl[i - 1]);
	/* 9 segments a scope: 11 of them are past the pool's 96, not its nesting */
	assert_int_equal(aml_find_scope_gpe(lvl[11].b, lvl[11].len, "\\_SB_.PCI0.RP05", m, 4),
			 -EINVAL);
	assert_int_equal(aml_find_scope_gpe(lvl[4].b, lvl[4].len, "\\_SB_.PCI0.RP05", m, 4), 1);
	assert_int_equal(m[0].gpe, 0x32);
	test_free(lvl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_level_gpe_of_pch_port),
		cmocka_unit_test(test_edge_gpe_of_peg_ports),
		cmocka_unit_test(test_nested_gpe_scope_not_taken),
		cmocka_unit_test(test_relative_scope_names),
		cmocka_unit_test(test_count_and_room),
		cmocka_unit_test(test_if_blocks),
		cmocka_unit_test(test_unknown_opcode_fails),
		cmocka_unit_test(test_bad_paths),
		cmocka_unit_test(test_bad_name_offset),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_whole_tables),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_long_scope_paths),
		cmocka_unit_test(test_plug_pad),
		cmocka_unit_test(test_no_pad_in_notify),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
