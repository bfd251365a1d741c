// SPDX-License-Identifier: GPL-2.0
/*
 * set-os-fake.c - TEST ONLY: Apple's set_os protocol for the fake firmware
 *
 * DOC: Overview
 *
 * Linked into apple-fw.efi. When the kernel command line the harness wrote
 * to \cmdline.txt holds "apple_fw.set_os=PROTO,TARGET", apple-fw does not
 * start the kernel itself but hands over to the bundle's set-os app
 * (tools/efi, copied to \EFI\macsupport\set-os.efi), the way a Mac's boot
 * entry would start it, after setting up:
 *
 *  PROTO  v2: the set_os protocol, Version 2 (both methods), installed;
 *         v1: Version 1 (only SetOsVersion is to be called);
 *         absent: no protocol.
 *  TARGET path: the app gets the load options "\vmlinuz <kernel options>";
 *         shell: "\EFI\macsupport\set-os.efi vmlinuz <kernel options>",
 *         as the UEFI shell passes them (own name first, no backslash);
 *         missing: "\EFI\missing\vmlinuz <kernel options>" (a load failure);
 *         entries: no load options; Boot00A1 (the kernel, with the kernel
 *         options as optional data, its device path in the short HD() form
 *         when the volume is a partition), Boot00A2 (a missing file) and
 *         Boot00A3 (inactive) are written, BootOrder gets A3, A2, A1 right
 *         after BootCurrent, and BootNext is set to Boot00A2.
 *
 * Everything that happens from then on is recorded, in order, as ASCII
 * lines in the volatile variable SetOsTrace-6b3c5a2e-6f8d-4a31-9e57-
 * 2d1c0b7f4e93, which the guest reads through efivarfs:
 *
 *  "fw: ..."    what the fake firmware did;
 *  "call SetOsVendor \"...\"", "call SetOsVersion \"...\"": each call of
 *               the protocol, with its argument as passed;
 *  "con: ..."   every console line (the set-os app's, then the kernel EFI
 *               stub's): OutputString is wrapped while the trace runs.
 *
 * If the app returns, apple-fw records it and starts the kernel itself.
 */

#include <efi.h>
#include <efilib.h>
#include "set-os-fake.h"

#define MODE_OPTION	L"apple_fw.set_os="
#define SET_OS_APP	L"\\EFI\\macsupport\\set-os.efi"
#define KERNEL_PATH	L"\\vmlinuz"
#define MISSING_KERNEL	L"\\EFI\\missing\\vmlinuz"
#define MISSING_LOADER	L"\\EFI\\missing\\grubx64.efi"

#define TRACE_NAME	L"SetOsTrace"
#define TRACE_MAX	6000	/* within OVMF's volatile variable limit */
#define TRACE_ATTRS	(EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define LINE_MAX	1024
#define ARG_MAX		128	/* longest set_os argument recorded */

#define VAR_NV_ATTRS	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | \
			 EFI_VARIABLE_RUNTIME_ACCESS)
#define ENTRY_KERNEL	0x00a1
#define ENTRY_MISSING	0x00a2
#define ENTRY_INACTIVE	0x00a3

static EFI_GUID set_os_guid = {
	0xc5c5da95, 0x7d5c, 0x45e6, { 0xb2, 0xf1, 0x3f, 0xd5, 0x2b, 0xb1, 0x00, 0x77 }
};

static EFI_GUID trace_guid = {
	0x6b3c5a2e, 0x6f8d, 0x4a31, { 0x9e, 0x57, 0x2d, 0x1c, 0x0b, 0x7f, 0x4e, 0x93 }
};

struct apple_set_os {
	UINT64 version;
	EFI_STATUS (EFIAPI *set_os_version)(CHAR8 *version);
	EFI_STATUS (EFIAPI *set_os_vendor)(CHAR8 *vendor);
};

/* --- the trace ------------------------------------------------------------ */

static CHAR8 trace[TRACE_MAX];
static UINTN trace_len;
static BOOLEAN trace_full;

static void trace_store(void)
{
	uefi_call_wrapper(RT->SetVariable, 5, TRACE_NAME, &trace_guid, TRACE_ATTRS, trace_len,
			  trace);
}

/* Append @c; keeps room for the overflow marker. */
static void trace_char(CHAR8 c)
{
	static const CHAR8 full[] = "...trace full\n";

	if (trace_full)
		return;
	if (trace_len + sizeof(full) >= TRACE_MAX) {
		CopyMem(trace + trace_len, (VOID *)full, sizeof(full) - 1);
		trace_len += sizeof(full) - 1;
		trace_full = TRUE;
		return;
	}
	trace[trace_len++] = c;
}

/* One line: @prefix, then @s (UTF-16, non-ASCII as '?', CR dropped). */
static void trace_line16(const CHAR8 *prefix, const CHAR16 *s)
{
	for (; *prefix; prefix++)
		trace_char(*prefix);
	for (; *s; s++) {
		if (*s == L'\r' || *s == L'\n')
			continue;
		trace_char(*s < 0x20 || *s > 0x7e ? '?' : (CHAR8)*s);
	}
	trace_char('\n');
	trace_store();
}

static void trace_fw(const CHAR16 *fmt, ...)
{
	CHAR16 buf[LINE_MAX];
	va_list args;

	va_start(args, fmt);
	VSPrint(buf, sizeof(buf), fmt, args);
	va_end(args);
	trace_line16((const CHAR8 *)"fw: ", buf);
}

/* --- the console, recorded ------------------------------------------------ */

static EFI_TEXT_OUTPUT_STRING real_output;
static CHAR16 con_line[LINE_MAX];
static UINTN con_len;

static EFIAPI EFI_STATUS tee_output(SIMPLE_TEXT_OUTPUT_INTERFACE *this, CHAR16 *s)
{
	CHAR16 *p;

	for (p = s; p && *p; p++) {
		if (*p == L'\n') {
			con_line[con_len] = 0;
			trace_line16((const CHAR8 *)"con: ", con_line);
			con_len = 0;
		} else if (*p != L'\r' && con_len < LINE_MAX - 1) {
			con_line[con_len++] = *p;
		}
	}
	return real_output(this, s);
}

/*
 * In place: the console's methods find their private data from the
 * interface's address, so a copy of the interface would not do.
 */
static void tee_start(void)
{
	real_output = ST->ConOut->OutputString;
	ST->ConOut->OutputString = tee_output;
}

/* --- the protocol ---------------------------------------------------------- */

static void trace_call(const CHAR8 *method, const CHAR8 *arg)
{
	static const CHAR8 hex[] = "0123456789abcdef";
	const CHAR8 *p;
	UINTN i;

	for (p = (const CHAR8 *)"call "; *p; p++)
		trace_char(*p);
	for (p = method; *p; p++)
		trace_char(*p);
	if (!arg) {
		for (p = (const CHAR8 *)" NULL"; *p; p++)
			trace_char(*p);
	} else {
		trace_char(' ');
		trace_char('"');
		for (i = 0; i < ARG_MAX && arg[i]; i++) {
			if (arg[i] >= 0x20 && arg[i] <= 0x7e && arg[i] != '"' && arg[i] != '\\') {
				trace_char(arg[i]);
			} else {
				trace_char('\\');
				trace_char('x');
				trace_char(hex[arg[i] >> 4]);
				trace_char(hex[arg[i] & 0xf]);
			}
		}
		trace_char('"');
		if (i == ARG_MAX)
			for (p = (const CHAR8 *)" (unterminated)"; *p; p++)
				trace_char(*p);
	}
	trace_char('\n');
	trace_store();
}

static EFIAPI EFI_STATUS fake_set_os_version(CHAR8 *version)
{
	trace_call((const CHAR8 *)"SetOsVersion", version);
	return EFI_SUCCESS;
}

static EFIAPI EFI_STATUS fake_set_os_vendor(CHAR8 *vendor)
{
	trace_call((const CHAR8 *)"SetOsVendor", vendor);
	return EFI_SUCCESS;
}

static struct apple_set_os fake_set_os = {
	.set_os_version = fake_set_os_version,
	.set_os_vendor = fake_set_os_vendor,
};

/* --- the mode --------------------------------------------------------------- */

enum proto_mode { PROTO_NONE, PROTO_V1, PROTO_V2, PROTO_ABSENT };
enum target_mode { TARGET_NONE, TARGET_PATH, TARGET_SHELL, TARGET_MISSING, TARGET_ENTRIES };

static BOOLEAN word_is(const CHAR16 *s, UINTN n, const CHAR16 *word)
{
	return StrLen((CHAR16 *)word) == n && !CompareMem((VOID *)s, (VOID *)word,
							   n * sizeof(CHAR16));
}

/* Parse "apple_fw.set_os=PROTO,TARGET" out of @opts; FALSE if absent. */
static BOOLEAN parse_mode(const CHAR16 *opts, enum proto_mode *proto, enum target_mode *target)
{
	UINTN mlen = StrLen(MODE_OPTION), i, n;
	const CHAR16 *p = opts, *w;

	*proto = PROTO_NONE;
	*target = TARGET_NONE;
	for (; *p; p++) {
		if ((p == opts || p[-1] == L' ') && !CompareMem((VOID *)p, MODE_OPTION,
								 mlen * sizeof(CHAR16)))
			break;
	}
	if (!*p)
		return FALSE;
	p += mlen;
	for (i = 0; i < 2; i++) {
		for (w = p, n = 0; w[n] && w[n] != L',' && w[n] != L' '; n++)
			;
		if (i == 0)
			*proto = word_is(w, n, L"v1") ? PROTO_V1 : word_is(w, n, L"v2") ? PROTO_V2 :
				 word_is(w, n, L"absent") ? PROTO_ABSENT : PROTO_NONE;
		else
			*target = word_is(w, n, L"path") ? TARGET_PATH :
				  word_is(w, n, L"shell") ? TARGET_SHELL :
				  word_is(w, n, L"missing") ? TARGET_MISSING :
				  word_is(w, n, L"entries") ? TARGET_ENTRIES : TARGET_NONE;
		p = w + n;
		if (*p != L',')
			break;
		p++;
	}
	return TRUE;
}

BOOLEAN setos_fake_wanted(const CHAR16 *opts)
{
	enum proto_mode proto;
	enum target_mode target;

	return parse_mode(opts, &proto, &target);
}

/* --- boot entries ------------------------------------------------------------ */

/* @v as four upper-case hex digits, as in Boot####; @buf holds 5 characters. */
static CHAR16 *hex4(CHAR16 *buf, UINT16 v)
{
	static const CHAR16 digits[] = L"0123456789ABCDEF";
	UINTN i;

	for (i = 0; i < 4; i++)
		buf[i] = digits[(v >> (12 - 4 * i)) & 0xf];
	buf[4] = 0;
	return buf;
}

/* EFI_LOAD_OPTION: attributes, path list length, description, path, data */
static EFI_STATUS write_entry(UINT16 num, UINT32 attrs, const CHAR16 *desc,
			      EFI_DEVICE_PATH *dp, UINTN dp_len, const VOID *data, UINTN data_size)
{
	UINTN desc_size = (StrLen((CHAR16 *)desc) + 1) * sizeof(CHAR16);
	UINTN size = 6 + desc_size + dp_len + data_size;
	CHAR16 name[16], hex[5];
	EFI_STATUS status;
	UINT8 *buf;

	buf = AllocateZeroPool(size);
	if (!buf)
		return EFI_OUT_OF_RESOURCES;
	buf[0] = attrs;
	buf[1] = attrs >> 8;
	buf[2] = attrs >> 16;
	buf[3] = attrs >> 24;
	buf[4] = dp_len;
	buf[5] = dp_len >> 8;
	CopyMem(buf + 6, (VOID *)desc, desc_size);
	CopyMem(buf + 6 + desc_size, dp, dp_len);
	if (data_size)
		CopyMem(buf + 6 + desc_size + dp_len, (VOID *)data, data_size);
	SPrint(name, sizeof(name), L"Boot%s", hex4(hex, num));
	status = uefi_call_wrapper(RT->SetVariable, 5, name, &EfiGlobalVariable, VAR_NV_ATTRS,
				   size, buf);
	FreePool(buf);
	if (EFI_ERROR(status))
		trace_fw(L"cannot write %s: %r", name, status);
	return status;
}

/* The short form HD(...)/\vmlinuz if @device is a partition, else the full path. */
static EFI_DEVICE_PATH *kernel_entry_path(EFI_HANDLE device, BOOLEAN *short_form)
{
	EFI_DEVICE_PATH *dp = DevicePathFromHandle(device), *node;
	EFI_DEVICE_PATH *file, *hd, *out;
	UINTN len;

	*short_form = FALSE;
	for (node = dp; node && !IsDevicePathEnd(node); node = NextDevicePathNode(node)) {
		if (DevicePathType(node) == MEDIA_DEVICE_PATH &&
		    DevicePathSubType(node) == MEDIA_HARDDRIVE_DP)
			break;
	}
	if (!node || IsDevicePathEnd(node))
		return FileDevicePath(device, KERNEL_PATH);

	len = DevicePathNodeLength(node);
	hd = AllocateZeroPool(len + END_DEVICE_PATH_LENGTH);
	if (!hd)
		return NULL;
	CopyMem(hd, node, len);
	SetDevicePathEndNode(NextDevicePathNode(hd));
	file = FileDevicePath(NULL, KERNEL_PATH);
	out = file ? AppendDevicePath(hd, file) : NULL;
	FreePool(hd);
	if (file)
		FreePool(file);
	*short_form = out != NULL;
	return out;
}

static void set_u16(const CHAR16 *name, UINT16 v)
{
	EFI_STATUS status;

	status = uefi_call_wrapper(RT->SetVariable, 5, (CHAR16 *)name, &EfiGlobalVariable,
				   VAR_NV_ATTRS, sizeof(v), &v);
	if (EFI_ERROR(status))
		trace_fw(L"cannot write %s: %r", name, status);
}

static EFI_STATUS write_entries(EFI_HANDLE device, const CHAR16 *kopts, UINTN kopts_size)
{
	static const UINT16 ours[] = { ENTRY_INACTIVE, ENTRY_MISSING, ENTRY_KERNEL };
	UINT16 *order, *cur, current = 0xffff, *neworder;
	UINTN size = 0, n, i, j, k = 0;
	EFI_DEVICE_PATH *kpath, *missing;
	BOOLEAN short_form, placed = FALSE;
	EFI_STATUS status;
	CHAR16 *text, hex[5];

	kpath = kernel_entry_path(device, &short_form);
	missing = FileDevicePath(device, MISSING_LOADER);
	if (!kpath || !missing)
		return EFI_OUT_OF_RESOURCES;
	text = DevicePathToStr(kpath);
	trace_fw(L"Boot%s: %s form %s", hex4(hex, ENTRY_KERNEL), short_form ? L"short" : L"full",
		 text ? text : L"?");
	if (text)
		FreePool(text);
	status = write_entry(ENTRY_KERNEL, LOAD_OPTION_ACTIVE, L"Linux (TEST)", kpath,
			     DevicePathSize(kpath), kopts, kopts_size);
	if (!EFI_ERROR(status))
		status = write_entry(ENTRY_MISSING, LOAD_OPTION_ACTIVE, L"missing loader (TEST)",
				     missing, DevicePathSize(missing), NULL, 0);
	/* Inactive: the kernel without options would panic, were it started. */
	if (!EFI_ERROR(status))
		status = write_entry(ENTRY_INACTIVE, 0, L"inactive (TEST)", kpath,
				     DevicePathSize(kpath), NULL, 0);
	FreePool(kpath);
	FreePool(missing);
	if (EFI_ERROR(status))
		return status;

	cur = LibGetVariableAndSize(L"BootCurrent", &EfiGlobalVariable, &size);
	if (cur && size == sizeof(UINT16))
		current = *cur;
	if (cur)
		FreePool(cur);
	order = LibGetVariableAndSize(L"BootOrder", &EfiGlobalVariable, &size);
	n = order ? size / sizeof(UINT16) : 0;
	neworder = AllocateZeroPool((n + 3) * sizeof(UINT16));
	if (!neworder)
		return EFI_OUT_OF_RESOURCES;
	if (current == 0xffff || !order) {
		for (j = 0; j < 3; j++)
			neworder[k++] = ours[j];
		placed = TRUE;
	}
	for (i = 0; i < n; i++) {
		if (order[i] == ENTRY_KERNEL || order[i] == ENTRY_MISSING ||
		    order[i] == ENTRY_INACTIVE)
			continue;
		neworder[k++] = order[i];
		if (!placed && order[i] == current) {
			for (j = 0; j < 3; j++)
				neworder[k++] = ours[j];
			placed = TRUE;
		}
	}
	if (!placed)
		for (j = 0; j < 3; j++)
			neworder[k++] = ours[j];
	status = uefi_call_wrapper(RT->SetVariable, 5, L"BootOrder", &EfiGlobalVariable,
				   VAR_NV_ATTRS, k * sizeof(UINT16), neworder);
	if (EFI_ERROR(status))
		trace_fw(L"cannot write BootOrder: %r", status);
	text = PoolPrint(L"BootCurrent %s, BootOrder", hex4(hex, current));
	for (i = 0; text && i < k; i++) {
		CHAR16 *t = PoolPrint(L"%s %s", text, hex4(hex, neworder[i]));

		FreePool(text);
		text = t;
	}
	trace_fw(L"%s", text ? text : L"?");
	if (text)
		FreePool(text);
	if (order)
		FreePool(order);
	FreePool(neworder);
	set_u16(L"BootNext", ENTRY_MISSING);
	trace_fw(L"BootNext %s", hex4(hex, ENTRY_MISSING));
	return status;
}

/* --- the hand-over ------------------------------------------------------------ */

EFI_STATUS setos_fake_boot(EFI_HANDLE image, EFI_HANDLE device, const CHAR16 *kopts,
			   UINTN kopts_size)
{
	enum proto_mode proto;
	enum target_mode target;
	EFI_LOADED_IMAGE *li;
	EFI_DEVICE_PATH *path;
	CHAR16 *opts = NULL;
	EFI_HANDLE handle = NULL, app;
	EFI_STATUS status;

	parse_mode(kopts, &proto, &target);
	trace_store();
	tee_start();
	if (proto == PROTO_NONE || target == TARGET_NONE) {
		trace_fw(L"bad apple_fw.set_os= (want v1|v2|absent,path|shell|missing|entries)");
		return EFI_INVALID_PARAMETER;
	}
	if (proto != PROTO_ABSENT) {
		fake_set_os.version = proto == PROTO_V1 ? 1 : 2;
		status = uefi_call_wrapper(BS->InstallProtocolInterface, 4, &handle, &set_os_guid,
					   EFI_NATIVE_INTERFACE, &fake_set_os);
		if (EFI_ERROR(status)) {
			trace_fw(L"cannot install the set_os protocol: %r", status);
			return status;
		}
		trace_fw(L"set_os protocol version %d installed", (INT32)fake_set_os.version);
	} else {
		trace_fw(L"no set_os protocol");
	}

	switch (target) {
	case TARGET_PATH:
		opts = PoolPrint(L"%s %s", KERNEL_PATH, kopts);
		break;
	case TARGET_SHELL:
		opts = PoolPrint(L"%s %s %s", SET_OS_APP, KERNEL_PATH + 1, kopts);
		break;
	case TARGET_MISSING:
		opts = PoolPrint(L"%s %s", MISSING_KERNEL, kopts);
		break;
	default:
		status = write_entries(device, kopts, kopts_size);
		if (EFI_ERROR(status))
			return status;
		break;
	}
	if (target != TARGET_ENTRIES && !opts)
		return EFI_OUT_OF_RESOURCES;

	path = FileDevicePath(device, SET_OS_APP);
	if (!path)
		return EFI_OUT_OF_RESOURCES;
	status = uefi_call_wrapper(BS->LoadImage, 6, FALSE, image, path, NULL, 0, &app);
	FreePool(path);
	if (EFI_ERROR(status)) {
		trace_fw(L"cannot load %s: %r", SET_OS_APP, status);
		return status;
	}
	status = uefi_call_wrapper(BS->HandleProtocol, 3, app, &LoadedImageProtocol,
				   (VOID **)&li);
	if (EFI_ERROR(status))
		return status;
	if (opts) {
		li->LoadOptions = opts;
		li->LoadOptionsSize = (StrLen(opts) + 1) * sizeof(CHAR16);
	}
	trace_fw(L"starting %s with %d bytes of load options", SET_OS_APP,
		 opts ? (INT32)li->LoadOptionsSize : 0);
	trace_fw(L"kernel options: %s", kopts);
	status = uefi_call_wrapper(BS->StartImage, 3, app, NULL, NULL);
	trace_fw(L"set-os.efi returned: %r", status);
	return status;
}

void setos_fake_fallback(void)
{
	trace_fw(L"starting %s itself", KERNEL_PATH);
}
