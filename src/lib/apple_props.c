// SPDX-License-Identifier: GPL-2.0
/*
 * Apple EFI device properties: blob parser, device-path parser and
 * printer, blob encoder.
 *
 * Pure C: compiled into apple_props, tools/apple-props, the host unit
 * tests (src/lib/tests/test_apple_props.c) and the libFuzzer target
 * (src/lib/tests/fuzz_apple_props.c). No kernel or libc calls beyond
 * lib_types.h, no allocation.
 */

#include "macsupport/apple_props.h"

/**
 * DOC: Blob format
 *
 * All little-endian. A 12-byte header (u32 total length, u32 version = 1,
 * u32 number of device nodes) is followed by the device nodes. A node is
 * u32 length (whole node), u32 number of properties, a UEFI device path
 * ending with End-Entire (7f ff 04 00), then the properties. A property is
 * u32 key length (including these 4 bytes), the key in UTF-16LE with a
 * trailing NUL unit, u32 value length (including these 4 bytes) and the
 * value; a value length of 4 is an empty value, a boolean that is present.
 *
 * Every length is checked against what is left of its container before it
 * is used, every count against what is present, so no input makes the
 * walk read outside the buffer or loop longer than the buffer allows
 * (each property takes at least 12 bytes, each node at least 12).
 */

/**
 * DOC: Repeated keys
 *
 * A device node must not carry the same key twice: a software node would
 * hold two entries of one name (the first one wins in every lookup) and
 * sysfs cannot show two files of one name. Firmware never does it, but the
 * blob may come from NVRAM or from root, so the validating walk compares
 * each key with the earlier keys of its node and rejects the blob at the
 * repeated key's offset.
 *
 * Nothing is allocated for that. A Bloom filter of KEY_FILTER_BITS bits
 * on the stack, two bits per key, answers "certainly new" for most keys;
 * only when both of the key's bits are already set are the node's earlier
 * keys walked and compared (length, last character, then all bytes). The walk goes back over
 * properties whose lengths were already checked, so it cannot leave the
 * node. A node may hold at most APPLE_PROPS_MAX_NODE_PROPS properties,
 * which bounds even a blob whose keys all hit the same bit: at most
 * 256 * 255 / 2 comparisons per node.
 */
#define KEY_FILTER_BITS		2048
#define KEY_FILTER_WORDS	(KEY_FILTER_BITS / 32)

static u16 get_le16(const u8 *p)
{
	return (u16)(p[0] | p[1] << 8);
}

static u32 get_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static void put_le16(u8 *p, u16 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
}

static void put_le32(u8 *p, u32 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

/* Negative errno returned for each code, and its text. */
static const struct apple_props_errdesc {
	int ret;
	const char *msg;
} apple_props_errs[APPLE_PROPS_E_NR] = {
	[APPLE_PROPS_OK] = { 0, "no error" },
	[APPLE_PROPS_E_TRUNC_HEADER] = { -EINVAL, "blob shorter than its 12-byte header" },
	[APPLE_PROPS_E_TOO_LARGE] = { -E2BIG, "blob larger than 512 KiB" },
	[APPLE_PROPS_E_VERSION] = { -EOPNOTSUPP, "blob version is not 1" },
	[APPLE_PROPS_E_LEN_MISMATCH] = { -EINVAL, "header length differs from the blob's size" },
	[APPLE_PROPS_E_DEV_COUNT] = { -EINVAL,
		"header device count differs from the nodes present" },
	[APPLE_PROPS_E_NODE_TRUNC] = { -EINVAL, "device node header truncated" },
	[APPLE_PROPS_E_NODE_SHORT] = { -EINVAL,
		"device node length too small (zero, or no room for a device path)" },
	[APPLE_PROPS_E_NODE_PAST_END] = { -EINVAL, "device node runs past the end of the blob" },
	[APPLE_PROPS_E_DP_TRUNC] = { -EINVAL, "device path node header truncated" },
	[APPLE_PROPS_E_DP_NODE_SHORT] = { -EINVAL, "device path node length below 4" },
	[APPLE_PROPS_E_DP_NODE_PAST_END] = { -EINVAL,
		"device path node runs past the end of its container" },
	[APPLE_PROPS_E_DP_NODE_LEN] = { -EINVAL,
		"device path node has the wrong length for its type" },
	[APPLE_PROPS_E_DP_NO_END] = { -EINVAL, "device path without an End-Entire node" },
	[APPLE_PROPS_E_KEY_TRUNC] = { -EINVAL, "property key length truncated" },
	[APPLE_PROPS_E_KEY_LEN] = { -EINVAL,
		"property key length below 6 or past the end of the node" },
	[APPLE_PROPS_E_KEY_ODD] = { -EINVAL, "property key has an odd number of bytes (UTF-16)" },
	[APPLE_PROPS_E_KEY_NUL] = { -EINVAL, "property key does not end with a NUL" },
	[APPLE_PROPS_E_KEY_EMPTY] = { -EINVAL, "property key is empty" },
	[APPLE_PROPS_E_KEY_CHAR] = { -EINVAL,
		"property key holds a NUL, control character or surrogate" },
	[APPLE_PROPS_E_VAL_TRUNC] = { -EINVAL, "property value length truncated" },
	[APPLE_PROPS_E_VAL_LEN] = { -EINVAL,
		"property value length below 4 or past the end of the node" },
	[APPLE_PROPS_E_COUNT_HIGH] = { -EINVAL,
		"node claims more properties than it holds" },
	[APPLE_PROPS_E_COUNT_LOW] = { -EINVAL,
		"bytes left in the node after its properties (property count too low?)" },
	[APPLE_PROPS_E_KEY_DUP] = { -EINVAL,
		"property key repeats an earlier key of the same device node" },
	[APPLE_PROPS_E_NODE_PROPS] = { -EINVAL, "device node has more than 256 properties" },
	[APPLE_PROPS_E_CALLBACK] = { -EINVAL, "stopped by the caller" },
	[APPLE_PROPS_E_TEXT] = { -EINVAL, "device path text not understood" },
	[APPLE_PROPS_E_NOSPC] = { -ENOSPC, "output buffer too small" },
};

const char *apple_props_strerror(enum apple_props_err code)
{
	if ((unsigned int)code >= APPLE_PROPS_E_NR)
		return "unknown error";
	return apple_props_errs[code].msg;
}

static int apple_props_fail(struct apple_props_error *err, enum apple_props_err code,
			    size_t offset)
{
	if (err) {
		err->code = code;
		err->offset = offset;
		err->msg = apple_props_strerror(code);
	}
	return apple_props_errs[code].ret;
}

/* Device paths */

static bool dp_is_end(u8 type)
{
	return type == EFI_DP_END || type == EFI_DP_END_ALT;
}

/* Is a NUL within p[0..len)? Returns the offset after it, or 0. */
static size_t dp_strend(const u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!p[i])
			return i + 1;
	return 0;
}

/* Length rules of the node types this file knows. */
static bool dp_node_len_ok(const u8 *n, u16 len)
{
	u8 type = n[0], sub = n[1];
	size_t a, b;

	if (dp_is_end(type)) {
		if (sub != EFI_DP_END_INSTANCE && sub != EFI_DP_END_ENTIRE)
			return len >= 4;
		return len == 4;
	}
	switch (type << 8 | sub) {
	case EFI_DP_ACPI << 8 | EFI_DP_ACPI_BASIC:
		return len == 12;
	case EFI_DP_ACPI << 8 | EFI_DP_ACPI_EXPANDED:
		if (len < 19)
			return false;
		a = dp_strend(n + 16, len - 16);
		if (!a)
			return false;
		b = dp_strend(n + 16 + a, len - 16 - a);
		if (!b)
			return false;
		return dp_strend(n + 16 + a + b, len - 16 - a - b) != 0;
	case EFI_DP_HW << 8 | EFI_DP_HW_PCI:
		return len == 6;
	case EFI_DP_MSG << 8 | EFI_DP_MSG_USB:
		return len == 6;
	case EFI_DP_MSG << 8 | EFI_DP_MSG_MAC:
		return len == 37;
	case EFI_DP_HW << 8 | EFI_DP_HW_VENDOR:
	case EFI_DP_MSG << 8 | EFI_DP_MSG_VENDOR:
	case EFI_DP_MEDIA << 8 | EFI_DP_MEDIA_VENDOR:
		return len >= 20;
	default:
		return len >= 4;
	}
}

static int dp_check(const u8 *dp, size_t max, size_t *len, size_t base,
		    struct apple_props_error *err)
{
	size_t off = 0;
	u16 nlen;

	while (off < max) {
		if (max - off < 4)
			return apple_props_fail(err, APPLE_PROPS_E_DP_TRUNC, base + off);
		nlen = get_le16(dp + off + 2);
		if (nlen < 4)
			return apple_props_fail(err, APPLE_PROPS_E_DP_NODE_SHORT, base + off);
		if (nlen > max - off)
			return apple_props_fail(err, APPLE_PROPS_E_DP_NODE_PAST_END, base + off);
		if (!dp_node_len_ok(dp + off, nlen))
			return apple_props_fail(err, APPLE_PROPS_E_DP_NODE_LEN, base + off);
		off += nlen;
		if (dp_is_end(dp[off - nlen]) && dp[off - nlen + 1] == EFI_DP_END_ENTIRE) {
			*len = off;
			return 0;
		}
	}
	return apple_props_fail(err, APPLE_PROPS_E_DP_NO_END, base + off);
}

int apple_dp_check(const u8 *dp, size_t max, size_t *len, struct apple_props_error *err)
{
	size_t l;

	if (!dp)
		max = 0;
	return dp_check(dp, max, len ? len : &l, 0, err);
}

/* A bounded string builder: counts what it could not store, like snprintf. */
struct tbuf {
	char *buf;
	size_t size;
	size_t len;
};

static void tb_putc(struct tbuf *t, char c)
{
	if (t->len + 1 < t->size)
		t->buf[t->len] = c;
	t->len++;
}

static void tb_puts(struct tbuf *t, const char *s)
{
	while (*s)
		tb_putc(t, *s++);
}

static const char hex_lower[] = "0123456789abcdef";
static const char hex_upper[] = "0123456789ABCDEF";

/* "0x%x" */
static void tb_hexnum(struct tbuf *t, u32 v)
{
	int shift = 28;

	tb_puts(t, "0x");
	while (shift > 0 && !(v >> shift))
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		tb_putc(t, hex_lower[(v >> shift) & 0xf]);
}

/* Fixed number of hex digits. */
static void tb_hexfix(struct tbuf *t, u32 v, int digits, const char *set)
{
	while (digits--)
		tb_putc(t, set[(v >> (digits * 4)) & 0xf]);
}

static void tb_hexbytes(struct tbuf *t, const u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		tb_putc(t, hex_lower[p[i] >> 4]);
		tb_putc(t, hex_lower[p[i] & 0xf]);
	}
}

static void tb_dec(struct tbuf *t, u32 v)
{
	char d[10];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		tb_putc(t, d[--n]);
}

/* An ACPI _HID: PNPxxxx when it is a compressed "PNP" EISA id, else a number. */
static void tb_acpi_hid(struct tbuf *t, u32 hid)
{
	if ((hid & 0xffff) == 0x41d0) {
		tb_puts(t, "PNP");
		tb_hexfix(t, hid >> 16, 4, hex_upper);
	} else {
		tb_puts(t, "0x");
		tb_hexfix(t, hid, 8, hex_lower);
	}
}

/* EFI_GUID as text: data1-data2-data3-d4[0..1]-d4[2..7], upper case. */
static void tb_guid(struct tbuf *t, const u8 *g)
{
	int i;

	tb_hexfix(t, get_le32(g), 8, hex_upper);
	tb_putc(t, '-');
	tb_hexfix(t, get_le16(g + 4), 4, hex_upper);
	tb_putc(t, '-');
	tb_hexfix(t, get_le16(g + 6), 4, hex_upper);
	tb_putc(t, '-');
	for (i = 8; i < 16; i++) {
		if (i == 10)
			tb_putc(t, '-');
		tb_hexfix(t, g[i], 2, hex_upper);
	}
}

/* A NUL-terminated string from a node, printable ASCII only. */
static void tb_nodestr(struct tbuf *t, const u8 *s)
{
	for (; *s; s++)
		tb_putc(t, *s >= 0x20 && *s < 0x7f ? (char)*s : '?');
}

/* Node types whose text apple_dp_from_text() cannot read back exactly. */
static bool dp_node_lossy(const u8 *n)
{
	switch (n[0] << 8 | n[1]) {
	case EFI_DP_ACPI << 8 | EFI_DP_ACPI_EXPANDED:
	case EFI_DP_MSG << 8 | EFI_DP_MSG_USB:
	case EFI_DP_MSG << 8 | EFI_DP_MSG_MAC:
		return true;
	default:
		return false;
	}
}

static void dp_node_text(struct tbuf *t, const u8 *n, u16 len, bool exact)
{
	u8 type = n[0], sub = n[1];
	const u8 *s;
	u32 hid, uid;

	switch (exact && dp_node_lossy(n) ? 0 : type << 8 | sub) {
	case EFI_DP_ACPI << 8 | EFI_DP_ACPI_BASIC:
		hid = get_le32(n + 4);
		uid = get_le32(n + 8);
		if (hid == EFI_ACPI_HID_PCI_ROOT) {
			tb_puts(t, "PciRoot(");
		} else if (hid == EFI_ACPI_HID_PCIE_ROOT) {
			tb_puts(t, "PcieRoot(");
		} else {
			tb_puts(t, "Acpi(");
			tb_acpi_hid(t, hid);
			tb_putc(t, ',');
		}
		tb_hexnum(t, uid);
		tb_putc(t, ')');
		return;
	case EFI_DP_ACPI << 8 | EFI_DP_ACPI_EXPANDED:
		/* HID, UID, CID, then _HIDSTR, _UIDSTR, _CIDSTR */
		tb_puts(t, "AcpiEx(");
		tb_acpi_hid(t, get_le32(n + 4));
		tb_putc(t, ',');
		tb_acpi_hid(t, get_le32(n + 12));
		tb_putc(t, ',');
		tb_hexnum(t, get_le32(n + 8));
		s = n + 16;
		tb_putc(t, ',');
		tb_nodestr(t, s);
		s += dp_strend(s, len - (s - n));
		tb_putc(t, ',');
		/* _CIDSTR comes last in the node but before _UIDSTR in text */
		tb_nodestr(t, s + dp_strend(s, len - (s - n)));
		tb_putc(t, ',');
		tb_nodestr(t, s);
		tb_putc(t, ')');
		return;
	case EFI_DP_HW << 8 | EFI_DP_HW_PCI:
		tb_puts(t, "Pci(");
		tb_hexnum(t, n[5]);
		tb_putc(t, ',');
		tb_hexnum(t, n[4]);
		tb_putc(t, ')');
		return;
	case EFI_DP_MSG << 8 | EFI_DP_MSG_USB:
		tb_puts(t, "USB(");
		tb_hexnum(t, n[4]);
		tb_putc(t, ',');
		tb_hexnum(t, n[5]);
		tb_putc(t, ')');
		return;
	case EFI_DP_MSG << 8 | EFI_DP_MSG_MAC:
		tb_puts(t, "MAC(");
		tb_hexbytes(t, n + 4, n[36] <= 1 ? 6 : 32);
		tb_putc(t, ',');
		tb_hexnum(t, n[36]);
		tb_putc(t, ')');
		return;
	case EFI_DP_HW << 8 | EFI_DP_HW_VENDOR:
	case EFI_DP_MSG << 8 | EFI_DP_MSG_VENDOR:
	case EFI_DP_MEDIA << 8 | EFI_DP_MEDIA_VENDOR:
		tb_puts(t, type == EFI_DP_HW ? "VenHw(" :
			   type == EFI_DP_MSG ? "VenMsg(" : "VenMedia(");
		tb_guid(t, n + 4);
		if (len > 20) {
			tb_putc(t, ',');
			tb_hexbytes(t, n + 20, len - 20);
		}
		tb_putc(t, ')');
		return;
	default:
		tb_puts(t, "Path(");
		tb_dec(t, type);
		tb_putc(t, ',');
		tb_dec(t, sub);
		if (len > 4) {
			tb_putc(t, ',');
			tb_hexbytes(t, n + 4, len - 4);
		}
		tb_putc(t, ')');
	}
}

static int dp_to_text(const u8 *dp, size_t len, char *buf, size_t size, bool exact)
{
	struct tbuf t = { .buf = buf, .size = buf ? size : 0 };
	size_t off = 0, plen;
	bool first = true;
	u16 nlen;
	int ret;

	ret = apple_dp_check(dp, len, &plen, NULL);
	if (ret)
		return ret;
	while (off < plen) {
		nlen = get_le16(dp + off + 2);
		if (dp_is_end(dp[off])) {
			if (dp[off + 1] == EFI_DP_END_ENTIRE)
				break;
			if (dp[off + 1] == EFI_DP_END_INSTANCE) {
				tb_putc(&t, ',');
				first = true;
				off += nlen;
				continue;
			}
		}
		if (!first)
			tb_putc(&t, '/');
		first = false;
		dp_node_text(&t, dp + off, nlen, exact);
		off += nlen;
	}
	if (t.size)
		t.buf[t.len < t.size ? t.len : t.size - 1] = '\0';
	return t.len > 0x7fffffff ? -EINVAL : (int)t.len;
}

int apple_dp_to_text(const u8 *dp, size_t len, char *buf, size_t size)
{
	return dp_to_text(dp, len, buf, size, false);
}

int apple_dp_to_text_exact(const u8 *dp, size_t len, char *buf, size_t size)
{
	return dp_to_text(dp, len, buf, size, true);
}

int apple_dp_to_route(const u8 *dp, size_t len, struct apple_dp_route *route)
{
	size_t off, plen;
	u16 nlen;
	int ret;

	ret = apple_dp_check(dp, len, &plen, NULL);
	if (ret)
		return ret;
	if (dp[0] != EFI_DP_ACPI || dp[1] != EFI_DP_ACPI_BASIC)
		return -EOPNOTSUPP;
	route->hid = get_le32(dp + 4);
	route->uid = get_le32(dp + 8);
	route->nr_hops = 0;
	for (off = 12; off < plen; off += nlen) {
		nlen = get_le16(dp + off + 2);
		if (dp_is_end(dp[off]) && dp[off + 1] == EFI_DP_END_ENTIRE)
			return 0;
		if (dp[off] != EFI_DP_HW || dp[off + 1] != EFI_DP_HW_PCI)
			return -EOPNOTSUPP;
		if (route->nr_hops == APPLE_DP_MAX_HOPS)
			return -E2BIG;
		route->hops[route->nr_hops].dev = dp[off + 5];
		route->hops[route->nr_hops].fn = dp[off + 4];
		route->nr_hops++;
	}
	return -EINVAL;	/* not reached: apple_dp_check() found the end */
}

/* Device path text parser */

struct tparse {
	const char *s;
	size_t pos;
	u8 *buf;
	size_t size;
	size_t len;
};

static void tp_put(struct tparse *p, u8 v)
{
	if (p->len < p->size)
		p->buf[p->len] = v;
	p->len++;
}

static bool tp_lit(struct tparse *p, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(p->s + p->pos, lit, n))
		return false;
	p->pos += n;
	return true;
}

/**
 * apple_props_hexval() - value of a hexadecimal digit
 * @c: the character
 *
 * Return: 0 to 15, or -1 when @c is not a hex digit.
 */
int apple_props_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A number: 0x hex or decimal, at most @max. */
static bool tp_num(struct tparse *p, u32 max, u32 *out)
{
	const char *s = p->s + p->pos;
	u64 v = 0;
	size_t i = 0;
	int d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		i = 2;
		if (apple_props_hexval((unsigned char)s[i]) < 0)
			return false;
		while ((d = apple_props_hexval((unsigned char)s[i])) >= 0) {
			v = v * 16 + (u64)d;
			if (v > max)
				return false;
			i++;
		}
	} else {
		if (s[0] < '0' || s[0] > '9')
			return false;
		while (s[i] >= '0' && s[i] <= '9') {
			v = v * 10 + (u64)(s[i] - '0');
			if (v > max)
				return false;
			i++;
		}
	}
	p->pos += i;
	*out = (u32)v;
	return true;
}

static void tp_node(struct tparse *p, u8 type, u8 sub, u16 len)
{
	tp_put(p, type);
	tp_put(p, sub);
	tp_put(p, (u8)len);
	tp_put(p, (u8)(len >> 8));
}

static void tp_u32(struct tparse *p, u32 v)
{
	tp_put(p, (u8)v);
	tp_put(p, (u8)(v >> 8));
	tp_put(p, (u8)(v >> 16));
	tp_put(p, (u8)(v >> 24));
}

static bool tp_acpi_hid(struct tparse *p, u32 *hid)
{
	const char *s = p->s + p->pos;
	int i, d;
	u32 v = 0;

	if (strncmp(s, "PNP", 3))
		return tp_num(p, 0xffffffff, hid);
	for (i = 3; i < 7; i++) {
		d = apple_props_hexval((unsigned char)s[i]);
		if (d < 0)
			return false;
		v = v << 4 | (u32)d;
	}
	p->pos += 7;
	*hid = v << 16 | 0x41d0;
	return true;
}

/* Hex digits at p->pos, up to the next ')'; false for none, odd or too many. */
static bool tp_hexdata(struct tparse *p, size_t max, size_t *start, size_t *n)
{
	const char *s = p->s + p->pos;
	size_t i = 0;

	while (apple_props_hexval((unsigned char)s[i]) >= 0)
		i++;
	if (!i || i % 2 || i / 2 > max)
		return false;
	*start = p->pos;
	*n = i;
	p->pos += i;
	return true;
}

static void tp_put_hexdata(struct tparse *p, size_t start, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 2)
		tp_put(p, (u8)(apple_props_hexval((unsigned char)p->s[start + i]) << 4 |
			       apple_props_hexval((unsigned char)p->s[start + i + 1])));
}

/* A GUID, 8-4-4-4-12 hex digits, stored as EFI_GUID (first three fields LE). */
static bool tp_guid(struct tparse *p, u8 *g)
{
	static const u8 digits[] = { 8, 4, 4, 4, 12 };
	const char *s = p->s + p->pos;
	u8 raw[16];
	size_t i, k, o = 0, pos = 0;
	int hi, lo;

	for (i = 0; i < ARRAY_SIZE(digits); i++) {
		if (i && s[pos++] != '-')
			return false;
		for (k = 0; k < digits[i]; k += 2) {
			hi = apple_props_hexval((unsigned char)s[pos]);
			lo = hi < 0 ? -1 : apple_props_hexval((unsigned char)s[pos + 1]);
			if (lo < 0)
				return false;
			raw[o++] = (u8)(hi << 4 | lo);
			pos += 2;
		}
	}
	/* data1, data2, data3 are little-endian in memory */
	g[0] = raw[3];
	g[1] = raw[2];
	g[2] = raw[1];
	g[3] = raw[0];
	g[4] = raw[5];
	g[5] = raw[4];
	g[6] = raw[7];
	g[7] = raw[6];
	memcpy(g + 8, raw + 8, 8);
	p->pos += pos;
	return true;
}

/* One node at p->pos; false when not understood. */
static bool tp_parse_node(struct tparse *p)
{
	u8 guid[16], vtype = 0, vsub = 0;
	u32 a, b, hid;
	size_t start = 0, n, i;

	hid = 0;
	if (tp_lit(p, "PciRoot("))
		hid = EFI_ACPI_HID_PCI_ROOT;
	else if (tp_lit(p, "PcieRoot("))
		hid = EFI_ACPI_HID_PCIE_ROOT;
	if (hid) {
		if (!tp_num(p, 0xffffffff, &a) || !tp_lit(p, ")"))
			return false;
		tp_node(p, EFI_DP_ACPI, EFI_DP_ACPI_BASIC, 12);
		tp_u32(p, hid);
		tp_u32(p, a);
		return true;
	}
	if (tp_lit(p, "Acpi(")) {
		if (!tp_acpi_hid(p, &hid) || !tp_lit(p, ",") ||
		    !tp_num(p, 0xffffffff, &a) || !tp_lit(p, ")"))
			return false;
		tp_node(p, EFI_DP_ACPI, EFI_DP_ACPI_BASIC, 12);
		tp_u32(p, hid);
		tp_u32(p, a);
		return true;
	}
	if (tp_lit(p, "Pci(")) {
		if (!tp_num(p, 0xff, &a) || !tp_lit(p, ",") ||
		    !tp_num(p, 0xff, &b) || !tp_lit(p, ")"))
			return false;
		tp_node(p, EFI_DP_HW, EFI_DP_HW_PCI, 6);
		tp_put(p, (u8)b);
		tp_put(p, (u8)a);
		return true;
	}
	if (tp_lit(p, "Path(")) {
		if (!tp_num(p, 0xff, &a) || !tp_lit(p, ",") || !tp_num(p, 0xff, &b))
			return false;
		/* End-Instance and End-Entire are "," and the end of the text. */
		if (dp_is_end((u8)a) && (b == EFI_DP_END_INSTANCE || b == EFI_DP_END_ENTIRE))
			return false;
		n = 0;
		if (tp_lit(p, ",") && !tp_hexdata(p, 0xffff - 4, &start, &n))
			return false;
		if (!tp_lit(p, ")"))
			return false;
		tp_node(p, (u8)a, (u8)b, (u16)(4 + n / 2));
		tp_put_hexdata(p, start, n);
		return true;
	}
	if (tp_lit(p, "VenHw(")) {
		vtype = EFI_DP_HW;
		vsub = EFI_DP_HW_VENDOR;
	} else if (tp_lit(p, "VenMsg(")) {
		vtype = EFI_DP_MSG;
		vsub = EFI_DP_MSG_VENDOR;
	} else if (tp_lit(p, "VenMedia(")) {
		vtype = EFI_DP_MEDIA;
		vsub = EFI_DP_MEDIA_VENDOR;
	}
	if (vtype) {
		if (!tp_guid(p, guid))
			return false;
		n = 0;
		if (tp_lit(p, ",") && !tp_hexdata(p, 0xffff - 20, &start, &n))
			return false;
		if (!tp_lit(p, ")"))
			return false;
		tp_node(p, vtype, vsub, (u16)(20 + n / 2));
		for (i = 0; i < 16; i++)
			tp_put(p, guid[i]);
		tp_put_hexdata(p, start, n);
		return true;
	}
	return false;
}

int apple_dp_from_text(const char *text, u8 *buf, size_t size, size_t *len,
		       struct apple_props_error *err)
{
	struct tparse p = { .s = text, .buf = buf, .size = buf ? size : 0 };
	size_t node_start, plen;
	int ret;

	*len = 0;
	if (!text)
		return apple_props_fail(err, APPLE_PROPS_E_TEXT, 0);
	for (;;) {
		node_start = p.len;
		if (!tp_parse_node(&p))
			return apple_props_fail(err, APPLE_PROPS_E_TEXT, p.pos);
		/* A Path() may claim a length its data do not fit (e.g. Pci). */
		if (p.len <= p.size && !dp_node_len_ok(p.buf + node_start,
						       (u16)(p.len - node_start)))
			return apple_props_fail(err, APPLE_PROPS_E_TEXT, p.pos);
		if (!text[p.pos])
			break;
		if (text[p.pos] == ',')		/* another instance follows */
			tp_node(&p, EFI_DP_END, EFI_DP_END_INSTANCE, 4);
		else if (text[p.pos] != '/')
			return apple_props_fail(err, APPLE_PROPS_E_TEXT, p.pos);
		p.pos++;
	}
	tp_node(&p, EFI_DP_END, EFI_DP_END_ENTIRE, 4);
	*len = p.len;
	if (p.len > p.size)
		return apple_props_fail(err, APPLE_PROPS_E_NOSPC, p.pos);
	/* Paranoia: what was built must read back. */
	ret = apple_dp_check(buf, p.len, &plen, err);
	if (!ret && plen != p.len)
		ret = apple_props_fail(err, APPLE_PROPS_E_TEXT, p.pos);
	return ret;
}

/* Keys */

/*
 * Checks the key's UTF-16 units (after the length and parity checks):
 * the last is NUL, the first is not, none in between is NUL, a control
 * character or a surrogate.
 */
static enum apple_props_err key_check(const u8 *key, size_t key_len)
{
	size_t i, units = key_len / 2;
	u16 c;

	if (get_le16(key + key_len - 2))
		return APPLE_PROPS_E_KEY_NUL;
	if (units < 2)
		return APPLE_PROPS_E_KEY_EMPTY;
	if (!get_le16(key))
		return APPLE_PROPS_E_KEY_EMPTY;
	for (i = 0; i < units - 1; i++) {
		c = get_le16(key + 2 * i);
		if (c < 0x20 || c == 0x7f || (c >= 0xd800 && c <= 0xdfff))
			return APPLE_PROPS_E_KEY_CHAR;
	}
	return APPLE_PROPS_OK;
}

int apple_props_key_to_utf8(const u8 *key, size_t key_len, char *buf, size_t size)
{
	size_t i, o = 0, units;
	u16 c;

	if (!key || key_len < 4 || key_len % 2 || key_check(key, key_len) != APPLE_PROPS_OK)
		return -EINVAL;
	units = key_len / 2 - 1;
	for (i = 0; i < units; i++) {
		c = get_le16(key + 2 * i);
		if (c < 0x80) {
			if (o + 1 >= size)
				return -ENOSPC;
			buf[o++] = (char)c;
		} else if (c < 0x800) {
			if (o + 2 >= size)
				return -ENOSPC;
			buf[o++] = (char)(0xc0 | c >> 6);
			buf[o++] = (char)(0x80 | (c & 0x3f));
		} else {
			if (o + 3 >= size)
				return -ENOSPC;
			buf[o++] = (char)(0xe0 | c >> 12);
			buf[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			buf[o++] = (char)(0x80 | (c & 0x3f));
		}
	}
	if (o >= size)
		return -ENOSPC;
	buf[o] = '\0';
	return o > 0x7fffffff ? -EINVAL : (int)o;
}

/*
 * Decodes one UTF-8 character of a key at s; 0 when invalid (overlong,
 * surrogate, beyond U+FFFF, control character), else the bytes used.
 */
static size_t utf8_key_char(const char *str, u16 *out)
{
	const u8 *s = (const u8 *)str;
	u32 c;

	if (s[0] < 0x80) {
		c = s[0];
		if (c < 0x20 || c == 0x7f)
			return 0;
		*out = (u16)c;
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) {
		if ((s[1] & 0xc0) != 0x80)
			return 0;
		c = (u32)(s[0] & 0x1f) << 6 | (s[1] & 0x3f);
		if (c < 0x80)
			return 0;
		*out = (u16)c;
		return 2;
	}
	if ((s[0] & 0xf0) == 0xe0) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		c = (u32)(s[0] & 0x0f) << 12 | (u32)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
		if (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))
			return 0;
		*out = (u16)c;
		return 3;
	}
	return 0;
}

/* Repeated keys */

/*
 * Hash of a key for the filter: its bytes four at a time (a key's length
 * is even, so at most two are left over), rotated and added, then
 * murmur3's finaliser so that every bit depends on every byte. Cheap
 * rather than strong: a collision only costs a walk over the node.
 */
static u32 key_hash(const u8 *key, size_t len)
{
	u32 h = (u32)len;
	size_t i;

	for (i = 0; i + 4 <= len; i += 4)
		h = (h << 7 | h >> 25) + get_le32(key + i);
	if (i < len)
		h = (h << 7 | h >> 25) + get_le16(key + i);
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ h >> 16;
}

/*
 * Sets the key's two bits in the filter; true if both were set already
 * (the key may have been seen before).
 */
static bool key_filter_add(u32 *filter, u32 h)
{
	unsigned int a = h % KEY_FILTER_BITS, b = (h >> 16) % KEY_FILTER_BITS;
	bool seen = filter[a / 32] & 1u << (a % 32) && filter[b / 32] & 1u << (b % 32);

	filter[a / 32] |= 1u << (a % 32);
	filter[b / 32] |= 1u << (b % 32);
	return seen;
}

/*
 * Is the key of length field @klen at @b + @p also the key of a property
 * between @first and @p (properties already checked)?
 */
static bool key_seen_before(const u8 *b, size_t first, size_t p, size_t klen)
{
	size_t q = first, qlen;

	while (q < p) {
		qlen = get_le32(b + q);
		/* keys of one length mostly differ in their last character */
		if (qlen == klen && get_le16(b + q + qlen - 4) == get_le16(b + p + klen - 4) &&
		    !memcmp(b + q + 4, b + p + 4, klen - 4))
			return true;
		q += qlen;
		q += get_le32(b + q);
	}
	return false;
}

/* Blob walk */

/*
 * Walks a blob: @dups compares each key with the earlier keys of its node
 * (the validating walk does; the callback walk of a validated blob need not).
 */
static int apple_props_walk(const u8 *b, size_t len, const struct apple_props_ops *ops,
			    void *ctx, bool dups, struct apple_props_info *info,
			    struct apple_props_error *err)
{
	u32 filter[KEY_FILTER_WORDS];
	struct apple_props_node node;
	struct apple_props_prop prop;
	enum apple_props_err kerr;
	size_t off, end, p, first, klen, vlen, nlen;
	u32 count, nodes = 0, props = 0, bools = 0, i;
	int ret;

	if (!b || len < APPLE_PROPS_HDR_LEN)
		return apple_props_fail(err, APPLE_PROPS_E_TRUNC_HEADER, 0);
	if (len > APPLE_PROPS_MAX_LEN)
		return apple_props_fail(err, APPLE_PROPS_E_TOO_LARGE, 0);
	if (get_le32(b + 4) != APPLE_PROPS_VERSION)
		return apple_props_fail(err, APPLE_PROPS_E_VERSION, 4);
	if (get_le32(b) != len)
		return apple_props_fail(err, APPLE_PROPS_E_LEN_MISMATCH, 0);
	count = get_le32(b + 8);

	for (off = APPLE_PROPS_HDR_LEN; off < len; off = end) {
		if (len - off < APPLE_PROPS_NODE_HDR_LEN)
			return apple_props_fail(err, APPLE_PROPS_E_NODE_TRUNC, off);
		nlen = get_le32(b + off);
		if (nlen < APPLE_PROPS_NODE_HDR_LEN + 4)
			return apple_props_fail(err, APPLE_PROPS_E_NODE_SHORT, off);
		if (nlen > len - off)
			return apple_props_fail(err, APPLE_PROPS_E_NODE_PAST_END, off);
		end = off + nlen;

		node.index = nodes;
		node.offset = off;
		node.prop_count = get_le32(b + off + 4);
		p = off + APPLE_PROPS_NODE_HDR_LEN;
		ret = dp_check(b + p, end - p, &node.path_len, p, err);
		if (ret)
			return ret;
		node.path = b + p;
		p += node.path_len;
		first = p;
		if (dups)
			memset(filter, 0, sizeof(filter));
		if (ops && ops->node) {
			ret = ops->node(ctx, &node);
			if (ret)
				goto stopped;
		}

		for (i = 0; i < node.prop_count; i++) {
			if (p == end)
				return apple_props_fail(err, APPLE_PROPS_E_COUNT_HIGH, off + 4);
			if (i == APPLE_PROPS_MAX_NODE_PROPS)
				return apple_props_fail(err, APPLE_PROPS_E_NODE_PROPS, p);
			if (end - p < 4)
				return apple_props_fail(err, APPLE_PROPS_E_KEY_TRUNC, p);
			klen = get_le32(b + p);
			if (klen < 6 || klen > end - p)
				return apple_props_fail(err, APPLE_PROPS_E_KEY_LEN, p);
			if (klen % 2)
				return apple_props_fail(err, APPLE_PROPS_E_KEY_ODD, p);
			kerr = key_check(b + p + 4, klen - 4);
			if (kerr != APPLE_PROPS_OK)
				return apple_props_fail(err, kerr, p);
			if (dups && key_filter_add(filter, key_hash(b + p + 4, klen - 4)) &&
			    key_seen_before(b, first, p, klen))
				return apple_props_fail(err, APPLE_PROPS_E_KEY_DUP, p);
			prop.index = i;
			prop.offset = p;
			prop.key = b + p + 4;
			prop.key_len = klen - 4;
			p += klen;
			if (end - p < 4)
				return apple_props_fail(err, APPLE_PROPS_E_VAL_TRUNC, p);
			vlen = get_le32(b + p);
			if (vlen < 4 || vlen > end - p)
				return apple_props_fail(err, APPLE_PROPS_E_VAL_LEN, p);
			prop.value = b + p + 4;
			prop.value_len = vlen - 4;
			p += vlen;
			props++;
			if (!prop.value_len)
				bools++;
			if (ops && ops->prop) {
				ret = ops->prop(ctx, &node, &prop);
				if (ret)
					goto stopped;
			}
		}
		if (p != end)
			return apple_props_fail(err, APPLE_PROPS_E_COUNT_LOW, p);
		nodes++;
	}
	if (nodes != count)
		return apple_props_fail(err, APPLE_PROPS_E_DEV_COUNT, 8);
	if (info) {
		info->len = len;
		info->nodes = nodes;
		info->props = props;
		info->bools = bools;
	}
	return 0;

stopped:
	apple_props_fail(err, APPLE_PROPS_E_CALLBACK, p);
	return ret;
}

int apple_props_validate(const void *buf, size_t len, struct apple_props_info *info,
			 struct apple_props_error *err)
{
	return apple_props_walk(buf, len, NULL, NULL, true, info, err);
}

int apple_props_parse(const void *buf, size_t len, const struct apple_props_ops *ops,
		      void *ctx, struct apple_props_error *err)
{
	int ret;

	ret = apple_props_walk(buf, len, NULL, NULL, true, NULL, err);
	if (ret)
		return ret;
	return apple_props_walk(buf, len, ops, ctx, false, NULL, err);
}

/* Encoder */

static void enc_put(struct apple_props_enc *enc, const void *data, size_t n)
{
	if (n && enc->buf && enc->len <= enc->size && n <= enc->size - enc->len)
		memcpy(enc->buf + enc->len, data, n);
	enc->len += n;
}

static void enc_put32(struct apple_props_enc *enc, u32 v)
{
	u8 b[4];

	put_le32(b, v);
	enc_put(enc, b, 4);
}

/* Patches a u32 already counted at @off, if it lies in the buffer. */
static void enc_patch32(struct apple_props_enc *enc, size_t off, u32 v)
{
	if (enc->buf && off + 4 <= enc->size)
		put_le32(enc->buf + off, v);
}

static int enc_fail(struct apple_props_enc *enc, int error)
{
	if (!enc->error)
		enc->error = error;
	return enc->error;
}

/* Closes the current node: its length and property count. */
static void enc_close_node(struct apple_props_enc *enc)
{
	if (!enc->node_off)
		return;
	enc_patch32(enc, enc->node_off, (u32)(enc->len - enc->node_off));
	enc_patch32(enc, enc->node_off + 4, enc->node_props);
	enc->node_off = 0;
}

void apple_props_enc_init(struct apple_props_enc *enc, u8 *buf, size_t size)
{
	memset(enc, 0, sizeof(*enc));
	enc->buf = buf;
	enc->size = buf ? size : 0;
	enc_put32(enc, 0);			/* length, set by finish */
	enc_put32(enc, APPLE_PROPS_VERSION);
	enc_put32(enc, 0);			/* device count, set by finish */
}

int apple_props_enc_node(struct apple_props_enc *enc, const u8 *path, size_t path_len)
{
	size_t plen;

	if (enc->error)
		return enc->error;
	if (apple_dp_check(path, path_len, &plen, NULL) || plen != path_len)
		return enc_fail(enc, -EINVAL);
	if (enc->len > APPLE_PROPS_MAX_LEN)
		return enc_fail(enc, -E2BIG);
	enc_close_node(enc);
	enc->node_off = enc->len;
	enc->node_props = 0;
	enc->nodes++;
	enc_put32(enc, 0);
	enc_put32(enc, 0);
	enc_put(enc, path, path_len);
	return 0;
}

int apple_props_enc_prop(struct apple_props_enc *enc, const char *key,
			 const void *value, size_t value_len)
{
	size_t i, n, units = 0;
	u16 c;
	u8 b[2];

	if (enc->error)
		return enc->error;
	if (!enc->node_off || !key || !*key || (value_len && !value))
		return enc_fail(enc, -EINVAL);
	if (value_len > APPLE_PROPS_MAX_LEN || enc->len > APPLE_PROPS_MAX_LEN)
		return enc_fail(enc, -E2BIG);
	for (i = 0; key[i]; i += n, units++) {
		n = utf8_key_char(key + i, &c);
		if (!n)
			return enc_fail(enc, -EINVAL);
		if (units > APPLE_PROPS_MAX_LEN)
			return enc_fail(enc, -E2BIG);
	}
	enc_put32(enc, (u32)(4 + 2 * (units + 1)));
	for (i = 0; key[i]; i += n) {
		n = utf8_key_char(key + i, &c);
		put_le16(b, c);
		enc_put(enc, b, 2);
	}
	put_le16(b, 0);
	enc_put(enc, b, 2);
	enc_put32(enc, (u32)(4 + value_len));
	enc_put(enc, value, value_len);
	enc->node_props++;
	return 0;
}

int apple_props_enc_finish(struct apple_props_enc *enc, size_t *len)
{
	enc_close_node(enc);
	*len = enc->len;
	if (enc->error)
		return enc->error;
	if (enc->len > APPLE_PROPS_MAX_LEN)
		return enc_fail(enc, -E2BIG);
	enc_patch32(enc, 0, (u32)enc->len);
	enc_patch32(enc, 8, enc->nodes);
	if (!enc->buf || enc->len > enc->size)
		return -ENOSPC;
	return 0;
}
