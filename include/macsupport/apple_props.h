/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Apple EFI device properties and EFI device paths in pure C
 * (src/lib/apple_props.c).
 *
 * One parser for the blob that Apple's firmware hands out through its
 * device-properties protocol (the kernel's setup_data type 5, gfxutil's
 * "bin" format), one for the UEFI device paths inside it, and an encoder
 * that builds such blobs. Compiled into the apple_props module, the
 * apple-props tool, the host unit tests and a libFuzzer target. Nothing
 * here allocates: the caller owns every buffer.
 */
#ifndef MACSUPPORT_APPLE_PROPS_H
#define MACSUPPORT_APPLE_PROPS_H

#include "lib_types.h"

/* APPLE_PROPS_VERSION - the only blob version there is */
#define APPLE_PROPS_VERSION		1
/* APPLE_PROPS_HDR_LEN - bytes of the blob header (len, version, dev_count) */
#define APPLE_PROPS_HDR_LEN		12
/* APPLE_PROPS_NODE_HDR_LEN - bytes of a device node header (len, prop_count) */
#define APPLE_PROPS_NODE_HDR_LEN	8
/*
 * APPLE_PROPS_MAX_LEN - largest blob accepted. The largest blob seen on a
 * real Mac (MacPro6,1, three Thunderbolt controllers and two GPUs) is
 * 136 KiB; 512 KiB leaves room and keeps a bogus length from making
 * anybody allocate or walk megabytes.
 */
#define APPLE_PROPS_MAX_LEN		(512 * 1024)
/*
 * APPLE_PROPS_MAX_NODE_PROPS - most properties one device node may hold.
 * Each key must differ from every other key of its node, which takes up to
 * n * (n - 1) / 2 key comparisons; the bound keeps that small for any blob
 * (see the DOC block "Repeated keys" in src/lib/apple_props.c). Real Macs
 * have at most 82 (MacBookPro8,2's GPU); OpenCore injects a few more.
 */
#define APPLE_PROPS_MAX_NODE_PROPS	256

/* UEFI device path node types and subtypes understood here. */
#define EFI_DP_HW			0x01
#define EFI_DP_HW_PCI			0x01
#define EFI_DP_HW_VENDOR		0x04
#define EFI_DP_ACPI			0x02
#define EFI_DP_ACPI_BASIC		0x01
#define EFI_DP_ACPI_EXPANDED		0x02
#define EFI_DP_MSG			0x03
#define EFI_DP_MSG_USB			0x05
#define EFI_DP_MSG_VENDOR		0x0a
#define EFI_DP_MSG_MAC			0x0b
#define EFI_DP_MEDIA			0x04
#define EFI_DP_MEDIA_VENDOR		0x03
#define EFI_DP_END			0x7f
#define EFI_DP_END_ALT			0xff	/* also accepted, as by the kernel */
#define EFI_DP_END_INSTANCE		0x01
#define EFI_DP_END_ENTIRE		0xff

/* Compressed EISA ids of PCI host bridges, as the ACPI node stores them. */
#define EFI_ACPI_HID_PCI_ROOT		0x0a0341d0	/* PNP0A03 */
#define EFI_ACPI_HID_PCIE_ROOT		0x0a0841d0	/* PNP0A08 */

/**
 * enum apple_props_err - why a blob or a device path was rejected
 * @APPLE_PROPS_OK: no error
 * @APPLE_PROPS_E_TRUNC_HEADER: shorter than the 12-byte header
 * @APPLE_PROPS_E_TOO_LARGE: larger than APPLE_PROPS_MAX_LEN
 * @APPLE_PROPS_E_VERSION: header version is not 1
 * @APPLE_PROPS_E_LEN_MISMATCH: header length differs from the buffer's
 * @APPLE_PROPS_E_DEV_COUNT: header device count differs from the nodes present
 * @APPLE_PROPS_E_NODE_TRUNC: fewer than 8 bytes left for a node header
 * @APPLE_PROPS_E_NODE_SHORT: node length too small to hold even an End node
 *	(this includes a zero-length node)
 * @APPLE_PROPS_E_NODE_PAST_END: node length runs past the end of the blob
 * @APPLE_PROPS_E_DP_TRUNC: fewer than 4 bytes left for a device path node
 * @APPLE_PROPS_E_DP_NODE_SHORT: device path node length below 4
 * @APPLE_PROPS_E_DP_NODE_PAST_END: device path node runs past its container
 * @APPLE_PROPS_E_DP_NODE_LEN: a known device path node has the wrong length
 * @APPLE_PROPS_E_DP_NO_END: device path without an End-Entire node
 * @APPLE_PROPS_E_KEY_TRUNC: fewer than 4 bytes left for a key length
 * @APPLE_PROPS_E_KEY_LEN: key length below 6 or past the end of the node
 * @APPLE_PROPS_E_KEY_ODD: key is not a whole number of UTF-16 units
 * @APPLE_PROPS_E_KEY_NUL: key does not end with a UTF-16 NUL
 * @APPLE_PROPS_E_KEY_EMPTY: key is the empty string
 * @APPLE_PROPS_E_KEY_CHAR: key holds a NUL, a control character or a
 *	surrogate before its end
 * @APPLE_PROPS_E_VAL_TRUNC: fewer than 4 bytes left for a value length
 * @APPLE_PROPS_E_VAL_LEN: value length below 4 or past the end of the node
 * @APPLE_PROPS_E_COUNT_HIGH: node claims more properties than it holds
 * @APPLE_PROPS_E_COUNT_LOW: bytes left in the node after the properties it
 *	claims (the count is too low, or there is junk)
 * @APPLE_PROPS_E_KEY_DUP: the key repeats one of an earlier property of the
 *	same device node (the offset is the repeated key's length field)
 * @APPLE_PROPS_E_NODE_PROPS: a device node holds more than
 *	APPLE_PROPS_MAX_NODE_PROPS properties (the offset is the first one too many)
 * @APPLE_PROPS_E_CALLBACK: a caller's callback stopped the walk
 * @APPLE_PROPS_E_TEXT: device path text could not be parsed
 * @APPLE_PROPS_E_NOSPC: output buffer too small
 * @APPLE_PROPS_E_NR: number of codes
 */
enum apple_props_err {
	APPLE_PROPS_OK,
	APPLE_PROPS_E_TRUNC_HEADER,
	APPLE_PROPS_E_TOO_LARGE,
	APPLE_PROPS_E_VERSION,
	APPLE_PROPS_E_LEN_MISMATCH,
	APPLE_PROPS_E_DEV_COUNT,
	APPLE_PROPS_E_NODE_TRUNC,
	APPLE_PROPS_E_NODE_SHORT,
	APPLE_PROPS_E_NODE_PAST_END,
	APPLE_PROPS_E_DP_TRUNC,
	APPLE_PROPS_E_DP_NODE_SHORT,
	APPLE_PROPS_E_DP_NODE_PAST_END,
	APPLE_PROPS_E_DP_NODE_LEN,
	APPLE_PROPS_E_DP_NO_END,
	APPLE_PROPS_E_KEY_TRUNC,
	APPLE_PROPS_E_KEY_LEN,
	APPLE_PROPS_E_KEY_ODD,
	APPLE_PROPS_E_KEY_NUL,
	APPLE_PROPS_E_KEY_EMPTY,
	APPLE_PROPS_E_KEY_CHAR,
	APPLE_PROPS_E_VAL_TRUNC,
	APPLE_PROPS_E_VAL_LEN,
	APPLE_PROPS_E_COUNT_HIGH,
	APPLE_PROPS_E_COUNT_LOW,
	APPLE_PROPS_E_KEY_DUP,
	APPLE_PROPS_E_NODE_PROPS,
	APPLE_PROPS_E_CALLBACK,
	APPLE_PROPS_E_TEXT,
	APPLE_PROPS_E_NOSPC,
	APPLE_PROPS_E_NR
};

/**
 * struct apple_props_error - where and why parsing stopped
 * @code: what went wrong
 * @offset: byte offset into the blob (or device path, or text) of the
 *	field at fault
 * @msg: static English description of @code, never NULL after a failure
 */
struct apple_props_error {
	enum apple_props_err code;
	size_t offset;
	const char *msg;
};

/**
 * struct apple_props_node - one device node of a blob, as seen by a callback
 * @index: position of the node in the blob, from 0
 * @offset: byte offset of the node header in the blob
 * @path: the node's EFI device path, End-Entire node included
 * @path_len: bytes of @path
 * @prop_count: number of properties (already checked against the node)
 */
struct apple_props_node {
	u32 index;
	size_t offset;
	const u8 *path;
	size_t path_len;
	u32 prop_count;
};

/**
 * struct apple_props_prop - one property, as seen by a callback
 * @index: position of the property in its node, from 0
 * @offset: byte offset of the property's key length in the blob
 * @key: the key, UTF-16LE including its trailing NUL unit
 * @key_len: bytes of @key (even, at least 4)
 * @value: the value bytes; meaningless when @value_len is 0
 * @value_len: bytes of the value; 0 is a boolean property that is present
 */
struct apple_props_prop {
	u32 index;
	size_t offset;
	const u8 *key;
	size_t key_len;
	const u8 *value;
	size_t value_len;
};

/**
 * struct apple_props_ops - callbacks of apple_props_parse()
 * @node: called for each device node before its properties; may be NULL
 * @prop: called for each property of @node; may be NULL
 *
 * A callback returns 0 to go on or a negative errno to stop the walk;
 * apple_props_parse() then returns that value with @APPLE_PROPS_E_CALLBACK.
 */
struct apple_props_ops {
	int (*node)(void *ctx, const struct apple_props_node *node);
	int (*prop)(void *ctx, const struct apple_props_node *node,
		    const struct apple_props_prop *prop);
};

/**
 * struct apple_props_info - what a valid blob holds
 * @len: total bytes
 * @nodes: device nodes
 * @props: properties in all nodes
 * @bools: properties with an empty value
 */
struct apple_props_info {
	size_t len;
	u32 nodes;
	u32 props;
	u32 bools;
};

/**
 * apple_props_strerror() - text for an error code
 * @code: an &enum apple_props_err
 *
 * Return: a static string, "unknown error" for codes out of range.
 */
const char *apple_props_strerror(enum apple_props_err code);

/**
 * apple_props_validate() - check a whole blob without calling anybody
 * @buf: the blob
 * @len: its length in bytes (must equal the header's length)
 * @info: if not NULL, filled with counts when the blob is valid
 * @err: if not NULL, filled when it is not
 *
 * Checks the header, every node, every device path (including the lengths
 * of known node types), every key and every value, that the node and
 * property counts match what is present, and that no node holds a key twice
 * (@APPLE_PROPS_E_KEY_DUP, at the second one) or more than
 * APPLE_PROPS_MAX_NODE_PROPS properties.
 *
 * Return: 0, -EINVAL for a malformed blob, -E2BIG for one larger than
 * APPLE_PROPS_MAX_LEN, -EOPNOTSUPP for a version other than 1.
 */
int apple_props_validate(const void *buf, size_t len, struct apple_props_info *info,
			 struct apple_props_error *err);

/**
 * apple_props_parse() - validate a blob, then walk its nodes and properties
 * @buf: the blob
 * @len: its length in bytes
 * @ops: callbacks
 * @ctx: passed to each callback
 * @err: if not NULL, filled on failure
 *
 * The callbacks run only once the whole blob has validated, so a caller
 * never sees part of a bad blob. Pointers handed to callbacks point into
 * @buf. Nothing is allocated.
 *
 * Return: as apple_props_validate(), or the negative value a callback
 * returned to stop the walk.
 */
int apple_props_parse(const void *buf, size_t len, const struct apple_props_ops *ops,
		      void *ctx, struct apple_props_error *err);

/**
 * apple_props_key_to_utf8() - convert a property key to a C string
 * @key: UTF-16LE key including its NUL unit, as in &struct apple_props_prop
 * @key_len: bytes of @key
 * @buf: output
 * @size: bytes of @buf; 3 * (@key_len / 2) + 1 is always enough
 *
 * Keys are UCS-2 (no surrogate pairs); characters beyond ASCII become UTF-8.
 *
 * Return: length of the string written (without its NUL), -EINVAL for a
 * key that apple_props_validate() would reject, -ENOSPC if @buf is too small.
 */
int apple_props_key_to_utf8(const u8 *key, size_t key_len, char *buf, size_t size);

/**
 * apple_dp_check() - check a device path and find its end
 * @dp: the device path
 * @max: bytes available at @dp
 * @len: set to the bytes up to and including the End-Entire node
 * @err: if not NULL, filled on failure; offsets are relative to @dp
 *
 * Every node must be at least 4 bytes and lie within @max; ACPI (12),
 * PCI (6), End (4), USB (6), MAC (37), vendor (at least 20) and expanded
 * ACPI nodes (at least 19, three NUL-terminated strings) must have their
 * own lengths.
 *
 * Return: 0 or -EINVAL.
 */
int apple_dp_check(const u8 *dp, size_t max, size_t *len, struct apple_props_error *err);

/**
 * apple_dp_to_text() - device path to UEFI text
 * @dp: the device path
 * @len: bytes at @dp
 * @buf: output, always NUL-terminated when @size is not 0
 * @size: bytes of @buf
 *
 * Writes the UEFI specification's text form, e.g.
 * "PciRoot(0x0)/Pci(0x1,0x0)/Pci(0x0,0x0)": PciRoot() for PNP0A03,
 * PcieRoot() for PNP0A08, Acpi(), AcpiEx(), Pci(), USB(), MAC(), VenHw(),
 * VenMsg(), VenMedia(), and Path(type,subtype,hex) for anything else. An
 * End-Instance node becomes ",". Like snprintf(), a too-small buffer gets
 * a truncated string and the return value is the full length.
 *
 * Return: length of the full text (without NUL), or -EINVAL for a path
 * that apple_dp_check() rejects.
 */
int apple_dp_to_text(const u8 *dp, size_t len, char *buf, size_t size);

/**
 * apple_dp_to_text_exact() - device path to UEFI text that reads back
 * @dp: the device path
 * @len: bytes at @dp
 * @buf: output, always NUL-terminated when @size is not 0
 * @size: bytes of @buf
 *
 * As apple_dp_to_text(), but the nodes that apple_dp_from_text() cannot
 * read back exactly (AcpiEx(), USB(), MAC()) are written in the generic
 * form Path(type,subtype,hex), so that the text encodes to the same bytes
 * (the one exception: an End node of type 0xff is written back as 0x7f).
 *
 * Return: as apple_dp_to_text().
 */
int apple_dp_to_text_exact(const u8 *dp, size_t len, char *buf, size_t size);

/**
 * apple_dp_from_text() - UEFI text to device path
 * @text: NUL-terminated text
 * @buf: output; may be NULL when @size is 0
 * @size: bytes of @buf
 * @len: set to the bytes the path needs, End-Entire node included, even
 *	when @buf is too small
 * @err: if not NULL, filled on failure; offsets are into @text
 *
 * Understands the forms that can be written back exactly: PciRoot(uid),
 * PcieRoot(uid), Acpi(HID,uid) with HID as PNPxxxx or a number,
 * Pci(dev,fn), VenHw(), VenMsg() and VenMedia() (GUID[,hex]) and
 * Path(type,subtype[,hex]), with "/" between nodes and "," between
 * instances; numbers are decimal or 0x hex. AcpiEx(), USB()
 * and MAC() nodes are decoded by apple_dp_to_text() but must be given as
 * Path() here.
 *
 * Return: 0, -EINVAL for text that is not understood, -ENOSPC when @buf
 * is too small (@len tells how much is needed).
 */
int apple_dp_from_text(const char *text, u8 *buf, size_t size, size_t *len,
		       struct apple_props_error *err);

/* APPLE_DP_MAX_HOPS - deepest PCI chain apple_dp_to_route() accepts */
#define APPLE_DP_MAX_HOPS		16

/**
 * struct apple_dp_hop - one PCI node of a device path
 * @dev: device number
 * @fn: function number
 */
struct apple_dp_hop {
	u8 dev;
	u8 fn;
};

/**
 * struct apple_dp_route - a device path reduced to what a kernel resolves
 * @hid: compressed EISA _HID of the ACPI root (e.g. EFI_ACPI_HID_PCI_ROOT)
 * @uid: its _UID
 * @nr_hops: number of PCI nodes below the root (0: the root itself)
 * @hops: the PCI nodes, from the root down
 */
struct apple_dp_route {
	u32 hid;
	u32 uid;
	unsigned int nr_hops;
	struct apple_dp_hop hops[APPLE_DP_MAX_HOPS];
};

/**
 * apple_dp_to_route() - device path to an ACPI root and PCI hops
 * @dp: the device path
 * @len: bytes at @dp
 * @route: filled on success
 *
 * The kernel's own parser only understands ACPI, PCI and End nodes, and so
 * does this: the path must be one ACPI node followed by PCI nodes.
 *
 * Return: 0, -EINVAL for a malformed path, -EOPNOTSUPP for any other node
 * (or a second instance), -E2BIG for more than APPLE_DP_MAX_HOPS hops.
 */
int apple_dp_to_route(const u8 *dp, size_t len, struct apple_dp_route *route);

/**
 * struct apple_props_enc - state of the blob encoder
 * @buf: output buffer; may be NULL to only measure
 * @size: bytes of @buf
 * @len: bytes the blob needs so far (grows even past @size)
 * @nodes: device nodes begun so far
 * @node_off: offset of the current node, 0 if none
 * @node_props: properties in the current node
 * @error: first error, sticky; 0 if none
 *
 * Use apple_props_enc_init(), then apple_props_enc_node() and
 * apple_props_enc_prop() in order, then apple_props_enc_finish().
 */
struct apple_props_enc {
	u8 *buf;
	size_t size;
	size_t len;
	u32 nodes;
	size_t node_off;
	u32 node_props;
	int error;
};

/**
 * apple_props_enc_init() - start a blob
 * @enc: encoder state
 * @buf: output buffer, or NULL to only measure
 * @size: bytes of @buf
 */
void apple_props_enc_init(struct apple_props_enc *enc, u8 *buf, size_t size);

/**
 * apple_props_enc_node() - start a device node
 * @enc: encoder state
 * @path: binary device path ending with End-Entire
 * @path_len: bytes of @path, exactly up to the end of End-Entire
 *
 * Return: 0 or the encoder's (sticky) negative errno; -EINVAL for a bad path.
 */
int apple_props_enc_node(struct apple_props_enc *enc, const u8 *path, size_t path_len);

/**
 * apple_props_enc_prop() - add a property to the current node
 * @enc: encoder state
 * @key: UTF-8 key, NUL-terminated, no control characters, at most U+FFFF
 * @value: value bytes; may be NULL when @value_len is 0
 * @value_len: bytes of @value; 0 for a boolean
 *
 * The encoder does not look for a key already in the node, nor count the
 * node's properties against APPLE_PROPS_MAX_NODE_PROPS: the caller must,
 * or check the result with apple_props_validate(), which rejects both.
 *
 * Return: 0 or the encoder's (sticky) negative errno; -EINVAL for a bad key
 * or no current node.
 */
int apple_props_enc_prop(struct apple_props_enc *enc, const char *key,
			 const void *value, size_t value_len);

/**
 * apple_props_enc_finish() - complete the blob's header
 * @enc: encoder state
 * @len: set to the blob's length (also when the buffer was too small)
 *
 * Return: 0; -ENOSPC when @buf was missing or too small (encode again into
 * a buffer of *@len bytes); -E2BIG when the blob would be larger than
 * APPLE_PROPS_MAX_LEN; or an earlier error.
 */
int apple_props_enc_finish(struct apple_props_enc *enc, size_t *len);

/**
 * apple_props_hexval() - value of a hexadecimal digit
 * @c: the character
 *
 * Return: 0 to 15, or -1 when @c is not a hex digit.
 */
int apple_props_hexval(int c);

#endif /* MACSUPPORT_APPLE_PROPS_H */
