// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for src/lib/mac_fw.c (cmocka): the table reader and
 * firmware check of macsupport-report --firmware, on tables assembled here
 * in the shapes of Apple's (APP000B with its _CRS, Thunderbolt NHIs and
 * their methods, GPE methods, _PRW), and on malformed ones: a header cut
 * short, a Length past the end of the file or short of the header, a bad
 * checksum, bytes after the table, another signature, garbage AML. With
 * MAC_FW_SEEDS=DIR it also writes the tables it builds there (the seeds of
 * "make fuzz").
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "macsupport/mac_fw.h"

struct buf {
	u8 b[4096];
	size_t len;
};

static void put(struct buf *a, const void *p, size_t n)
{
	assert_true(a->len + n <= sizeof(a->b));
	memcpy(a->b + a->len, p, n);
	a->len += n;
}

static void put1(struct buf *a, u8 v)
{
	put(a, &v, 1);
}

/* @op (1 or 2 bytes), a 2-byte PkgLength, @body */
static void put_pkg(struct buf *a, const u8 *op, size_t oplen, const struct buf *body)
{
	size_t len = body->len + 2;

	put(a, op, oplen);
	put1(a, 0x40 | (len & 0x0f));
	put1(a, (u8)(len >> 4));
	put(a, body->b, body->len);
}

/* "\_SB_.PCI0.RP05" or "NHI0": 4-character segments */
static void put_name(struct buf *a, const char *s)
{
	unsigned int segs = 0;
	const char *t;

	if (*s == '\\')
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

static void put_named(struct buf *a, const u8 *op, size_t oplen, const char *name,
		      const struct buf *body)
{
	struct buf in = { .len = 0 };

	put_name(&in, name);
	put(&in, body->b, body->len);
	put_pkg(a, op, oplen, &in);
}

static void put_scope(struct buf *a, const char *name, const struct buf *body)
{
	static const u8 op[] = { 0x10 };

	put_named(a, op, 1, name, body);
}

static void put_device(struct buf *a, const char *name, const struct buf *body)
{
	static const u8 op[] = { 0x5b, 0x82 };

	put_named(a, op, 2, name, body);
}

/* Method (NAME, 1) { Return (Zero) } */
static void put_method(struct buf *a, const char *name)
{
	static const u8 op[] = { 0x14 };
	static const u8 body[] = { 0x01, 0xa4, 0x00 };
	struct buf b = { .len = 0 };

	put(&b, body, sizeof(body));
	put_named(a, op, 1, name, &b);
}

/* Name (NAME, data) */
static void put_data(struct buf *a, const char *name, const void *data, size_t n)
{
	put1(a, 0x08);
	put_name(a, name);
	put(a, data, n);
}

static void put_byte_name(struct buf *a, const char *name, u8 v)
{
	const u8 d[] = { 0x0a, v };

	put_data(a, name, d, sizeof(d));
}

/* A table: header, @aml, Length and checksum right. */
static size_t make_table(u8 *t, const char *sig, const struct buf *aml)
{
	size_t n = 36 + aml->len, i;
	u8 sum = 0;

	memset(t, 0, 36);
	memcpy(t, sig, 4);
	t[4] = (u8)n;
	t[5] = (u8)(n >> 8);
	t[8] = 2;
	memcpy(t + 10, "MCSPRT", 6);
	memcpy(t + 36, aml->b, aml->len);
	for (i = 0; i < n; i++)
		sum += t[i];
	t[9] = (u8)-sum;
	return n;
}

/* With MAC_FW_SEEDS=DIR, every table built goes there too. */
static void seed(const char *name, const u8 *t, size_t n)
{
	const char *dir = getenv("MAC_FW_SEEDS");
	char path[512];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (f) {
		fwrite(t, 1, n, f);
		fclose(f);
	}
}

/* The gmux: Device (GMUX) with APP000B, "gmux", IO 0x700-0x7ff, GMGP */
static void put_gmux(struct buf *a, bool t2)
{
	static const u8 hid[] = { 0x0c, 0x06, 0x10, 0x00, 0x0b };	/* EisaId ("APP000B") */
	static const u8 io[] = { 0x11, 0x0d, 0x0a, 0x0a, 0x47, 0x01, 0x00, 0x07, 0xff, 0x07,
				 0x01, 0xff, 0x79, 0x00 };
	static const u8 mem[] = { 0x11, 0x11, 0x0a, 0x0e, 0x86, 0x09, 0x00, 0x01, 0x00, 0x02,
				  0x0b, 0xfe, 0x08, 0x00, 0x00, 0x00, 0x79, 0x00 };
	struct buf dev = { .len = 0 }, lpc = { .len = 0 };

	put_data(&dev, "_HID", hid, sizeof(hid));
	put_data(&dev, "_CID", t2 ? "\x0dgpuc" : "\x0dgmux", 6);
	if (t2)
		put_data(&dev, "_CRS", mem, sizeof(mem));
	else
		put_data(&dev, "_CRS", io, sizeof(io));
	put_byte_name(&dev, "GMGP", t2 ? 0x15 : 0x16);
	put_device(&lpc, t2 ? "GPUC" : "GMUX", &dev);
	put_scope(a, "\\_SB_.PCI0.LPCB", &lpc);
}

/* Scope (RP) { Device (UPSB) { Device (DSB0) { Device (NHI0) { ... } } } } */
static void put_tb1(struct buf *a, const char *rp, const char *power)
{
	struct buf nhi = { .len = 0 }, dsb = { .len = 0 }, upsb = { .len = 0 }, s = { .len = 0 };

	put_method(&nhi, power);
	put_method(&nhi, "XRIL");
	put_byte_name(&nhi, "XRIN", 0x14);
	put_device(&dsb, "NHI0", &nhi);
	put_device(&upsb, "DSB0", &dsb);
	put_device(&s, "UPSB", &upsb);
	put_scope(a, rp, &s);
}

static struct mac_fw *new_fw(void)
{
	struct mac_fw *fw = malloc(sizeof(*fw));

	assert_non_null(fw);
	mac_fw_init(fw);
	return fw;
}

static const struct mac_model_info *model(const char *s)
{
	struct mac_model_id id;

	assert_int_equal(mac_model_parse(s, &id), 0);
	return mac_model_lookup(&id);
}

static u8 dsdt[8192], ssdt[8192];

static void test_gmux_and_tb1_agree(void **state)
{
	struct buf a = { .len = 0 }, b = { .len = 0 };
	struct mac_fw_error err;
	struct mac_fw *fw = new_fw();
	size_t n, m;

	(void)state;
	put_gmux(&a, false);
	put_tb1(&b, "\\_SB_.PCI0.RP05", "XRPE");
	n = make_table(dsdt, "DSDT", &a);
	m = make_table(ssdt, "SSDT", &b);
	seed("classic-dsdt.aml", dsdt, n);
	seed("tb1-ssdt.aml", ssdt, m);
	assert_int_equal(mac_fw_add_table(fw, dsdt, n, &err), 0);
	assert_int_equal(mac_fw_add_table(fw, ssdt, m, &err), 0);
	mac_fw_finish(fw, model("MacBookPro8,2"), "MacBookPro8,2");

	assert_int_equal(fw->gmux.count, 1);
	assert_string_equal(fw->gmux.path, "\\_SB_.PCI0.LPCB.GMUX");
	assert_string_equal(fw->gmux.cid, "gmux");
	assert_int_equal(fw->gmux.res, MAC_FW_RES_IO);
	assert_int_equal(fw->gmux.base, 0x700);
	assert_int_equal(fw->gmux.len, 0xff);
	assert_int_equal(fw->gmux.gpe, 0x16);
	assert_int_equal(fw->ntb, 1);
	assert_string_equal(fw->tb[0].nhi, "\\_SB_.PCI0.RP05.UPSB.DSB0.NHI0");
	assert_string_equal(fw->tb[0].rp, "\\_SB_.PCI0.RP05");
	assert_true(fw->tb[0].xrpe && fw->tb[0].xril && fw->tb[0].has_xrin);
	assert_int_equal(fw->tb[0].xrin, 0x14);
	assert_string_equal(fw->tb[0].mechanism, "XRPE");
	assert_null(fw->tb[0].stay_on);
	assert_int_equal(fw->ndiffs, 0);

	/* the same tables against a T2 Mac with two Titan Ridge controllers */
	mac_fw_finish(fw, model("MacBookPro15,1"), "MacBookPro15,1");
	assert_int_equal(fw->ndiffs, 3);
	assert_non_null(strstr(fw->diffs[0], "MacBookPro15,1: gmux: the model table says t2"));
	assert_non_null(strstr(fw->diffs[1], "says 2 Titan Ridge controllers"));
	assert_non_null(strstr(fw->diffs[2], "Thunderbolt 1 (Light or Eagle Ridge"));

	/* an unknown model: described, not compared */
	mac_fw_finish(fw, NULL, NULL);
	assert_int_equal(fw->ndiffs, 0);
	assert_int_equal(fw->gmux.res, MAC_FW_RES_IO);
	free(fw);
}

static void test_t2_gmux(void **state)
{
	struct buf a = { .len = 0 };
	struct mac_fw_error err;
	struct mac_fw *fw = new_fw();
	size_t n;

	(void)state;
	put_gmux(&a, true);
	n = make_table(dsdt, "DSDT", &a);
	seed("t2-dsdt.aml", dsdt, n);
	assert_int_equal(mac_fw_add_table(fw, dsdt, n, &err), 0);
	mac_fw_finish(fw, model("MacBookPro8,2"), "MacBookPro8,2");
	assert_int_equal(fw->gmux.res, MAC_FW_RES_MMIO);
	assert_int_equal(fw->gmux.base, 0xfe0b0200);
	assert_int_equal(fw->gmux.len, 8);
	assert_string_equal(fw->gmux.cid, "gpuc");
	/* classic wanted, memory declared; one controller wanted, none */
	assert_int_equal(fw->ndiffs, 2);
	assert_non_null(strstr(fw->diffs[0], "says classic (I/O ports), the firmware declares APP000B at \\_SB_.PCI0.LPCB.GPUC with memory at 0xfe0b0200"));
	free(fw);
}

static void test_quirk_gpe_and_wake(void **state)
{
	struct buf a = { .len = 0 }, g = { .len = 0 }, lid = { .len = 0 }, sb = { .len = 0 };
	static const u8 prw23[] = { 0x12, 0x06, 0x02, 0x0a, 0x23, 0x0a, 0x03 };
	struct mac_fw_error err;
	struct mac_fw *fw = new_fw();
	size_t n;

	(void)state;
	put_gmux(&a, false);
	put_tb1(&a, "\\_SB_.PCI0.RP05", "TRPE");
	put_method(&g, "_L06");
	put_scope(&a, "\\_GPE", &g);
	put_data(&lid, "_PRW", prw23, sizeof(prw23));
	put_device(&sb, "LID0", &lid);
	put_scope(&a, "\\_SB_", &sb);
	n = make_table(dsdt, "DSDT", &a);
	seed("quirks-dsdt.aml", dsdt, n);
	assert_int_equal(mac_fw_add_table(fw, dsdt, n, &err), 0);
	mac_fw_finish(fw, model("MacBookPro11,3"), "MacBookPro11,3");
	/* gpe_storm 0x06, wake_sources XHC1 (absent) and LID0 (0x23) */
	assert_int_equal(fw->nchecks, 3);
	assert_string_equal(fw->checks[0].quirk, "gpe_storm");
	assert_true(fw->checks[0].ok);
	assert_string_equal(fw->checks[1].what, "\\_SB.PCI0.XHC1");
	assert_false(fw->checks[1].ok);
	assert_string_equal(fw->checks[1].found, "no such device");
	assert_true(fw->checks[2].ok);
	assert_string_equal(fw->checks[2].found, "_PRW GPE 0x23");
	assert_int_equal(fw->ndiffs, 1);
	assert_string_equal(fw->diffs[0],
			    "MacBookPro11,3: quirk wake_sources names \\_SB.PCI0.XHC1: no such device");
	free(fw);
}

/* Each malformed table: refused with its reason, nothing recorded. */
static void test_malformed(void **state)
{
	struct buf a = { .len = 0 }, junk = { .len = 0 };
	struct mac_fw_error err;
	struct mac_fw *fw = new_fw();
	size_t n, i;

	(void)state;
	put_gmux(&a, false);
	n = make_table(dsdt, "DSDT", &a);

	/* a header cut short, at every length below it */
	for (i = 0; i < 36; i++) {
		assert_int_equal(mac_fw_add_table(fw, dsdt, i, &err), -EINVAL);
		assert_non_null(strstr(err.msg, "shorter than a table header"));
	}
	/* the file cut short of the header's Length */
	assert_int_equal(mac_fw_add_table(fw, dsdt, n - 1, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "beyond the end of the file"));
	/* bytes after it */
	assert_int_equal(mac_fw_add_table(fw, dsdt, n + 1, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "goes on after"));
	/* a Length shorter than the header */
	dsdt[4] = 20;
	assert_int_equal(mac_fw_add_table(fw, dsdt, n, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "shorter than the header"));
	n = make_table(dsdt, "DSDT", &a);
	/* a bad checksum */
	dsdt[n - 1] ^= 1;
	assert_int_equal(mac_fw_add_table(fw, dsdt, n, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "bad checksum"));
	/* another table */
	n = make_table(dsdt, "FACP", &a);
	assert_int_equal(mac_fw_add_table(fw, dsdt, n, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not a DSDT or SSDT"));
	/* garbage AML after a good device: refused, what it read forgotten */
	junk = a;
	put1(&junk, 0xff);
	put1(&junk, 0xee);
	n = make_table(dsdt, "DSDT", &junk);
	seed("garbage-dsdt.aml", dsdt, n);
	assert_int_equal(mac_fw_add_table(fw, dsdt, n, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "cannot be walked"));
	assert_int_equal(err.offset, 36 + a.len);
	assert_int_equal(fw->ntables, 0);
	assert_int_equal(fw->nobjs, 0);
	mac_fw_finish(fw, model("MacBookPro8,2"), "MacBookPro8,2");
	assert_int_equal(fw->gmux.count, 0);
	/* a header alone is a table that declares nothing */
	junk.len = 0;
	n = make_table(ssdt, "SSDT", &junk);
	assert_int_equal(mac_fw_add_table(fw, ssdt, n, &err), 0);
	free(fw);
}

/* Noop padding at the end of a table, as MacPro3,1's CPU SSDTs have: read */
static void test_noop_padding(void **state)
{
	struct buf a = { .len = 0 };
	struct mac_fw_error err;
	struct mac_fw *fw = new_fw();
	size_t n;
	int i;

	(void)state;
	put_gmux(&a, false);
	for (i = 0; i < 16; i++)
		put1(&a, 0xa3);
	n = make_table(dsdt, "SSDT", &a);
	assert_int_equal(mac_fw_add_table(fw, dsdt, n, &err), 0);
	mac_fw_finish(fw, NULL, NULL);
	assert_int_equal(fw->gmux.count, 1);
	free(fw);
}

/* A _CRS that is a method, a _PRW that is one: read from their bodies. */
static void test_methods_of_crs_and_prw(void **state)
{
	/* Method (_CRS) { Return (Buffer (0x0a) { IO ..., End }) } */
	static const u8 crs[] = { 0x14, 0x15, '_', 'C', 'R', 'S', 0x00, 0xa4, 0x11, 0x0d, 0x0a,
				  0x0a, 0x47, 0x01, 0x00, 0x07, 0xff, 0x07, 0x01, 0xff, 0x79,
				  0x00 };
	/* Method (_PRW) { If (One) { Return (Package { 0x16, 3 }) } Return (Package { 0x17, 3 }) } */
	static const u8 prw[] = { 0x14, 0x19, '_', 'P', 'R', 'W', 0x00, 0xa0, 0x0a, 0x01, 0xa4,
				  0x12, 0x06, 0x02, 0x0a, 0x16, 0x0a, 0x03, 0xa4, 0x12, 0x06,
				  0x02, 0x0a, 0x17, 0x0a, 0x03 };
	static const u8 hid[] = { 0x0d, 'A', 'P', 'P', '0', '0', '0', 'B', 0x00 };
	struct buf a = { .len = 0 }, dev = { .len = 0 };
	struct mac_fw_error err;
	struct mac_fw *fw = new_fw();
	size_t n;

	(void)state;
	put_data(&dev, "_HID", hid, sizeof(hid));
	put(&dev, crs, sizeof(crs));
	put(&dev, prw, sizeof(prw));
	put_device(&a, "\\_SB_.GMUX", &dev);
	n = make_table(dsdt, "DSDT", &a);
	seed("methods-dsdt.aml", dsdt, n);
	assert_int_equal(mac_fw_add_table(fw, dsdt, n, &err), 0);
	mac_fw_finish(fw, NULL, NULL);
	assert_int_equal(fw->gmux.count, 1);
	assert_true(fw->gmux.crs_method);
	assert_int_equal(fw->gmux.res, MAC_FW_RES_IO);
	assert_int_equal(fw->gmux.base, 0x700);
	assert_int_equal(fw->gmux.gpe, 0x16);
	assert_string_equal(fw->gmux.gpe_from, "_PRW");
	assert_true(fw->gpe_prw[0x17 / 8] & (1 << (0x17 % 8)));
	free(fw);
}

/* A table of @n empty devices "D000", "D001", ... (7 bytes each) in @t. */
static size_t make_devices(u8 *t, const char *sig, unsigned int n)
{
	size_t len = 36 + 7 * (size_t)n, i;
	u8 *p = t + 36, sum = 0;
	unsigned int k;

	memset(t, 0, 36);
	memcpy(t, sig, 4);
	t[4] = (u8)len;
	t[5] = (u8)(len >> 8);
	t[6] = (u8)(len >> 16);
	t[8] = 2;
	for (k = 0; k < n; k++) {
		*p++ = 0x5b;
		*p++ = 0x82;
		*p++ = 5;	/* PkgLength: itself and the name */
		*p++ = 'D';
		*p++ = (u8)('0' + k / 100 % 10);
		*p++ = (u8)('0' + k / 10 % 10);
		*p++ = (u8)('0' + k % 10);
	}
	for (i = 0; i < len; i++)
		sum += t[i];
	t[9] = (u8)-sum;
	return len;
}

/*
 * More named objects than the check has room for: the table that would
 * overflow is refused (with the byte of the first one left out), never
 * read in part, which would make "agrees" out of what the check missed.
 */
static void test_too_many_objects(void **state)
{
	u8 *big = malloc(36 + 7 * (MAC_FW_MAX_OBJS + 1));
	struct mac_fw_error err;
	struct mac_fw *fw = new_fw();
	size_t n;

	(void)state;
	assert_non_null(big);
	/* one more than room: refused, nothing recorded */
	n = make_devices(big, "DSDT", MAC_FW_MAX_OBJS + 1);
	assert_int_equal(mac_fw_add_table(fw, big, n, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "too many named objects"));
	/* the last device's data: after its opcode, PkgLength and name */
	assert_int_equal(err.offset, 36 + 7 * MAC_FW_MAX_OBJS + 7);
	assert_int_equal(fw->ntables, 0);
	assert_int_equal(fw->nobjs, 0);
	assert_null(fw->objs_more);
	/* exactly room: read */
	n = make_devices(big, "DSDT", MAC_FW_MAX_OBJS);
	assert_int_equal(mac_fw_add_table(fw, big, n, &err), 0);
	assert_int_equal(fw->nobjs, MAC_FW_MAX_OBJS);
	/* an SSDT with one device more: refused, the DSDT's objects kept */
	n = make_devices(ssdt, "SSDT", 1);
	assert_int_equal(mac_fw_add_table(fw, ssdt, n, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "too many named objects"));
	assert_int_equal(err.offset, 36 + 7);
	assert_int_equal(fw->ntables, 1);
	assert_int_equal(fw->nobjs, MAC_FW_MAX_OBJS);
	/* a header alone adds no object: read */
	n = make_devices(ssdt, "SSDT", 0);
	assert_int_equal(mac_fw_add_table(fw, ssdt, n, &err), 0);
	assert_int_equal(fw->ntables, 2);
	free(big);
	free(fw);
}

/* More tables than the check has room for: the one past it refused. */
static void test_too_many_tables(void **state)
{
	struct mac_fw_error err;
	struct mac_fw *fw = new_fw();
	unsigned int k;
	size_t n;

	(void)state;
	n = make_devices(ssdt, "SSDT", 0);
	for (k = 0; k < MAC_FW_MAX_TABLES; k++)
		assert_int_equal(mac_fw_add_table(fw, ssdt, n, &err), 0);
	assert_int_equal(mac_fw_add_table(fw, ssdt, n, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "too many tables"));
	assert_int_equal(fw->ntables, MAC_FW_MAX_TABLES);
	free(fw);
}

/* Random bytes behind a valid header: never a crash, refused or read. */
static void test_random_aml(void **state)
{
	struct buf a;
	struct mac_fw_error err;
	struct mac_fw *fw = new_fw();
	unsigned int seedv = 1, i, k;
	size_t n;

	(void)state;
	for (k = 0; k < 2000; k++) {
		a.len = 1 + k % 200;
		for (i = 0; i < a.len; i++) {
			seedv = seedv * 1103515245 + 12345;
			a.b[i] = (u8)(seedv >> 16);
		}
		n = make_table(dsdt, "SSDT", &a);
		mac_fw_init(fw);
		if (mac_fw_add_table(fw, dsdt, n, &err))
			assert_true(err.msg[0] && err.offset <= n);
		mac_fw_finish(fw, model("MacBookPro11,3"), "MacBookPro11,3");
	}
	free(fw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gmux_and_tb1_agree),
		cmocka_unit_test(test_t2_gmux),
		cmocka_unit_test(test_quirk_gpe_and_wake),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_noop_padding),
		cmocka_unit_test(test_methods_of_crs_and_prw),
		cmocka_unit_test(test_too_many_objects),
		cmocka_unit_test(test_too_many_tables),
		cmocka_unit_test(test_random_aml),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
