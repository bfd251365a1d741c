// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for src/lib/apple_props.c (cmocka): device path nodes of
 * every supported type, text both ways, routes, the blob parser on good and
 * malformed input, the encoder, and decode -> encode -> decode round trips.
 * All blobs are synthetic (apple_props_samples.h).
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "macsupport/apple_props.h"
#include "apple_props_samples.h"

/* Device paths */

static void expect_text(const u8 *dp, size_t len, const char *text)
{
	char buf[512];
	int n;

	n = apple_dp_to_text(dp, len, buf, sizeof(buf));
	assert_int_equal(n, (int)strlen(text));
	assert_string_equal(buf, text);
}

/* text -> binary -> text gives the same text, and the binary is @bin. */
static void expect_text_roundtrip(const char *text, const u8 *bin, size_t bin_len)
{
	u8 buf[512];
	size_t len;

	assert_int_equal(apple_dp_from_text(text, buf, sizeof(buf), &len, NULL), 0);
	if (bin) {
		assert_int_equal(len, bin_len);
		assert_memory_equal(buf, bin, len);
	}
	expect_text(buf, len, text);
}

static const u8 dp_hda[] = {
	0x02, 0x01, 0x0c, 0x00, 0xd0, 0x41, 0x03, 0x0a, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x01, 0x06, 0x00, 0x00, 0x1b, 0x7f, 0xff, 0x04, 0x00,
};

static void test_dp_acpi_pci(void **state)
{
	(void)state;
	/* The worked example of the reference (OSXOLVED yod-GfxUtil.php). */
	expect_text_roundtrip("PciRoot(0x0)/Pci(0x1b,0x0)", dp_hda, sizeof(dp_hda));
	expect_text_roundtrip("PciRoot(0x0)", NULL, 0);
	expect_text_roundtrip("PcieRoot(0x2)", NULL, 0);
	expect_text_roundtrip("Acpi(PNP0C09,0x0)", NULL, 0);
	expect_text_roundtrip("Acpi(0x12345678,0xffffffff)", NULL, 0);
	expect_text_roundtrip("PciRoot(0x0)/Pci(0x1,0x0)/Pci(0x0,0x0)/Pci(0x0,0x0)/Pci(0x0,0x0)",
			      NULL, 0);
	expect_text_roundtrip("Path(5,1,abcd)", NULL, 0);
	expect_text_roundtrip("Path(5,1)", NULL, 0);
	expect_text_roundtrip("Path(5,1,abcd),PciRoot(0x1)", sample_dp_other,
			      sizeof(sample_dp_other));
	expect_text_roundtrip("Path(127,2)", NULL, 0);
}

static void test_dp_vendor_text(void **state)
{
	static const char text[] =
		"VenHw(91BD12FE-F6C3-44FB-A5B7-5122AB303AE0,beef)/VenMsg(91BD12FE-F6C3-44FB-A5B7-5122AB303AE0)/VenMedia(91BD12FE-F6C3-44FB-A5B7-5122AB303AE0)";

	(void)state;
	expect_text_roundtrip(text, sample_dp_vendor, sizeof(sample_dp_vendor));
	/* a vendor root above PCI nodes, as on T2 Macs */
	expect_text_roundtrip("VenMsg(4299611B-4CC9-43DF-882B-2A0707A4A95F,0011)/Pci(0x1,0x0)",
			      NULL, 0);
}

static void test_dp_text_variants(void **state)
{
	u8 a[64], b[64];
	size_t la, lb;

	(void)state;
	/* decimal numbers and upper-case hex mean the same */
	assert_int_equal(apple_dp_from_text("PciRoot(0)/Pci(27,0)", a, sizeof(a), &la, NULL), 0);
	assert_int_equal(apple_dp_from_text("PciRoot(0X0)/Pci(0x1B,0x0)", b, sizeof(b), &lb, NULL),
			 0);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	assert_memory_equal(a, dp_hda, sizeof(dp_hda));
}

static void test_dp_text_rejects(void **state)
{
	static const char * const bad[] = {
		"", "/", "PciRoot(0x0)/", "PciRoot(0x0)//Pci(0x1,0x0)", "Pci(0x100,0x0)",
		"Pci(0x1)", "Pci(0x1,0x0", "Foo(1)", "PciRoot(0x100000000)", "PciRoot()",
		"Path(1,1,00)", "Path(2,1)", "Path(127,255)", "Path(5,1,abc)", "Path(5,1,)",
		"Path(256,1)", "Acpi(PNPXYZW,0)", "PciRoot(0x0) ", "USB(0x1,0x0)",
		"PciRoot(0x0),", ",PciRoot(0x0)", "VenHw(91BD12FE-F6C3-44FB-A5B7-5122AB303AE)",
		"VenHw(91BD12FE-F6C3-44FB-A5B7-5122AB303AE0,)", "VenMsg(91BD12FEF6C3)",
		"VenHw(91BD12FE-F6C3-44FB-A5B7-5122AB303AE0,abc)",
	};
	struct apple_props_error err;
	u8 buf[64];
	size_t i, len;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&err, 0, sizeof(err));
		if (apple_dp_from_text(bad[i], buf, sizeof(buf), &len, &err) != -EINVAL)
			fail_msg("accepted \"%s\"", bad[i]);
		assert_int_equal(err.code, APPLE_PROPS_E_TEXT);
		assert_non_null(err.msg);
	}
	/* too small a buffer: -ENOSPC and the needed length */
	assert_int_equal(apple_dp_from_text("PciRoot(0x0)/Pci(0x1b,0x0)", buf, 10, &len, &err),
			 -ENOSPC);
	assert_int_equal(len, sizeof(dp_hda));
	assert_int_equal(apple_dp_from_text("PciRoot(0x0)/Pci(0x1b,0x0)", NULL, 0, &len, NULL),
			 -ENOSPC);
	assert_int_equal(len, sizeof(dp_hda));
}

static void test_dp_decode_only_nodes(void **state)
{
	(void)state;
	expect_text(sample_dp_acpi_ex, sizeof(sample_dp_acpi_ex),
		    "AcpiEx(PNP0A08,PNP0A03,0x0,,,)");
	expect_text(sample_dp_usb, sizeof(sample_dp_usb),
		    "PciRoot(0x0)/Pci(0x14,0x0)/USB(0x3,0x0)");
	expect_text(sample_dp_mac, sizeof(sample_dp_mac),
		    "PciRoot(0x0)/Pci(0x19,0x0)/MAC(001122334455,0x1)");
	expect_text(sample_dp_vendor, sizeof(sample_dp_vendor),
		    "VenHw(91BD12FE-F6C3-44FB-A5B7-5122AB303AE0,beef)/VenMsg(91BD12FE-F6C3-44FB-A5B7-5122AB303AE0)/VenMedia(91BD12FE-F6C3-44FB-A5B7-5122AB303AE0)");
	expect_text(sample_dp_other, sizeof(sample_dp_other), "Path(5,1,abcd),PciRoot(0x1)");
}

static void test_dp_acpi_ex_strings(void **state)
{
	static const u8 dp[] = {
		0x02, 0x02, 0x1a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 'A', 'B', 0x00, 'U', 0x00, 'C', 'D', 0x00,
		0x01, 0x00, 0x7f, 0xff, 0x04, 0x00,
	};

	(void)state;
	/* HIDSTR "AB", UIDSTR "U", CIDSTR "CD", then 2 bytes of padding */
	expect_text(dp, sizeof(dp), "AcpiEx(0x00000000,0x00000000,0x5,AB,CD,U)");
}

static void test_dp_text_truncated(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(apple_dp_to_text(dp_hda, sizeof(dp_hda), buf, sizeof(buf)),
			 (int)strlen("PciRoot(0x0)/Pci(0x1b,0x0)"));
	assert_string_equal(buf, "PciRoot");
	assert_int_equal(apple_dp_to_text(dp_hda, sizeof(dp_hda), NULL, 0),
			 (int)strlen("PciRoot(0x0)/Pci(0x1b,0x0)"));
}

static void expect_dp_error(const u8 *dp, size_t len, enum apple_props_err code, size_t off)
{
	struct apple_props_error err;
	size_t plen = 12345;
	char text[64];

	memset(&err, 0, sizeof(err));
	assert_int_equal(apple_dp_check(dp, len, &plen, &err), -EINVAL);
	assert_int_equal(err.code, code);
	assert_int_equal(err.offset, off);
	assert_non_null(err.msg);
	assert_int_equal(plen, 12345);
	assert_int_equal(apple_dp_to_text(dp, len, text, sizeof(text)), -EINVAL);
}

static void test_dp_malformed(void **state)
{
	u8 dp[64];

	(void)state;
	/* no End node at all */
	expect_dp_error(dp_hda, sizeof(dp_hda) - 4, APPLE_PROPS_E_DP_NO_END, 18);
	/* End-Instance only, then nothing */
	memcpy(dp, dp_hda, sizeof(dp_hda));
	dp[19] = EFI_DP_END_INSTANCE;
	expect_dp_error(dp, sizeof(dp_hda), APPLE_PROPS_E_DP_NO_END, 22);
	/* node header cut */
	expect_dp_error(dp_hda, 14, APPLE_PROPS_E_DP_TRUNC, 12);
	/* zero-length node and length 3 */
	memcpy(dp, dp_hda, sizeof(dp_hda));
	dp[14] = 0;
	expect_dp_error(dp, sizeof(dp_hda), APPLE_PROPS_E_DP_NODE_SHORT, 12);
	dp[14] = 3;
	expect_dp_error(dp, sizeof(dp_hda), APPLE_PROPS_E_DP_NODE_SHORT, 12);
	/* node past the end */
	dp[14] = 0x40;
	expect_dp_error(dp, sizeof(dp_hda), APPLE_PROPS_E_DP_NODE_PAST_END, 12);
	/* PCI node of 8 bytes, ACPI node of 16 */
	dp[14] = 8;
	expect_dp_error(dp, sizeof(dp_hda), APPLE_PROPS_E_DP_NODE_LEN, 12);
	memcpy(dp, dp_hda, sizeof(dp_hda));
	dp[2] = 16;
	expect_dp_error(dp, sizeof(dp_hda), APPLE_PROPS_E_DP_NODE_LEN, 0);
	/* End-Entire of 8 bytes */
	memcpy(dp, dp_hda, sizeof(dp_hda));
	dp[20] = 8;
	memset(dp + 22, 0, 4);
	expect_dp_error(dp, sizeof(dp_hda) + 4, APPLE_PROPS_E_DP_NODE_LEN, 18);
	/* expanded ACPI without its three strings */
	memcpy(dp, sample_dp_acpi_ex, sizeof(sample_dp_acpi_ex));
	dp[18] = 'x';
	expect_dp_error(dp, sizeof(sample_dp_acpi_ex), APPLE_PROPS_E_DP_NODE_LEN, 0);
	/* empty and NULL */
	expect_dp_error(dp_hda, 0, APPLE_PROPS_E_DP_NO_END, 0);
	expect_dp_error(NULL, 10, APPLE_PROPS_E_DP_NO_END, 0);
}

static void test_dp_route(void **state)
{
	struct apple_dp_route r;
	u8 dp[256];
	size_t len;
	char text[256];
	int i;

	(void)state;
	assert_int_equal(apple_dp_from_text(sample_tb_gpu[0].text, dp, sizeof(dp), &len, NULL), 0);
	assert_int_equal(apple_dp_to_route(dp, len, &r), 0);
	assert_int_equal(r.hid, EFI_ACPI_HID_PCI_ROOT);
	assert_int_equal(r.uid, 0);
	assert_int_equal(r.nr_hops, 4);
	assert_int_equal(r.hops[0].dev, 1);
	assert_int_equal(r.hops[0].fn, 0);
	for (i = 1; i < 4; i++) {
		assert_int_equal(r.hops[i].dev, 0);
		assert_int_equal(r.hops[i].fn, 0);
	}
	assert_int_equal(apple_dp_to_route(dp_hda, sizeof(dp_hda), &r), 0);
	assert_int_equal(r.nr_hops, 1);
	assert_int_equal(r.hops[0].dev, 0x1b);
	/* the root alone */
	assert_int_equal(apple_dp_from_text("PcieRoot(0x3)", dp, sizeof(dp), &len, NULL), 0);
	assert_int_equal(apple_dp_to_route(dp, len, &r), 0);
	assert_int_equal(r.hid, EFI_ACPI_HID_PCIE_ROOT);
	assert_int_equal(r.uid, 3);
	assert_int_equal(r.nr_hops, 0);
	/* what the kernel cannot resolve */
	assert_int_equal(apple_dp_to_route(sample_dp_usb, sizeof(sample_dp_usb), &r), -EOPNOTSUPP);
	assert_int_equal(apple_dp_to_route(sample_dp_other, sizeof(sample_dp_other), &r),
			 -EOPNOTSUPP);
	assert_int_equal(apple_dp_to_route(sample_dp_vendor, sizeof(sample_dp_vendor), &r),
			 -EOPNOTSUPP);
	assert_int_equal(apple_dp_to_route(dp_hda, 10, &r), -EINVAL);
	/* 17 hops */
	strcpy(text, "PciRoot(0x0)");
	for (i = 0; i < 17; i++)
		strcat(text, "/Pci(0x0,0x0)");
	assert_int_equal(apple_dp_from_text(text, dp, sizeof(dp), &len, NULL), 0);
	assert_int_equal(apple_dp_to_route(dp, len, &r), -E2BIG);
}

/* Blobs */

struct collect {
	int nodes;
	int props;
	int bools;
	char paths[8][256];
	char keys[32][64];
	size_t vlens[32];
	int fail_at;
	struct apple_props_enc *enc;
};

static int collect_node(void *ctx, const struct apple_props_node *node)
{
	struct collect *c = ctx;

	if (c->nodes < 8)
		apple_dp_to_text(node->path, node->path_len, c->paths[c->nodes], 256);
	c->nodes++;
	if (c->enc)
		return apple_props_enc_node(c->enc, node->path, node->path_len);
	return 0;
}

static int collect_prop(void *ctx, const struct apple_props_node *node,
			const struct apple_props_prop *prop)
{
	struct collect *c = ctx;
	char key[64];
	int ret;

	(void)node;
	ret = apple_props_key_to_utf8(prop->key, prop->key_len, key, sizeof(key));
	if (ret < 0)
		return ret;
	if (c->props < 32) {
		strcpy(c->keys[c->props], key);
		c->vlens[c->props] = prop->value_len;
	}
	c->props++;
	if (!prop->value_len)
		c->bools++;
	if (c->fail_at && c->props == c->fail_at)
		return -EIO;
	if (c->enc)
		return apple_props_enc_prop(c->enc, key, prop->value, prop->value_len);
	return 0;
}

static const struct apple_props_ops collect_ops = {
	.node = collect_node,
	.prop = collect_prop,
};

static void test_blob_tb_gpu(void **state)
{
	struct apple_props_info info;
	struct collect c = { 0 };
	size_t len;
	u8 *blob;

	(void)state;
	blob = sample_encode(sample_tb_gpu, &len);
	assert_non_null(blob);
	assert_int_equal(apple_props_validate(blob, len, &info, NULL), 0);
	assert_int_equal(info.len, len);
	assert_int_equal(info.nodes, 3);
	assert_int_equal(info.props, 12);
	assert_int_equal(info.bools, 3);
	assert_int_equal(apple_props_parse(blob, len, &collect_ops, &c, NULL), 0);
	assert_int_equal(c.nodes, 3);
	assert_int_equal(c.props, 12);
	assert_string_equal(c.paths[0],
			    "PciRoot(0x0)/Pci(0x1,0x0)/Pci(0x0,0x0)/Pci(0x0,0x0)/Pci(0x0,0x0)");
	assert_string_equal(c.paths[1], "PciRoot(0x0)/Pci(0x1,0x1)/Pci(0x0,0x0)");
	assert_string_equal(c.paths[2], "PciRoot(0x0)/Pci(0x1b,0x0)");
	assert_string_equal(c.keys[0], "ThunderboltDROM");
	assert_int_equal(c.vlens[0], sizeof(sample_drom));
	assert_string_equal(c.keys[2], "power-save");
	assert_int_equal(c.vlens[2], 0);
	assert_string_equal(c.keys[4], "model");
	assert_int_equal(c.vlens[4], strlen("NVIDIA GeForce GT 650M") + 1);
	free(blob);
}

/* The reference's worked example: header len 0x99, one node of 0x8d bytes. */
static void test_blob_reference_example(void **state)
{
	static const u8 head[] = {
		0x99, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0x8d, 0, 0, 0, 3, 0, 0, 0,
		0x02, 0x01, 0x0c, 0x00, 0xd0, 0x41, 0x03, 0x0a, 0x00, 0x00, 0x00, 0x00,
		0x01, 0x01, 0x06, 0x00, 0x00, 0x1b, 0x7f, 0xff, 0x04, 0x00, 0x28, 0, 0, 0,
		'P', 0, 'i', 0, 'n', 0,
	};
	size_t len;
	u8 *blob;

	(void)state;
	blob = sample_encode(&sample_tb_gpu[2], &len);
	assert_non_null(blob);
	assert_int_equal(len, 0x99);
	assert_memory_equal(blob, head, sizeof(head));
	free(blob);
}

static void test_blob_exotic_nodes(void **state)
{
	struct apple_props_info info;
	struct collect c = { 0 };
	size_t len;
	u8 *blob;

	(void)state;
	blob = sample_encode(sample_exotic, &len);
	assert_non_null(blob);
	assert_int_equal(apple_props_validate(blob, len, &info, NULL), 0);
	assert_int_equal(info.nodes, 6);
	assert_int_equal(info.props, 5);
	assert_int_equal(apple_props_parse(blob, len, &collect_ops, &c, NULL), 0);
	assert_string_equal(c.paths[0], "AcpiEx(PNP0A08,PNP0A03,0x0,,,)");
	assert_string_equal(c.paths[4], "Path(5,1,abcd),PciRoot(0x1)");
	assert_string_equal(c.paths[5], "Acpi(PNP0C09,0x0)");
	assert_string_equal(c.keys[4], "caf\xc3\xa9-\xe2\x82\xac");
	free(blob);
}

static void test_blob_empty(void **state)
{
	static const u8 empty[] = { 12, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0 };
	struct apple_props_info info;
	struct apple_props_enc enc;
	u8 buf[12];
	size_t len;

	(void)state;
	assert_int_equal(apple_props_validate(empty, sizeof(empty), &info, NULL), 0);
	assert_int_equal(info.nodes, 0);
	apple_props_enc_init(&enc, buf, sizeof(buf));
	assert_int_equal(apple_props_enc_finish(&enc, &len), 0);
	assert_int_equal(len, 12);
	assert_memory_equal(buf, empty, 12);
}

/* decode -> encode -> decode: the second blob is byte-identical */
static void roundtrip(const struct sample_node *nodes)
{
	struct apple_props_enc enc;
	struct collect c = { 0 };
	size_t len, len2;
	u8 *blob, *blob2;

	blob = sample_encode(nodes, &len);
	assert_non_null(blob);
	blob2 = malloc(len);
	assert_non_null(blob2);
	apple_props_enc_init(&enc, blob2, len);
	c.enc = &enc;
	assert_int_equal(apple_props_parse(blob, len, &collect_ops, &c, NULL), 0);
	assert_int_equal(apple_props_enc_finish(&enc, &len2), 0);
	assert_int_equal(len2, len);
	assert_memory_equal(blob, blob2, len);
	assert_int_equal(apple_props_validate(blob2, len2, NULL, NULL), 0);
	free(blob);
	free(blob2);
}

static void test_roundtrip_tb_gpu(void **state)
{
	(void)state;
	roundtrip(sample_tb_gpu);
}

static void test_roundtrip_exotic(void **state)
{
	(void)state;
	roundtrip(sample_exotic);
}

/* Malformed blobs */

/*
 * A small valid blob to break: header, one node PciRoot(0x0)/Pci(0x1b,0x0)
 * with two properties: "ab" = 01 02, "c" (boolean).
 */
static const u8 good[] = {
	/* 0 */ 0x3a, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
	/* 12 */ 0x2e, 0, 0, 0, 2, 0, 0, 0,
	/* 20 */ 0x02, 0x01, 0x0c, 0x00, 0xd0, 0x41, 0x03, 0x0a, 0x00, 0x00, 0x00, 0x00,
	/* 32 */ 0x01, 0x01, 0x06, 0x00, 0x00, 0x1b, 0x7f, 0xff, 0x04, 0x00,
	/* 42 */ 0x0a, 0, 0, 0, 'a', 0, 'b', 0, 0, 0,
	/* 52 */ 0x06, 0, 0, 0, 0x01, 0x02,
	/* 58 */
};

/* Good with the second property ("c", boolean) appended by hand at 58. */
static const u8 good_tail[] = { 0x08, 0, 0, 0, 'c', 0, 0, 0, 0x04, 0, 0, 0 };

struct blob {
	u8 b[128];
	size_t len;
};

static void make_good(struct blob *b)
{
	memcpy(b->b, good, sizeof(good));
	memcpy(b->b + sizeof(good), good_tail, sizeof(good_tail));
	b->len = sizeof(good) + sizeof(good_tail);
	b->b[0] = (u8)b->len;
	b->b[12] = (u8)(b->len - 12);
}

static void set32(struct blob *b, size_t off, u32 v)
{
	b->b[off] = (u8)v;
	b->b[off + 1] = (u8)(v >> 8);
	b->b[off + 2] = (u8)(v >> 16);
	b->b[off + 3] = (u8)(v >> 24);
}

/* Blob length changed by @delta bytes at the end; header and node follow. */
static void resize(struct blob *b, int delta)
{
	b->len += delta;
	set32(b, 0, (u32)b->len);
	set32(b, 12, (u32)(b->len - 12));
}

static void expect_blob_error(const u8 *buf, size_t len, int ret, enum apple_props_err code,
			      size_t off)
{
	struct apple_props_error err;
	struct apple_props_info info;
	struct collect c = { 0 };

	memset(&err, 0, sizeof(err));
	memset(&info, 0x5a, sizeof(info));
	assert_int_equal(apple_props_validate(buf, len, &info, &err), ret);
	if (err.code != code)
		fail_msg("expected error %d (%s), got %d (%s) at %zu", code,
			 apple_props_strerror(code), err.code, err.msg, err.offset);
	assert_int_equal(err.offset, off);
	assert_non_null(err.msg);
	assert_string_equal(err.msg, apple_props_strerror(code));
	assert_int_equal(info.nodes, 0x5a5a5a5a);	/* nothing returned */
	memset(&err, 0, sizeof(err));
	assert_int_equal(apple_props_parse(buf, len, &collect_ops, &c, &err), ret);
	assert_int_equal(err.code, code);
	assert_int_equal(c.nodes, 0);			/* no callback ran */
	assert_int_equal(c.props, 0);
}

static void test_bad_good_is_good(void **state)
{
	struct apple_props_info info;
	struct collect c = { 0 };
	struct blob b;

	(void)state;
	make_good(&b);
	assert_int_equal(apple_props_validate(b.b, b.len, &info, NULL), 0);
	assert_int_equal(info.props, 2);
	assert_int_equal(info.bools, 1);
	assert_int_equal(apple_props_parse(b.b, b.len, &collect_ops, &c, NULL), 0);
	assert_string_equal(c.keys[0], "ab");
	assert_string_equal(c.keys[1], "c");
}

static void test_bad_header(void **state)
{
	struct blob b;

	(void)state;
	make_good(&b);
	expect_blob_error(NULL, 0, -EINVAL, APPLE_PROPS_E_TRUNC_HEADER, 0);
	expect_blob_error(b.b, 0, -EINVAL, APPLE_PROPS_E_TRUNC_HEADER, 0);
	expect_blob_error(b.b, 11, -EINVAL, APPLE_PROPS_E_TRUNC_HEADER, 0);
	/* version 2, version 0x10000 (the protocol's, not the blob's) */
	set32(&b, 4, 2);
	expect_blob_error(b.b, b.len, -EOPNOTSUPP, APPLE_PROPS_E_VERSION, 4);
	set32(&b, 4, 0x10000);
	expect_blob_error(b.b, b.len, -EOPNOTSUPP, APPLE_PROPS_E_VERSION, 4);
	/* header length larger and smaller than the buffer */
	make_good(&b);
	set32(&b, 0, (u32)b.len + 1);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_LEN_MISMATCH, 0);
	set32(&b, 0, (u32)b.len - 1);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_LEN_MISMATCH, 0);
	/* device count lying both ways */
	make_good(&b);
	set32(&b, 8, 2);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_DEV_COUNT, 8);
	set32(&b, 8, 0);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_DEV_COUNT, 8);
}

static void test_bad_too_large(void **state)
{
	const size_t mib = 1024 * 1024;
	u8 *big;

	(void)state;
	big = calloc(1, mib);
	assert_non_null(big);
	big[0] = 0; big[1] = 0; big[2] = 0x10; big[3] = 0;	/* len = 1 MiB */
	big[4] = 1;
	expect_blob_error(big, mib, -E2BIG, APPLE_PROPS_E_TOO_LARGE, 0);
	free(big);
}

/* A valid blob just under the limit: one node with a 500 KiB value. */
static void test_large_valid(void **state)
{
	const size_t vlen = 500 * 1024;
	struct apple_props_info info;
	struct apple_props_enc enc;
	u8 *val, *buf;
	size_t len;

	(void)state;
	val = calloc(1, vlen);
	buf = malloc(APPLE_PROPS_MAX_LEN);
	assert_non_null(val);
	assert_non_null(buf);
	apple_props_enc_init(&enc, buf, APPLE_PROPS_MAX_LEN);
	assert_int_equal(apple_props_enc_node(&enc, dp_hda, sizeof(dp_hda)), 0);
	assert_int_equal(apple_props_enc_prop(&enc, "big", val, vlen), 0);
	assert_int_equal(apple_props_enc_finish(&enc, &len), 0);
	assert_int_equal(apple_props_validate(buf, len, &info, NULL), 0);
	assert_int_equal(info.props, 1);
	/* and one that the encoder refuses to make */
	apple_props_enc_init(&enc, NULL, 0);
	assert_int_equal(apple_props_enc_node(&enc, dp_hda, sizeof(dp_hda)), 0);
	assert_int_equal(apple_props_enc_prop(&enc, "big", val, vlen), 0);
	assert_int_equal(apple_props_enc_prop(&enc, "big2", val, vlen), 0);
	assert_int_equal(apple_props_enc_finish(&enc, &len), -E2BIG);
	free(val);
	free(buf);
}

static void test_bad_nodes(void **state)
{
	struct blob b;

	(void)state;
	/* 4 stray bytes after the node: a truncated node header */
	make_good(&b);
	memset(b.b + b.len, 0, 4);
	b.len += 4;
	set32(&b, 0, (u32)b.len);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_NODE_TRUNC, 70);
	/* zero-length node */
	make_good(&b);
	set32(&b, 12, 0);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_NODE_SHORT, 12);
	/* node of 8 bytes: no room for a device path */
	set32(&b, 12, 8);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_NODE_SHORT, 12);
	/* node past the end of the blob */
	set32(&b, 12, (u32)b.len);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_NODE_PAST_END, 12);
	set32(&b, 12, 0xffffffff);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_NODE_PAST_END, 12);
}

static void test_bad_device_paths(void **state)
{
	struct blob b;

	(void)state;
	/* End-Entire turned into End-Instance: the path runs into the keys */
	make_good(&b);
	b.b[39] = EFI_DP_END_INSTANCE;
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_DP_NODE_SHORT, 42);
	/* End node replaced by an unknown type: no End within the node */
	make_good(&b);
	resize(&b, -(int)(b.len - 38));		/* node = header + ACPI + PCI */
	set32(&b, 16, 0);
	set32(&b, 8, 1);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_DP_NO_END, 38);
	/* PCI node length 0 and 3 */
	make_good(&b);
	b.b[34] = 0;
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_DP_NODE_SHORT, 32);
	b.b[34] = 3;
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_DP_NODE_SHORT, 32);
	/* ACPI node with a wrong length */
	make_good(&b);
	b.b[22] = 0x0e;
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_DP_NODE_LEN, 20);
	/* node ends in the middle of a path node header */
	make_good(&b);
	resize(&b, -(int)(b.len - 34));
	set32(&b, 16, 0);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_DP_TRUNC, 32);
}

static void test_bad_keys(void **state)
{
	struct blob b;

	(void)state;
	/* key length below 6, and past the node */
	make_good(&b);
	set32(&b, 42, 5);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_KEY_LEN, 42);
	set32(&b, 42, 0);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_KEY_LEN, 42);
	set32(&b, 42, 0x1000);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_KEY_LEN, 42);
	/* odd UTF-16 length */
	set32(&b, 42, 9);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_KEY_ODD, 42);
	/* key without NUL: "abc" */
	make_good(&b);
	b.b[50] = 'c';
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_KEY_NUL, 42);
	/* empty key: NUL first */
	make_good(&b);
	b.b[46] = 0;
	b.b[48] = 0;
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_KEY_EMPTY, 42);
	/* NUL inside, control character, lone surrogate */
	make_good(&b);
	b.b[46] = 0;
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_KEY_EMPTY, 42);
	make_good(&b);
	b.b[48] = 0;
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_KEY_CHAR, 42);
	make_good(&b);
	b.b[48] = 0x0a;
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_KEY_CHAR, 42);
	make_good(&b);
	b.b[48] = 0x00;
	b.b[49] = 0xd8;
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_KEY_CHAR, 42);
	/* node ends 2 bytes into a key length */
	make_good(&b);
	resize(&b, -(int)(b.len - 44));
	set32(&b, 16, 1);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_KEY_TRUNC, 42);
}

static void test_bad_values(void **state)
{
	struct blob b;

	(void)state;
	make_good(&b);
	set32(&b, 52, 3);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_VAL_LEN, 52);
	set32(&b, 52, 0x100);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_VAL_LEN, 52);
	set32(&b, 52, 0xfffffffc);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_VAL_LEN, 52);
	/* node ends right after the key */
	make_good(&b);
	resize(&b, -(int)(b.len - 54));
	set32(&b, 16, 1);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_VAL_TRUNC, 52);
}

static void test_bad_prop_count(void **state)
{
	struct blob b;

	(void)state;
	/* claims 3, holds 2 */
	make_good(&b);
	set32(&b, 16, 3);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_COUNT_HIGH, 16);
	set32(&b, 16, 0xffffffff);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_COUNT_HIGH, 16);
	/* claims 1 or 0, holds 2 */
	set32(&b, 16, 1);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_COUNT_LOW, 58);
	set32(&b, 16, 0);
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_COUNT_LOW, 42);
}

/* Good with a second "ab" (boolean) appended at 58 instead of "c". */
static const u8 dup_tail[] = { 0x0a, 0, 0, 0, 'a', 0, 'b', 0, 0, 0, 0x04, 0, 0, 0 };

/* One node PciRoot(0x0)/Pci(0x1b,0x0) with properties @keys[0..n), 1-byte values. */
static u8 *encode_keys(const char * const *keys, size_t n, size_t *len)
{
	struct apple_props_enc enc;
	u8 *buf = NULL;
	size_t i;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		apple_props_enc_init(&enc, buf, buf ? *len : 0);
		assert_int_equal(apple_props_enc_node(&enc, dp_hda, sizeof(dp_hda)), 0);
		for (i = 0; i < n; i++)
			assert_int_equal(apple_props_enc_prop(&enc, keys[i], "\x5a", 1), 0);
		if (!apple_props_enc_finish(&enc, len))
			return buf;
		buf = malloc(*len);
		assert_non_null(buf);
	}
	return NULL;
}

/* Offset of property @index of the blob's only node (keys of encode_keys()). */
static size_t prop_offset(const u8 *buf, size_t index)
{
	size_t off = 12 + 8 + sizeof(dp_hda), i;

	for (i = 0; i < index; i++) {
		off += (size_t)buf[off] | (size_t)buf[off + 1] << 8 | (size_t)buf[off + 2] << 16;
		off += (size_t)buf[off] | (size_t)buf[off + 1] << 8 | (size_t)buf[off + 2] << 16;
	}
	return off;
}

static void test_bad_dup_keys(void **state)
{
	static const char * const same_prefix[] = { "ab", "a", "abc", "ac", "b" };
	static const char * const case_differs[] = { "model", "Model", "MODEL" };
	char name[APPLE_PROPS_MAX_NODE_PROPS + 1][16];
	const char *keys[APPLE_PROPS_MAX_NODE_PROPS + 1];
	struct apple_props_info info;
	struct apple_props_enc enc;
	struct collect c = { 0 };
	struct blob b;
	size_t i, len;
	u8 *buf;

	(void)state;
	/* the smallest case: "ab" twice, reported at the second */
	make_good(&b);
	memcpy(b.b + sizeof(good), dup_tail, sizeof(dup_tail));
	resize(&b, (int)sizeof(dup_tail) - (int)sizeof(good_tail));
	expect_blob_error(b.b, b.len, -EINVAL, APPLE_PROPS_E_KEY_DUP, 58);

	/* keys that share a prefix or differ in case are different keys */
	buf = encode_keys(same_prefix, ARRAY_SIZE(same_prefix), &len);
	assert_int_equal(apple_props_validate(buf, len, &info, NULL), 0);
	assert_int_equal(info.props, ARRAY_SIZE(same_prefix));
	free(buf);
	buf = encode_keys(case_differs, ARRAY_SIZE(case_differs), &len);
	assert_int_equal(apple_props_validate(buf, len, NULL, NULL), 0);
	free(buf);

	/* the same key in two nodes is fine */
	buf = malloc(256);
	assert_non_null(buf);
	apple_props_enc_init(&enc, buf, 256);
	assert_int_equal(apple_props_enc_node(&enc, dp_hda, sizeof(dp_hda)), 0);
	assert_int_equal(apple_props_enc_prop(&enc, "layout-id", "\x0c", 1), 0);
	assert_int_equal(apple_props_enc_node(&enc, sample_dp_usb, sizeof(sample_dp_usb)), 0);
	assert_int_equal(apple_props_enc_prop(&enc, "layout-id", "\x0c", 1), 0);
	assert_int_equal(apple_props_enc_finish(&enc, &len), 0);
	assert_int_equal(apple_props_parse(buf, len, &collect_ops, &c, NULL), 0);
	assert_int_equal(c.props, 2);
	free(buf);

	/* as many keys as allowed, all different: valid */
	for (i = 0; i <= APPLE_PROPS_MAX_NODE_PROPS; i++) {
		snprintf(name[i], sizeof(name[i]), "key-%zu", i);
		keys[i] = name[i];
	}
	buf = encode_keys(keys, APPLE_PROPS_MAX_NODE_PROPS, &len);
	assert_int_equal(apple_props_validate(buf, len, &info, NULL), 0);
	assert_int_equal(info.props, APPLE_PROPS_MAX_NODE_PROPS);
	free(buf);

	/* one repeated far apart, near each other, and in the middle */
	keys[APPLE_PROPS_MAX_NODE_PROPS - 1] = name[0];
	buf = encode_keys(keys, APPLE_PROPS_MAX_NODE_PROPS, &len);
	expect_blob_error(buf, len, -EINVAL, APPLE_PROPS_E_KEY_DUP,
			  prop_offset(buf, APPLE_PROPS_MAX_NODE_PROPS - 1));
	free(buf);
	keys[APPLE_PROPS_MAX_NODE_PROPS - 1] = name[APPLE_PROPS_MAX_NODE_PROPS - 2];
	buf = encode_keys(keys, APPLE_PROPS_MAX_NODE_PROPS, &len);
	expect_blob_error(buf, len, -EINVAL, APPLE_PROPS_E_KEY_DUP,
			  prop_offset(buf, APPLE_PROPS_MAX_NODE_PROPS - 1));
	free(buf);
	keys[APPLE_PROPS_MAX_NODE_PROPS - 1] = name[APPLE_PROPS_MAX_NODE_PROPS - 1];
	keys[100] = name[37];
	buf = encode_keys(keys, APPLE_PROPS_MAX_NODE_PROPS, &len);
	expect_blob_error(buf, len, -EINVAL, APPLE_PROPS_E_KEY_DUP, prop_offset(buf, 100));
	free(buf);
	keys[100] = name[100];

	/* one property too many: reported at it */
	buf = encode_keys(keys, APPLE_PROPS_MAX_NODE_PROPS + 1, &len);
	expect_blob_error(buf, len, -EINVAL, APPLE_PROPS_E_NODE_PROPS,
			  prop_offset(buf, APPLE_PROPS_MAX_NODE_PROPS));
	free(buf);
}

/* Every truncation of a valid blob, with lengths patched, fails cleanly. */
static void test_bad_every_truncation(void **state)
{
	struct collect c = { 0 };
	struct blob b;
	size_t cut, full;

	(void)state;
	make_good(&b);
	full = b.len;
	for (cut = 12; cut < full; cut++) {
		make_good(&b);
		resize(&b, -(int)(full - cut));
		if (cut < 20)
			set32(&b, 12, (u32)(cut - 12));
		assert_int_not_equal(apple_props_validate(b.b, b.len, NULL, NULL), 0);
		assert_int_not_equal(apple_props_parse(b.b, b.len, &collect_ops, &c, NULL), 0);
		assert_int_equal(c.nodes, 0);
	}
}

/* Every single-bit flip: no crash; a blob that still validates parses. */
static void test_bad_every_bit_flip(void **state)
{
	struct collect c;
	struct blob b;
	size_t i;
	int bit, ret;

	(void)state;
	make_good(&b);
	for (i = 0; i < b.len; i++) {
		for (bit = 0; bit < 8; bit++) {
			make_good(&b);
			b.b[i] ^= (u8)(1 << bit);
			memset(&c, 0, sizeof(c));
			ret = apple_props_validate(b.b, b.len, NULL, NULL);
			assert_int_equal(apple_props_parse(b.b, b.len, &collect_ops, &c, NULL),
					 ret);
			if (ret)
				assert_int_equal(c.nodes, 0);
		}
	}
}

static void test_callback_stops(void **state)
{
	struct apple_props_error err;
	struct collect c = { 0 };
	size_t len;
	u8 *blob;

	(void)state;
	blob = sample_encode(sample_tb_gpu, &len);
	assert_non_null(blob);
	c.fail_at = 5;
	assert_int_equal(apple_props_parse(blob, len, &collect_ops, &c, &err), -EIO);
	assert_int_equal(err.code, APPLE_PROPS_E_CALLBACK);
	assert_int_equal(c.props, 5);
	free(blob);
}

/* Keys and the encoder */

static void test_key_utf8(void **state)
{
	static const u8 k_ascii[] = { 'a', 0, 'b', 0, 0, 0 };
	static const u8 k_uni[] = { 0xe9, 0x00, 0xac, 0x20, 0, 0 };	/* é € */
	static const u8 k_surr[] = { 0x00, 0xd8, 0, 0 };
	char buf[8];

	(void)state;
	assert_int_equal(apple_props_key_to_utf8(k_ascii, sizeof(k_ascii), buf, sizeof(buf)), 2);
	assert_string_equal(buf, "ab");
	assert_int_equal(apple_props_key_to_utf8(k_ascii, sizeof(k_ascii), buf, 2), -ENOSPC);
	assert_int_equal(apple_props_key_to_utf8(k_ascii, sizeof(k_ascii), buf, 3), 2);
	assert_int_equal(apple_props_key_to_utf8(k_uni, sizeof(k_uni), buf, sizeof(buf)), 5);
	assert_string_equal(buf, "\xc3\xa9\xe2\x82\xac");
	assert_int_equal(apple_props_key_to_utf8(k_uni, sizeof(k_uni), buf, 5), -ENOSPC);
	assert_int_equal(apple_props_key_to_utf8(k_surr, sizeof(k_surr), buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(apple_props_key_to_utf8(k_ascii, 5, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(apple_props_key_to_utf8(k_ascii, 4, buf, sizeof(buf)), -EINVAL);
}

static void test_encoder_errors(void **state)
{
	static const char * const bad_keys[] = {
		"", "a\tb", "\xc3", "\xc0\x80", "\xed\xa0\x80", "\xf0\x9f\x98\x80", "\xff",
		"a\x7f",
	};
	struct apple_props_enc enc;
	u8 buf[64];
	size_t i, len;

	(void)state;
	/* a property before any node */
	apple_props_enc_init(&enc, buf, sizeof(buf));
	assert_int_equal(apple_props_enc_prop(&enc, "a", NULL, 0), -EINVAL);
	/* sticky */
	assert_int_equal(apple_props_enc_node(&enc, dp_hda, sizeof(dp_hda)), -EINVAL);
	assert_int_equal(apple_props_enc_finish(&enc, &len), -EINVAL);
	/* bad paths: no End, trailing bytes after End */
	apple_props_enc_init(&enc, buf, sizeof(buf));
	assert_int_equal(apple_props_enc_node(&enc, dp_hda, sizeof(dp_hda) - 4), -EINVAL);
	apple_props_enc_init(&enc, buf, sizeof(buf));
	assert_int_equal(apple_props_enc_node(&enc, sample_dp_other, 10), -EINVAL);
	apple_props_enc_init(&enc, buf, sizeof(buf));
	assert_int_equal(apple_props_enc_node(&enc, dp_hda, 12), -EINVAL);
	/* bad keys */
	for (i = 0; i < ARRAY_SIZE(bad_keys); i++) {
		apple_props_enc_init(&enc, buf, sizeof(buf));
		assert_int_equal(apple_props_enc_node(&enc, dp_hda, sizeof(dp_hda)), 0);
		if (apple_props_enc_prop(&enc, bad_keys[i], NULL, 0) != -EINVAL)
			fail_msg("accepted key %zu", i);
	}
	/* value pointer missing */
	apple_props_enc_init(&enc, buf, sizeof(buf));
	assert_int_equal(apple_props_enc_node(&enc, dp_hda, sizeof(dp_hda)), 0);
	assert_int_equal(apple_props_enc_prop(&enc, "a", NULL, 3), -EINVAL);
	/* buffer too small: -ENOSPC with the length needed, nothing overrun */
	memset(buf, 0xee, sizeof(buf));
	apple_props_enc_init(&enc, buf, 30);
	assert_int_equal(apple_props_enc_node(&enc, dp_hda, sizeof(dp_hda)), 0);
	assert_int_equal(apple_props_enc_prop(&enc, "ab", "\x01\x02", 2), 0);
	assert_int_equal(apple_props_enc_finish(&enc, &len), -ENOSPC);
	assert_int_equal(len, 58);
	for (i = 30; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0xee);
	/* the same into enough room is the hand-made blob */
	apple_props_enc_init(&enc, buf, sizeof(buf));
	assert_int_equal(apple_props_enc_node(&enc, dp_hda, sizeof(dp_hda)), 0);
	assert_int_equal(apple_props_enc_prop(&enc, "ab", "\x01\x02", 2), 0);
	assert_int_equal(apple_props_enc_finish(&enc, &len), 0);
	assert_int_equal(len, sizeof(good));
	assert_memory_equal(buf + 12, good + 12, 4);	/* node length */
	assert_memory_equal(buf + 20, good + 20, sizeof(good) - 20);
}

static void test_strerror(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < APPLE_PROPS_E_NR; i++) {
		assert_non_null(apple_props_strerror(i));
		assert_true(strlen(apple_props_strerror(i)) > 3);
	}
	assert_string_equal(apple_props_strerror(APPLE_PROPS_E_NR), "unknown error");
	assert_string_equal(apple_props_strerror(-1), "unknown error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dp_acpi_pci),
		cmocka_unit_test(test_dp_vendor_text),
		cmocka_unit_test(test_dp_text_variants),
		cmocka_unit_test(test_dp_text_rejects),
		cmocka_unit_test(test_dp_decode_only_nodes),
		cmocka_unit_test(test_dp_acpi_ex_strings),
		cmocka_unit_test(test_dp_text_truncated),
		cmocka_unit_test(test_dp_malformed),
		cmocka_unit_test(test_dp_route),
		cmocka_unit_test(test_blob_tb_gpu),
		cmocka_unit_test(test_blob_reference_example),
		cmocka_unit_test(test_blob_exotic_nodes),
		cmocka_unit_test(test_blob_empty),
		cmocka_unit_test(test_roundtrip_tb_gpu),
		cmocka_unit_test(test_roundtrip_exotic),
		cmocka_unit_test(test_bad_good_is_good),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_bad_too_large),
		cmocka_unit_test(test_large_valid),
		cmocka_unit_test(test_bad_nodes),
		cmocka_unit_test(test_bad_device_paths),
		cmocka_unit_test(test_bad_keys),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_bad_prop_count),
		cmocka_unit_test(test_bad_dup_keys),
		cmocka_unit_test(test_bad_every_truncation),
		cmocka_unit_test(test_bad_every_bit_flip),
		cmocka_unit_test(test_callback_stops),
		cmocka_unit_test(test_key_utf8),
		cmocka_unit_test(test_encoder_errors),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests_name("apple_props", tests, NULL, NULL);
}
