/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sample Apple device-properties blobs, built with the encoder of
 * src/lib/apple_props.c. Shared by test_apple_props.c, the seed generator
 * of the fuzz target (gen_apple_props.c) and the tool tests. Synthetic data
 * only: no bytes from a real Mac.
 */
#ifndef APPLE_PROPS_SAMPLES_H
#define APPLE_PROPS_SAMPLES_H

#include <stdlib.h>
#include <string.h>

#include "macsupport/apple_props.h"

#define SAMPLE_MAX_PROPS 8

/*
 * struct sample_prop - @len < 0 means "strlen(val) + 1" (a C string with
 * its NUL, as Apple stores strings); @len == 0 is a boolean.
 */
struct sample_prop {
	const char *key;
	const void *val;
	int len;
};

/* A node: @text is a device path in UEFI text, or @raw/@raw_len a binary one. */
struct sample_node {
	const char *text;
	const u8 *raw;
	size_t raw_len;
	struct sample_prop props[SAMPLE_MAX_PROPS];
};

/* A Thunderbolt DROM-like blob: CRC8, UID, CRC32, version, length, vendor. */
static const u8 sample_drom[] = {
	0x2a, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xaa, 0xbb, 0xcc, 0xdd,
	0x01, 0x2c, 0x00, 0x01, 0x00, 0x0a, 0x00, 0x01, 0x00, 0x08, 0x81, 0x80, 0x02,
	0x80, 0x00, 0x00, 0x00, 0x08, 0x82, 0x90, 0x01, 0x80, 0x00, 0x00, 0x00, 0x08,
	0x83, 0x80, 0x04, 0x80, 0x01, 0x00, 0x00, 0x05, 0x84, 0x00, 0x00, 0x00, 0x0b,
	0x01, 0x4d, 0x61, 0x63, 0x73, 0x75, 0x70, 0x70, 0x6f, 0x72, 0x74, 0x00,
};

static const u8 sample_uuid[16] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
};

static const u8 sample_u32_one[] = { 0x01, 0x00, 0x00, 0x00 };
static const u8 sample_u32_layout[] = { 0x0c, 0x00, 0x00, 0x00 };
static const u8 sample_zero[] = { 0x00 };

/* The Thunderbolt chain of the brief plus a GPU and an HDA node. */
static const struct sample_node sample_tb_gpu[] = {
	{ .text = "PciRoot(0x0)/Pci(0x1,0x0)/Pci(0x0,0x0)/Pci(0x0,0x0)/Pci(0x0,0x0)",
	  .props = {
		{ "ThunderboltDROM", sample_drom, sizeof(sample_drom) },
		{ "ThunderboltUUID", sample_uuid, sizeof(sample_uuid) },
		{ "power-save", NULL, 0 },
	} },
	{ .text = "PciRoot(0x0)/Pci(0x1,0x1)/Pci(0x0,0x0)",
	  .props = {
		{ "@0,AAPL,boot-display", NULL, 0 },
		{ "model", "NVIDIA GeForce GT 650M", -1 },
		{ "device_type", "NVDA,Parent", -1 },
		{ "hda-gfx", "onboard-2", -1 },
		{ "@0,connector-type", sample_u32_one, 4 },
		{ "use-backlight-blanking", NULL, 0 },
	} },
	{ .text = "PciRoot(0x0)/Pci(0x1b,0x0)",
	  .props = {
		{ "PinConfigurations", sample_zero, 1 },
		{ "layout-id", sample_u32_layout, 4 },
		{ "hda-gfx", "onboard-1", -1 },
	} },
	{ NULL }
};

/* Expanded ACPI: HID PNP0A08, UID 0, CID PNP0A03, strings "", "", "". */
static const u8 sample_dp_acpi_ex[] = {
	0x02, 0x02, 0x13, 0x00, 0xd0, 0x41, 0x08, 0x0a, 0x00, 0x00, 0x00, 0x00,
	0xd0, 0x41, 0x03, 0x0a, 0x00, 0x00, 0x00, 0x7f, 0xff, 0x04, 0x00,
};

/* PciRoot(0x0)/Pci(0x14,0x0)/USB(0x3,0x0) */
static const u8 sample_dp_usb[] = {
	0x02, 0x01, 0x0c, 0x00, 0xd0, 0x41, 0x03, 0x0a, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x01, 0x06, 0x00, 0x00, 0x14, 0x03, 0x05, 0x06, 0x00, 0x03, 0x00,
	0x7f, 0xff, 0x04, 0x00,
};

/* PciRoot(0x0)/Pci(0x19,0x0)/MAC(001122334455,0x1) */
static const u8 sample_dp_mac[] = {
	0x02, 0x01, 0x0c, 0x00, 0xd0, 0x41, 0x03, 0x0a, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x01, 0x06, 0x00, 0x00, 0x19, 0x03, 0x0b, 0x25, 0x00,
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x7f, 0xff, 0x04, 0x00,
};

/* VenHw(91BD12FE-F6C3-44FB-A5B7-5122AB303AE0,beef)/VenMsg(...)/VenMedia(...) */
static const u8 sample_dp_vendor[] = {
	0x01, 0x04, 0x16, 0x00,
	0xfe, 0x12, 0xbd, 0x91, 0xc3, 0xf6, 0xfb, 0x44, 0xa5, 0xb7, 0x51, 0x22, 0xab, 0x30, 0x3a, 0xe0, 0xbe, 0xef,
	0x03, 0x0a, 0x14, 0x00,
	0xfe, 0x12, 0xbd, 0x91, 0xc3, 0xf6, 0xfb, 0x44, 0xa5, 0xb7, 0x51, 0x22, 0xab, 0x30, 0x3a, 0xe0,
	0x04, 0x03, 0x14, 0x00,
	0xfe, 0x12, 0xbd, 0x91, 0xc3, 0xf6, 0xfb, 0x44, 0xa5, 0xb7, 0x51, 0x22, 0xab, 0x30, 0x3a, 0xe0,
	0x7f, 0xff, 0x04, 0x00,
};

/* Path(5,1,abcd) , PciRoot(0x1): an unknown node and two instances. */
static const u8 sample_dp_other[] = {
	0x05, 0x01, 0x06, 0x00, 0xab, 0xcd, 0x7f, 0x01, 0x04, 0x00,
	0x02, 0x01, 0x0c, 0x00, 0xd0, 0x41, 0x03, 0x0a, 0x01, 0x00, 0x00, 0x00,
	0x7f, 0xff, 0x04, 0x00,
};

static const struct sample_node sample_exotic[] = {
	{ .raw = sample_dp_acpi_ex, .raw_len = sizeof(sample_dp_acpi_ex),
	  .props = { { "acpi-ex", NULL, 0 } } },
	{ .raw = sample_dp_usb, .raw_len = sizeof(sample_dp_usb),
	  .props = { { "usb", "port 3", -1 } } },
	{ .raw = sample_dp_mac, .raw_len = sizeof(sample_dp_mac),
	  .props = { { "mac", NULL, 0 } } },
	{ .raw = sample_dp_vendor, .raw_len = sizeof(sample_dp_vendor),
	  .props = { { "vendor", sample_uuid, 16 } } },
	{ .raw = sample_dp_other, .raw_len = sizeof(sample_dp_other),
	  .props = { { "caf\xc3\xa9-\xe2\x82\xac", "utf-8 key", -1 } } },
	{ .text = "Acpi(PNP0C09,0x0)" },
	{ NULL }
};

/* Encodes @nodes into @enc; returns the encoder's error, 0 if none. */
static inline int sample_encode_into(struct apple_props_enc *enc,
				     const struct sample_node *nodes)
{
	const struct sample_prop *p;
	u8 path[512];
	size_t plen;
	int i, ret;

	for (; nodes->text || nodes->raw; nodes++) {
		if (nodes->text) {
			ret = apple_dp_from_text(nodes->text, path, sizeof(path), &plen, NULL);
			if (ret)
				return ret;
			ret = apple_props_enc_node(enc, path, plen);
		} else {
			ret = apple_props_enc_node(enc, nodes->raw, nodes->raw_len);
		}
		if (ret)
			return ret;
		for (i = 0; i < SAMPLE_MAX_PROPS && nodes->props[i].key; i++) {
			p = &nodes->props[i];
			ret = apple_props_enc_prop(enc, p->key, p->val,
						   p->len < 0 ? strlen(p->val) + 1 : (size_t)p->len);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* Encodes @nodes into a malloc()ed blob; NULL on failure. */
static inline u8 *sample_encode(const struct sample_node *nodes, size_t *len)
{
	struct apple_props_enc enc;
	u8 *buf;

	apple_props_enc_init(&enc, NULL, 0);
	if (sample_encode_into(&enc, nodes) || apple_props_enc_finish(&enc, len) != -ENOSPC)
		return NULL;
	buf = malloc(*len);
	if (!buf)
		return NULL;
	apple_props_enc_init(&enc, buf, *len);
	if (sample_encode_into(&enc, nodes) || apple_props_enc_finish(&enc, len)) {
		free(buf);
		return NULL;
	}
	return buf;
}

#endif /* APPLE_PROPS_SAMPLES_H */
