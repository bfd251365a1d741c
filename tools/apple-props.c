// SPDX-License-Identifier: GPL-2.0
/*
 * apple-props: decode, encode, validate and dump Apple EFI device
 * properties (the blob of Apple's device-properties protocol, byte-compatible
 * with gfxutil's "bin" format).
 *
 * The blob and device-path code is src/lib/apple_props.c, the same file the
 * apple_props module is built from. See apple-props.1.
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macsupport/apple_props.h"

static const char *prog = "apple-props";

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: %s decode [--json] [--hex] FILE|-\n"
		"       %s encode [--hex-out] JSON-FILE|-\n"
		"       %s validate [--hex] FILE|-\n"
		"       %s dump [--json] [SYSFS-ROOT]\n"
		"       %s --help\n"
		"\n"
		"Apple EFI device properties (the firmware's device-properties blob,\n"
		"gfxutil's binary format).\n"
		"\n"
		"  decode    print a blob: one device path per node (UEFI text), then its\n"
		"            properties as hex; --json prints\n"
		"            [{\"path\": \"...\", \"properties\": {\"key\": \"hex\"}}]\n"
		"  encode    turn that JSON back into a binary blob on standard output\n"
		"            (--hex-out: as hex text)\n"
		"  validate  check a blob; exit 0 if valid, 1 with the error and its offset\n"
		"  dump      print the properties the apple_props module shows in\n"
		"            SYSFS-ROOT/bus/pci/devices/*/apple_properties/ (default /sys)\n"
		"\n"
		"  --hex     the input is hex text (whitespace ignored), not binary\n",
		prog, prog, prog, prog, prog);
}

static int errorf(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		errorf("out of memory");
		exit(2);
	}
	return p;
}

/* Reads a whole file ("-" is standard input); NULL on error (reported). */
static u8 *read_all(const char *name, size_t *len)
{
	FILE *f = strcmp(name, "-") ? fopen(name, "rb") : stdin;
	size_t cap = 65536, n = 0, r;
	u8 *buf;

	if (!f) {
		errorf("%s: %s", name, strerror(errno));
		return NULL;
	}
	buf = xrealloc(NULL, cap + 1);
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			if (cap > 64u * 1024 * 1024) {
				errorf("%s: too large", name);
				goto fail;
			}
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
	}
	if (ferror(f)) {
		errorf("%s: read error", name);
		goto fail;
	}
	if (f != stdin)
		fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	if (f != stdin)
		fclose(f);
	free(buf);
	return NULL;
}

/* Hex text to bytes in place; whitespace ignored. -1 on bad text. */
static int unhex_inplace(u8 *buf, size_t *len, const char *name)
{
	size_t i, o = 0;
	int hi = -1, d;

	for (i = 0; i < *len; i++) {
		if (isspace(buf[i]))
			continue;
		d = apple_props_hexval(buf[i]);
		if (d < 0) {
			errorf("%s: not hex text (byte %zu is 0x%02x)", name, i, buf[i]);
			return -1;
		}
		if (hi < 0) {
			hi = d;
		} else {
			buf[o++] = (u8)(hi << 4 | d);
			hi = -1;
		}
	}
	if (hi >= 0) {
		errorf("%s: odd number of hex digits", name);
		return -1;
	}
	*len = o;
	return 0;
}

static u8 *read_input(const char *name, bool hex, size_t *len)
{
	u8 *buf = read_all(name, len);

	if (buf && hex && unhex_inplace(buf, len, name)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void print_hex(FILE *f, const u8 *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}

/* A JSON string body: keys hold no control characters (the parser saw to it). */
static void print_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/*
 * A value that reads as a string (printable ASCII, at least 2 characters,
 * maybe NUL-terminated), shown beside its hex in the text view.
 */
static bool is_string(const u8 *v, size_t n)
{
	size_t i;

	if (n && !v[n - 1])
		n--;
	if (n < 2)
		return false;
	for (i = 0; i < n; i++)
		if (v[i] < 0x20 || v[i] >= 0x7f || v[i] == '"')
			return false;
	return true;
}

/* Output of decode and dump: either text or JSON. */
struct printer {
	FILE *f;
	bool json;
	unsigned int nodes;
	unsigned int props;
};

static void pr_begin(struct printer *pr)
{
	if (pr->json)
		fputs("[", pr->f);
}

static void pr_node(struct printer *pr, const char *path)
{
	if (pr->json) {
		if (pr->nodes)
			fputs(pr->props ? "\n    }\n  }," : "}\n  },", pr->f);
		fputs("\n  {\n    \"path\": ", pr->f);
		print_json_str(pr->f, path);
		fputs(",\n    \"properties\": {", pr->f);
	} else {
		fprintf(pr->f, "%s\n", path);
	}
	pr->nodes++;
	pr->props = 0;
}

static void pr_prop(struct printer *pr, const char *key, const u8 *v, size_t n)
{
	if (pr->json) {
		fputs(pr->props ? ",\n      " : "\n      ", pr->f);
		print_json_str(pr->f, key);
		fputs(": \"", pr->f);
		print_hex(pr->f, v, n);
		fputc('"', pr->f);
	} else if (!n) {
		fprintf(pr->f, "    %s (boolean)\n", key);
	} else {
		fprintf(pr->f, "    %s = ", key);
		print_hex(pr->f, v, n);
		if (is_string(v, n))
			fprintf(pr->f, " (\"%.*s\")", (int)(v[n - 1] ? n : n - 1),
				(const char *)v);
		fputc('\n', pr->f);
	}
	pr->props++;
}

static void pr_end(struct printer *pr)
{
	if (!pr->json)
		return;
	if (pr->nodes)
		fputs(pr->props ? "\n    }\n  }\n]\n" : "}\n  }\n]\n", pr->f);
	else
		fputs("]\n", pr->f);
}

/* decode */

/* JSON is for encoding back: its paths must give the same bytes. */
static void check_path_exact(const char *text, const struct apple_props_node *node)
{
	size_t len;
	u8 *bin;
	int ret;

	apple_dp_from_text(text, NULL, 0, &len, NULL);
	bin = xrealloc(NULL, len);
	ret = apple_dp_from_text(text, bin, len, &len, NULL);
	if (ret || len != node->path_len || memcmp(bin, node->path, len))
		fprintf(stderr, "%s: warning: device %u: path \"%s\" does not encode back to the same bytes\n",
			prog, node->index, text);
	free(bin);
}

static int decode_node(void *ctx, const struct apple_props_node *node)
{
	struct printer *pr = ctx;
	int (*to_text)(const u8 *dp, size_t len, char *buf, size_t size);
	char *text;
	int n;

	to_text = pr->json ? apple_dp_to_text_exact : apple_dp_to_text;
	n = to_text(node->path, node->path_len, NULL, 0);
	if (n < 0)
		return n;
	text = xrealloc(NULL, (size_t)n + 1);
	to_text(node->path, node->path_len, text, (size_t)n + 1);
	if (pr->json)
		check_path_exact(text, node);
	pr_node(pr, text);
	free(text);
	return 0;
}

static int decode_prop(void *ctx, const struct apple_props_node *node,
		       const struct apple_props_prop *prop)
{
	struct printer *pr = ctx;
	size_t size = 3 * (prop->key_len / 2) + 1;
	char *key = xrealloc(NULL, size);
	int ret;

	(void)node;
	ret = apple_props_key_to_utf8(prop->key, prop->key_len, key, size);
	if (ret >= 0)
		pr_prop(pr, key, prop->value, prop->value_len);
	free(key);
	return ret < 0 ? ret : 0;
}

static const struct apple_props_ops decode_ops = {
	.node = decode_node,
	.prop = decode_prop,
};

static int report_invalid(const char *name, const struct apple_props_error *err)
{
	return errorf("%s: invalid: %s at offset %zu (0x%zx)", name, err->msg, err->offset,
		      err->offset);
}

static int cmd_decode(int argc, char **argv)
{
	struct printer pr = { .f = stdout };
	struct apple_props_error err;
	const char *name = NULL;
	bool hex = false;
	size_t len;
	u8 *buf;
	int i, ret;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			pr.json = true;
		else if (!strcmp(argv[i], "--hex"))
			hex = true;
		else if (!name && (strcmp(argv[i], "-") == 0 || argv[i][0] != '-'))
			name = argv[i];
		else
			return errorf("decode: unexpected argument \"%s\"", argv[i]);
	}
	if (!name)
		return errorf("decode: no input file (use - for standard input)");
	buf = read_input(name, hex, &len);
	if (!buf)
		return 1;
	/* Validate first so that nothing is printed for a bad blob. */
	if (apple_props_validate(buf, len, NULL, &err)) {
		free(buf);
		return report_invalid(name, &err);
	}
	pr_begin(&pr);
	ret = apple_props_parse(buf, len, &decode_ops, &pr, &err);
	pr_end(&pr);
	free(buf);
	if (ret)
		return report_invalid(name, &err);
	return fflush(stdout) ? errorf("write error") : 0;
}

static int cmd_validate(int argc, char **argv)
{
	struct apple_props_error err;
	struct apple_props_info info;
	const char *name = NULL;
	bool hex = false;
	size_t len;
	u8 *buf;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--hex"))
			hex = true;
		else if (!name && (strcmp(argv[i], "-") == 0 || argv[i][0] != '-'))
			name = argv[i];
		else
			return errorf("validate: unexpected argument \"%s\"", argv[i]);
	}
	if (!name)
		return errorf("validate: no input file");
	buf = read_input(name, hex, &len);
	if (!buf)
		return 1;
	if (apple_props_validate(buf, len, &info, &err)) {
		free(buf);
		printf("%s: invalid: %s at offset %zu (0x%zx)\n", name, err.msg, err.offset,
		       err.offset);
		return 1;
	}
	free(buf);
	printf("%s: valid: %zu bytes, %u devices, %u properties (%u boolean)\n", name, info.len,
	       info.nodes, info.props, info.bools);
	return 0;
}

/* encode: a strict parser for exactly the JSON that decode --json prints */

struct jprop {
	char *key;
	u8 *val;
	size_t len;
};

struct jnode {
	char *path;
	struct jprop *props;
	size_t nprops;
};

struct jparser {
	const char *s;
	size_t pos;
	const char *name;
	struct jnode *nodes;
	size_t nnodes;
};

static int jfail(struct jparser *j, const char *what)
{
	size_t i, line = 1, col = 1;

	for (i = 0; i < j->pos && j->s[i]; i++) {
		if (j->s[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	errorf("%s:%zu:%zu: %s", j->name, line, col, what);
	return -1;
}

static void jws(struct jparser *j)
{
	while (j->s[j->pos] == ' ' || j->s[j->pos] == '\t' || j->s[j->pos] == '\n' ||
	       j->s[j->pos] == '\r')
		j->pos++;
}

static bool jeat(struct jparser *j, char c)
{
	jws(j);
	if (j->s[j->pos] != c)
		return false;
	j->pos++;
	return true;
}

static int j_hex4(struct jparser *j, unsigned int *out)
{
	unsigned int v = 0;
	int i, d;

	for (i = 0; i < 4; i++) {
		d = apple_props_hexval((unsigned char)j->s[j->pos]);
		if (d < 0)
			return jfail(j, "bad \\u escape");
		v = v << 4 | (unsigned int)d;
		j->pos++;
	}
	*out = v;
	return 0;
}

static void put_utf8(char *o, size_t *n, unsigned int c)
{
	if (c < 0x80) {
		o[(*n)++] = (char)c;
	} else if (c < 0x800) {
		o[(*n)++] = (char)(0xc0 | c >> 6);
		o[(*n)++] = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		o[(*n)++] = (char)(0xe0 | c >> 12);
		o[(*n)++] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[(*n)++] = (char)(0x80 | (c & 0x3f));
	} else {
		o[(*n)++] = (char)(0xf0 | c >> 18);
		o[(*n)++] = (char)(0x80 | ((c >> 12) & 0x3f));
		o[(*n)++] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[(*n)++] = (char)(0x80 | (c & 0x3f));
	}
}

/* A JSON string into a malloc()ed C string; no NUL characters allowed. */
static int jstring(struct jparser *j, char **out)
{
	size_t start, n = 0;
	unsigned int c, lo;
	char *o;

	if (!jeat(j, '"'))
		return jfail(j, "expected a string");
	start = j->pos;
	o = xrealloc(NULL, strlen(j->s + start) + 1);
	for (;;) {
		c = (unsigned char)j->s[j->pos];
		if (!c) {
			free(o);
			return jfail(j, "unterminated string");
		}
		if (c == '"')
			break;
		if (c < 0x20) {
			free(o);
			return jfail(j, "control character in string");
		}
		j->pos++;
		if (c != '\\') {
			o[n++] = (char)c;
			continue;
		}
		c = (unsigned char)j->s[j->pos++];
		switch (c) {
		case '"':
		case '\\':
		case '/':
			o[n++] = (char)c;
			break;
		case 'b':
			o[n++] = '\b';
			break;
		case 'f':
			o[n++] = '\f';
			break;
		case 'n':
			o[n++] = '\n';
			break;
		case 'r':
			o[n++] = '\r';
			break;
		case 't':
			o[n++] = '\t';
			break;
		case 'u':
			if (j_hex4(j, &c))
				goto fail;
			if (c >= 0xd800 && c < 0xdc00) {
				if (j->s[j->pos] != '\\' || j->s[j->pos + 1] != 'u')
					goto bad_surrogate;
				j->pos += 2;
				if (j_hex4(j, &lo))
					goto fail;
				if (lo < 0xdc00 || lo > 0xdfff)
					goto bad_surrogate;
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
			} else if (c >= 0xdc00 && c <= 0xdfff) {
				goto bad_surrogate;
			}
			if (!c) {
				free(o);
				return jfail(j, "\\u0000 in string");
			}
			/* 6 bytes of escape never yield more than 4 of UTF-8 */
			put_utf8(o, &n, c);
			break;
		default:
			free(o);
			return jfail(j, "bad escape");
		}
	}
	j->pos++;
	o[n] = '\0';
	*out = o;
	return 0;
bad_surrogate:
	free(o);
	return jfail(j, "unpaired surrogate");
fail:
	free(o);
	return -1;
}

static int jprops(struct jparser *j, struct jnode *node)
{
	struct jprop *p;
	char *hex;
	size_t i, n;
	int d1, d2;

	if (!jeat(j, '{'))
		return jfail(j, "expected '{' for properties");
	if (jeat(j, '}'))
		return 0;
	do {
		node->props = xrealloc(node->props, (node->nprops + 1) * sizeof(*node->props));
		p = &node->props[node->nprops];
		memset(p, 0, sizeof(*p));
		if (jstring(j, &p->key))
			return -1;
		node->nprops++;
		/* as the parser does: a key only once per device */
		for (i = 0; i + 1 < node->nprops; i++)
			if (!strcmp(node->props[i].key, p->key))
				return jfail(j, "repeated property key");
		if (!jeat(j, ':'))
			return jfail(j, "expected ':'");
		if (jstring(j, &hex))
			return -1;
		n = strlen(hex);
		if (n % 2) {
			free(hex);
			return jfail(j, "value: odd number of hex digits");
		}
		p->val = xrealloc(NULL, n / 2);
		p->len = n / 2;
		for (i = 0; i < n; i += 2) {
			d1 = apple_props_hexval((unsigned char)hex[i]);
			d2 = apple_props_hexval((unsigned char)hex[i + 1]);
			if (d1 < 0 || d2 < 0) {
				free(hex);
				return jfail(j, "value: not hex");
			}
			p->val[i / 2] = (u8)(d1 << 4 | d2);
		}
		free(hex);
	} while (jeat(j, ','));
	if (!jeat(j, '}'))
		return jfail(j, "expected ',' or '}' in properties");
	return 0;
}

static int jnode(struct jparser *j)
{
	struct jnode *node;
	bool have_props = false;
	char *name;
	int ret;

	if (!jeat(j, '{'))
		return jfail(j, "expected '{' for a device");
	j->nodes = xrealloc(j->nodes, (j->nnodes + 1) * sizeof(*j->nodes));
	node = &j->nodes[j->nnodes++];
	memset(node, 0, sizeof(*node));
	do {
		if (jstring(j, &name))
			return -1;
		if (!jeat(j, ':')) {
			free(name);
			return jfail(j, "expected ':'");
		}
		if (!strcmp(name, "path") && !node->path) {
			ret = jstring(j, &node->path);
		} else if (!strcmp(name, "properties") && !have_props) {
			have_props = true;
			ret = jprops(j, node);
		} else {
			ret = jfail(j, "unexpected or repeated member (want \"path\" and \"properties\")");
		}
		free(name);
		if (ret)
			return ret;
	} while (jeat(j, ','));
	if (!jeat(j, '}'))
		return jfail(j, "expected ',' or '}' in a device");
	if (!node->path || !have_props)
		return jfail(j, "device without \"path\" or \"properties\"");
	return 0;
}

static int jparse(struct jparser *j)
{
	if (!jeat(j, '['))
		return jfail(j, "expected '['");
	if (!jeat(j, ']')) {
		do {
			if (jnode(j))
				return -1;
		} while (jeat(j, ','));
		if (!jeat(j, ']'))
			return jfail(j, "expected ',' or ']'");
	}
	jws(j);
	if (j->s[j->pos])
		return jfail(j, "trailing characters after the array");
	return 0;
}

static void jfree(struct jparser *j)
{
	size_t i, k;

	for (i = 0; i < j->nnodes; i++) {
		for (k = 0; k < j->nodes[i].nprops; k++) {
			free(j->nodes[i].props[k].key);
			free(j->nodes[i].props[k].val);
		}
		free(j->nodes[i].props);
		free(j->nodes[i].path);
	}
	free(j->nodes);
}

#define KEY_RULES "key not allowed (empty, control character or beyond U+FFFF)"

/* Encodes the parsed JSON; reports and returns non-zero on error. */
static int jencode(struct jparser *j, struct apple_props_enc *enc)
{
	struct apple_props_error err;
	size_t i, k, plen;
	u8 *path;
	int ret;

	for (i = 0; i < j->nnodes; i++) {
		struct jnode *n = &j->nodes[i];

		ret = apple_dp_from_text(n->path, NULL, 0, &plen, &err);
		if (ret == -ENOSPC) {
			path = xrealloc(NULL, plen);
			ret = apple_dp_from_text(n->path, path, plen, &plen, &err);
		} else {
			path = NULL;
		}
		if (ret) {
			free(path);
			return errorf("%s: device %zu: path \"%s\": %s at character %zu", j->name,
				      i, n->path, err.msg, err.offset);
		}
		ret = apple_props_enc_node(enc, path, plen);
		free(path);
		if (ret)
			return errorf("%s: device %zu: %s", j->name, i, strerror(-ret));
		for (k = 0; k < n->nprops; k++) {
			ret = apple_props_enc_prop(enc, n->props[k].key, n->props[k].val,
						   n->props[k].len);
			if (ret)
				return errorf("%s: device %zu, property \"%s\": %s", j->name, i,
					      n->props[k].key,
					      ret == -EINVAL ? KEY_RULES : strerror(-ret));
		}
	}
	return 0;
}

static int cmd_encode(int argc, char **argv)
{
	struct apple_props_error err;
	struct jparser j = { 0 };
	struct apple_props_enc enc;
	bool hex_out = false;
	const char *name = NULL;
	size_t len, blen;
	u8 *text, *blob = NULL;
	int i, ret = 1;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--hex-out"))
			hex_out = true;
		else if (!name && (strcmp(argv[i], "-") == 0 || argv[i][0] != '-'))
			name = argv[i];
		else
			return errorf("encode: unexpected argument \"%s\"", argv[i]);
	}
	if (!name)
		return errorf("encode: no input file (use - for standard input)");
	text = read_all(name, &len);
	if (!text)
		return 1;
	if (strlen((char *)text) != len) {
		errorf("%s: NUL byte in JSON", name);
		goto out;
	}
	j.s = (const char *)text;
	j.name = name;
	if (jparse(&j))
		goto out;
	apple_props_enc_init(&enc, NULL, 0);
	if (jencode(&j, &enc))
		goto out;
	ret = apple_props_enc_finish(&enc, &blen);
	if (ret != -ENOSPC) {
		errorf("%s: %s", name, ret == -E2BIG ? "blob would be larger than 512 KiB" :
		       strerror(-ret));
		ret = 1;
		goto out;
	}
	ret = 1;
	blob = xrealloc(NULL, blen);
	apple_props_enc_init(&enc, blob, blen);
	if (jencode(&j, &enc) || apple_props_enc_finish(&enc, &blen))
		goto out;
	/* What encode writes, decode must read (e.g. no more properties per device than allowed). */
	if (apple_props_validate(blob, blen, NULL, &err)) {
		errorf("%s: the blob would be invalid: %s at offset %zu", name, err.msg, err.offset);
		goto out;
	}
	if (hex_out) {
		print_hex(stdout, blob, blen);
		putchar('\n');
	} else if (fwrite(blob, 1, blen, stdout) != blen) {
		errorf("write error");
		goto out;
	}
	ret = fflush(stdout) ? errorf("write error") : 0;
out:
	jfree(&j);
	free(blob);
	free(text);
	return ret;
}

/* dump: what the apple_props module shows in sysfs */

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_dot(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

#define DUMP_PATH_MAX 4096

static int dump_device(struct printer *pr, const char *dir, const char *dev)
{
	char pdir[DUMP_PATH_MAX], file[DUMP_PATH_MAX];
	struct dirent **keys;
	int n, i, ret = 0;
	size_t len;
	u8 *val;

	if ((size_t)snprintf(pdir, sizeof(pdir), "%s/%s/apple_properties", dir, dev) >=
	    sizeof(pdir))
		return errorf("%s/%s: path too long", dir, dev);
	n = scandir(pdir, &keys, not_dot, name_cmp);
	if (n < 0)
		return 0;	/* no properties for this device */
	pr_node(pr, dev);
	for (i = 0; i < n; i++) {
		if ((size_t)snprintf(file, sizeof(file), "%s/%s", pdir, keys[i]->d_name) >=
		    sizeof(file)) {
			ret = errorf("%s/%s: path too long", pdir, keys[i]->d_name);
		} else {
			val = read_all(file, &len);
			if (val)
				pr_prop(pr, keys[i]->d_name, val, len);
			else
				ret = 1;
			free(val);
		}
		free(keys[i]);
	}
	free(keys);
	return ret;
}

static int cmd_dump(int argc, char **argv)
{
	struct printer pr = { .f = stdout };
	const char *root = NULL;
	char dir[DUMP_PATH_MAX];
	struct dirent **devs;
	int i, n, ret = 0;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			pr.json = true;
		else if (!root && argv[i][0] != '-')
			root = argv[i];
		else
			return errorf("dump: unexpected argument \"%s\"", argv[i]);
	}
	if (!root)
		root = "/sys";
	if ((size_t)snprintf(dir, sizeof(dir), "%s/bus/pci/devices", root) >= sizeof(dir))
		return errorf("%s: path too long", root);
	n = scandir(dir, &devs, not_dot, name_cmp);
	if (n < 0)
		return errorf("%s: %s", dir, strerror(errno));
	pr_begin(&pr);
	for (i = 0; i < n; i++) {
		ret |= dump_device(&pr, dir, devs[i]->d_name);
		free(devs[i]);
	}
	pr_end(&pr);
	free(devs);
	if (!pr.nodes)
		fprintf(stderr, "%s: no device in %s has apple_properties (is apple_props loaded?)\n",
			prog, dir);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_help(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		print_help(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "decode"))
		return cmd_decode(argc - 2, argv + 2);
	if (!strcmp(argv[1], "encode"))
		return cmd_encode(argc - 2, argv + 2);
	if (!strcmp(argv[1], "validate"))
		return cmd_validate(argc - 2, argv + 2);
	if (!strcmp(argv[1], "dump"))
		return cmd_dump(argc - 2, argv + 2);
	errorf("unknown command \"%s\"", argv[1]);
	print_help(stderr);
	return 2;
}
