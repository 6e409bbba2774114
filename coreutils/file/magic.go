package file

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bashbox/bashbox/builtins"
)

func unixTime(sec int64) time.Time { return time.Unix(sec, 0) }

func bin(desc, mime string) (result, bool) {
	return result{desc: desc, mimeType: mime, charset: "binary"}, true
}

// binaryMagic recognises formats by their leading bytes.
func binaryMagic(c *builtins.Call, d []byte) (result, bool) {
	switch {
	case bytes.HasPrefix(d, []byte("\x7fELF")):
		return elfDesc(d)
	case len(d) >= 10 && d[0] == 0x1f && d[1] == 0x8b:
		return gzipDesc(c, d)
	case len(d) >= 4 && bytes.HasPrefix(d, []byte("BZh")) && d[3] >= '1' && d[3] <= '9':
		return bin(fmt.Sprintf("bzip2 compressed data, block size = %c00k", d[3]), "application/x-bzip2")
	case len(d) >= 8 && bytes.HasPrefix(d, []byte("\xfd7zXZ\x00")):
		check := map[byte]string{0: "none", 1: "CRC32", 4: "CRC64", 10: "SHA-256"}[d[7]&0x0f]
		if check == "" {
			check = fmt.Sprintf("unknown %d", d[7]&0x0f)
		}
		return bin("XZ compressed data, checksum "+check, "application/x-xz")
	case bytes.HasPrefix(d, []byte("\x28\xb5\x2f\xfd")):
		return bin("Zstandard compressed data (v0.8+), Dictionary ID: None", "application/zstd")
	case len(d) >= 30 && bytes.HasPrefix(d, []byte("PK\x03\x04")):
		ver := binary.LittleEndian.Uint16(d[4:])
		method := binary.LittleEndian.Uint16(d[8:])
		m := map[uint16]string{0: "store", 8: "deflate", 9: "deflate64", 12: "bzip2", 14: "lzma", 93: "zstd", 95: "xz"}[method]
		if m == "" {
			m = fmt.Sprintf("%d", method)
		}
		return bin(fmt.Sprintf("Zip archive data, at least v%d.%d to extract, compression method=%s", ver/10, ver%10, m), "application/zip")
	case bytes.HasPrefix(d, []byte("PK\x05\x06")):
		return bin("Zip archive data (empty)", "application/zip")
	case len(d) >= 6 && bytes.HasPrefix(d, []byte("7z\xbc\xaf\x27\x1c")):
		return bin(fmt.Sprintf("7-zip archive data, version %d.%d", d[6], d[7]), "application/x-7z-compressed")
	case len(d) >= 512 && (bytes.Equal(d[257:265], []byte("ustar  \x00")) || bytes.Equal(d[257:263], []byte("ustar\x00"))):
		if d[262] == ' ' {
			return bin("POSIX tar archive (GNU)", "application/x-tar")
		}
		return bin("POSIX tar archive", "application/x-tar")
	case len(d) >= 24 && bytes.HasPrefix(d, []byte("\x89PNG\r\n\x1a\n")) && bytes.Equal(d[12:16], []byte("IHDR")):
		return pngDesc(d)
	case bytes.HasPrefix(d, []byte("\x89PNG\r\n\x1a\n")):
		return bin("PNG image data", "image/png")
	case len(d) >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff:
		return jpegDesc(d)
	case len(d) >= 10 && (bytes.HasPrefix(d, []byte("GIF87a")) || bytes.HasPrefix(d, []byte("GIF89a"))):
		w, h := binary.LittleEndian.Uint16(d[6:]), binary.LittleEndian.Uint16(d[8:])
		return bin(fmt.Sprintf("GIF image data, version %s, %d x %d", d[3:6], w, h), "image/gif")
	case bytes.HasPrefix(d, []byte("%PDF-")):
		v := d[5:]
		if i := bytes.IndexAny(v, "\r\n \t%"); i >= 0 {
			v = v[:i]
		}
		return result{desc: "PDF document, version " + string(v), mimeType: "application/pdf", charset: "binary"}, true
	case len(d) >= 8 && bytes.HasPrefix(d, []byte("\x00asm")):
		ver := binary.LittleEndian.Uint32(d[4:])
		desc := fmt.Sprintf("WebAssembly (wasm) binary module version 0x%x", ver)
		if ver == 1 {
			desc += " (MVP)"
		}
		return bin(desc, "application/wasm")
	case bytes.HasPrefix(d, []byte("!<arch>\n")):
		return result{desc: "current ar archive", mimeType: "application/x-archive", charset: "us-ascii"}, true
	case len(d) >= 16 && bytes.HasPrefix(d, []byte("RIFF")) && string(d[8:12]) == "WEBP":
		return bin("RIFF (little-endian) data, Web/P image", "image/webp")
	case len(d) >= 100 && bytes.HasPrefix(d, []byte("SQLite format 3\x00")):
		return bin("SQLite 3.x database", "application/vnd.sqlite3")
	case bytes.HasPrefix(d, []byte("\xca\xfe\xba\xbe")) && len(d) >= 8 && binary.BigEndian.Uint16(d[6:]) >= 45:
		major := binary.BigEndian.Uint16(d[6:])
		return bin(fmt.Sprintf("compiled Java class data, version %d.%d", major, binary.BigEndian.Uint16(d[4:])), "application/x-java-applet")
	}
	return result{}, false
}

func gzipDesc(c *builtins.Call, d []byte) (result, bool) {
	var b strings.Builder
	b.WriteString("gzip compressed data")
	flags := d[3]
	if d[2] != 8 {
		b.WriteString(", reserved method")
	}
	if flags&0x08 != 0 { // FNAME
		off := 10
		if flags&0x04 != 0 && len(d) >= 12 { // FEXTRA
			off += 2 + int(binary.LittleEndian.Uint16(d[10:]))
		}
		if off < len(d) {
			if end := bytes.IndexByte(d[off:], 0); end >= 0 {
				fmt.Fprintf(&b, ", was \"%s\"", d[off:off+end])
			}
		}
	}
	if mt := binary.LittleEndian.Uint32(d[4:]); mt != 0 {
		fmt.Fprintf(&b, ", last modified: %s", timeString(c, int64(mt)))
	}
	switch d[8] {
	case 2:
		b.WriteString(", max compression")
	case 4:
		b.WriteString(", max speed")
	}
	if os := map[byte]string{0: "MS-DOS", 3: "Unix", 7: "Macintosh", 11: "NTFS filesystem (NT)"}[d[9]]; os != "" {
		b.WriteString(", from " + os)
	}
	if len(d) >= 18 && len(d) < readLimit {
		fmt.Fprintf(&b, ", original size modulo 2^32 %d", binary.LittleEndian.Uint32(d[len(d)-4:]))
	}
	return bin(b.String(), "application/gzip")
}

func pngDesc(d []byte) (result, bool) {
	w, h := binary.BigEndian.Uint32(d[16:]), binary.BigEndian.Uint32(d[20:])
	desc := fmt.Sprintf("PNG image data, %d x %d", w, h)
	if len(d) >= 29 {
		depth, ct, interlace := d[24], d[25], d[28]
		switch ct {
		case 0:
			desc += fmt.Sprintf(", %d-bit grayscale", depth)
		case 2:
			desc += fmt.Sprintf(", %d-bit/color RGB", depth)
		case 3:
			desc += fmt.Sprintf(", %d-bit colormap", depth)
		case 4:
			desc += fmt.Sprintf(", %d-bit gray+alpha", depth)
		case 6:
			desc += fmt.Sprintf(", %d-bit/color RGBA", depth)
		}
		if interlace == 0 {
			desc += ", non-interlaced"
		} else {
			desc += ", interlaced"
		}
	}
	return bin(desc, "image/png")
}

func jpegDesc(d []byte) (result, bool) {
	var b strings.Builder
	b.WriteString("JPEG image data")
	if len(d) >= 18 && d[3] == 0xe0 && string(d[6:11]) == "JFIF\x00" {
		fmt.Fprintf(&b, ", JFIF standard %d.%02d", d[11], d[12])
		xd, yd := binary.BigEndian.Uint16(d[14:]), binary.BigEndian.Uint16(d[16:])
		switch d[13] {
		case 0:
			fmt.Fprintf(&b, ", aspect ratio, density %dx%d", xd, yd)
		case 1:
			fmt.Fprintf(&b, ", resolution (DPI), density %dx%d", xd, yd)
		case 2:
			fmt.Fprintf(&b, ", resolution (DPCM), density %dx%d", xd, yd)
		}
		fmt.Fprintf(&b, ", segment length %d", binary.BigEndian.Uint16(d[4:]))
	} else if len(d) >= 12 && d[3] == 0xe1 && string(d[6:12]) == "Exif\x00\x00" {
		b.WriteString(", Exif standard: [TIFF image data]")
	}
	// Find the frame header for the size.
	i := 2
	for i+4 <= len(d) {
		if d[i] != 0xff {
			break
		}
		marker := d[i+1]
		if marker == 0xd8 || marker == 0x01 || marker >= 0xd0 && marker <= 0xd7 {
			i += 2
			continue
		}
		seg := int(binary.BigEndian.Uint16(d[i+2:]))
		if marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc && i+9 < len(d) {
			kind := map[byte]string{0xc0: "baseline", 0xc1: "extended sequential", 0xc2: "progressive", 0xc3: "lossless"}[marker]
			if kind != "" {
				fmt.Fprintf(&b, ", %s", kind)
			}
			fmt.Fprintf(&b, ", precision %d, %dx%d, components %d", d[i+4], binary.BigEndian.Uint16(d[i+7:]), binary.BigEndian.Uint16(d[i+5:]), d[i+9])
			break
		}
		i += 2 + seg
	}
	return bin(b.String(), "image/jpeg")
}

func elfDesc(d []byte) (result, bool) {
	if len(d) < 20 {
		return bin("ELF", "application/x-executable")
	}
	var b strings.Builder
	b.WriteString("ELF ")
	switch d[4] {
	case 1:
		b.WriteString("32-bit ")
	case 2:
		b.WriteString("64-bit ")
	}
	var order binary.ByteOrder = binary.LittleEndian
	if d[5] == 2 {
		order = binary.BigEndian
		b.WriteString("MSB ")
	} else {
		b.WriteString("LSB ")
	}
	f, err := elf.NewFile(bytes.NewReader(d))
	typ := order.Uint16(d[16:])
	mime := "application/x-executable"
	pie := false
	if err == nil {
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				pie = typ == uint16(elf.ET_DYN)
			}
		}
		if typ == uint16(elf.ET_DYN) && !pie {
			if ds, err := f.DynValue(elf.DT_FLAGS_1); err == nil && len(ds) > 0 && ds[0]&uint64(elf.DF_1_PIE) != 0 {
				pie = true
			}
		}
	}
	switch elf.Type(typ) {
	case elf.ET_REL:
		b.WriteString("relocatable")
		mime = "application/x-object"
	case elf.ET_EXEC:
		b.WriteString("executable")
	case elf.ET_DYN:
		if pie {
			b.WriteString("pie executable")
			mime = "application/x-pie-executable"
		} else {
			b.WriteString("shared object")
			mime = "application/x-sharedlib"
		}
	case elf.ET_CORE:
		b.WriteString("core file")
		mime = "application/x-coredump"
	default:
		fmt.Fprintf(&b, "unknown type 0x%x", typ)
	}
	machine := elf.Machine(order.Uint16(d[18:]))
	names := map[elf.Machine]string{
		elf.EM_X86_64: "x86-64", elf.EM_386: "Intel 80386", elf.EM_AARCH64: "ARM aarch64", elf.EM_ARM: "ARM",
		elf.EM_RISCV: "UCB RISC-V", elf.EM_PPC64: "64-bit PowerPC or cisco 7500", elf.EM_S390: "IBM S/390", elf.EM_MIPS: "MIPS",
	}
	if n, ok := names[machine]; ok {
		b.WriteString(", " + n)
	}
	osabi := map[byte]string{0: "SYSV", 3: "GNU/Linux", 9: "FreeBSD"}[d[7]]
	if osabi == "" {
		osabi = fmt.Sprintf("(%d)", d[7])
	}
	if len(d) >= 24 && order.Uint32(d[20:]) == 1 {
		b.WriteString(", version 1 (" + osabi + ")")
	} else {
		b.WriteString(", (" + osabi + ")")
	}
	if err != nil {
		return bin(b.String(), mime)
	}
	if typ == uint16(elf.ET_EXEC) || typ == uint16(elf.ET_DYN) {
		dynamic := false
		interp := ""
		for _, p := range f.Progs {
			switch p.Type {
			case elf.PT_DYNAMIC:
				dynamic = true
			case elf.PT_INTERP:
				buf := make([]byte, p.Filesz)
				if _, err := p.ReadAt(buf, 0); err == nil {
					interp = strings.TrimRight(string(buf), "\x00")
				}
			}
		}
		if dynamic {
			b.WriteString(", dynamically linked")
		} else {
			b.WriteString(", statically linked")
		}
		if interp != "" {
			b.WriteString(", interpreter " + interp)
		}
	}
	if s := f.Section(".note.go.buildid"); s != nil {
		if data, err := s.Data(); err == nil && len(data) > 16 {
			id := strings.TrimRight(string(data[16:]), "\x00")
			b.WriteString(", Go BuildID=" + id)
		}
	}
	if s := f.Section(".note.gnu.build-id"); s != nil {
		if data, err := s.Data(); err == nil && len(data) > 16 {
			fmt.Fprintf(&b, ", BuildID[sha1]=%x", data[16:])
		}
	}
	if s := f.Section(".note.ABI-tag"); s != nil {
		if data, err := s.Data(); err == nil && len(data) >= 32 {
			fmt.Fprintf(&b, ", for GNU/Linux %d.%d.%d", order.Uint32(data[20:]), order.Uint32(data[24:]), order.Uint32(data[28:]))
		}
	}
	if f.Section(".debug_info") != nil {
		b.WriteString(", with debug_info")
	}
	if f.Section(".symtab") != nil {
		b.WriteString(", not stripped")
	} else {
		b.WriteString(", stripped")
	}
	return bin(b.String(), mime)
}

// encoding is what the text looks like.
type encoding struct {
	name    string // "ASCII", "Unicode text, UTF-8", ...
	charset string
}

// textChar reports whether file considers byte c text in ASCII.
func textChar(c byte) bool {
	return c >= 0x20 && c < 0x7f || c >= 7 && c <= 13 || c == 27
}

func detectEncoding(d []byte) (encoding, []byte, bool) {
	ascii := true
	for _, c := range d {
		if !textChar(c) {
			ascii = false
			break
		}
	}
	if ascii {
		return encoding{"ASCII", "us-ascii"}, d, true
	}
	if bytes.HasPrefix(d, []byte("\xef\xbb\xbf")) && utf8Text(d[3:]) {
		return encoding{"Unicode text, UTF-8 (with BOM)", "utf-8"}, d[3:], true
	}
	if utf8Text(d) {
		return encoding{"Unicode text, UTF-8", "utf-8"}, d, true
	}
	if len(d) >= 2 && (d[0] == 0xff && d[1] == 0xfe || d[0] == 0xfe && d[1] == 0xff) {
		le := d[0] == 0xff
		var u []byte
		ok := true
		for i := 2; i+1 < len(d); i += 2 {
			v := uint16(d[i])<<8 | uint16(d[i+1])
			if le {
				v = uint16(d[i+1])<<8 | uint16(d[i])
			}
			if v < 0x80 && !textChar(byte(v)) {
				ok = false
				break
			}
			if v < 0x80 {
				u = append(u, byte(v))
			} else {
				u = append(u, 'x')
			}
		}
		if ok {
			if le {
				return encoding{"Unicode text, UTF-16, little-endian", "utf-16le"}, u, true
			}
			return encoding{"Unicode text, UTF-16, big-endian", "utf-16be"}, u, true
		}
	}
	latin, ext := true, true
	for _, c := range d {
		if !textChar(c) && c < 0xa0 {
			latin = false
		}
		if !textChar(c) && c < 0x80 {
			ext = false
		}
	}
	if latin {
		return encoding{"ISO-8859", "iso-8859-1"}, d, true
	}
	if ext {
		return encoding{"Non-ISO extended-ASCII", "unknown-8bit"}, d, true
	}
	return encoding{}, nil, false
}

func utf8Text(d []byte) bool {
	for i := 0; i < len(d); {
		c := d[i]
		if c < 0x80 {
			if !textChar(c) {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(d[i:])
		if r == utf8.RuneError && n <= 1 {
			// An incomplete sequence cut off by the read limit is fine.
			return len(d) == readLimit && len(d)-i < 4
		}
		i += n
	}
	return true
}

// lineInfo is the line-terminator and oddity suffix of a text.
func lineInfo(d []byte) string {
	var crlf, cr, lf, nel int
	longest, cur := 0, 0
	esc, bs := false, false
	for i := 0; i < len(d); i++ {
		c := d[i]
		switch c {
		case '\r':
			if i+1 < len(d) && d[i+1] == '\n' {
				crlf++
				i++
			} else {
				cr++
			}
			longest, cur = max(longest, cur), 0
			continue
		case '\n':
			lf++
			longest, cur = max(longest, cur), 0
			continue
		case 27:
			esc = true
		case 8:
			bs = true
		case 0xc2:
			if i+1 < len(d) && d[i+1] == 0x85 {
				nel++
				longest, cur = max(longest, cur), 0
				i++
				continue
			}
		}
		cur++
	}
	longest = max(longest, cur)
	var b strings.Builder
	if longest > 300 {
		fmt.Fprintf(&b, ", with very long lines (%d)", longest)
	}
	if crlf == 0 && cr == 0 && nel == 0 && lf == 0 || crlf != 0 || cr != 0 || nel != 0 {
		b.WriteString(", with")
		if crlf == 0 && cr == 0 && nel == 0 && lf == 0 {
			b.WriteString(" no")
		} else {
			if crlf != 0 {
				b.WriteString(" CRLF")
				if cr != 0 || lf != 0 || nel != 0 {
					b.WriteString(",")
				}
			}
			if cr != 0 {
				b.WriteString(" CR")
				if lf != 0 || nel != 0 {
					b.WriteString(",")
				}
			}
			if lf != 0 {
				b.WriteString(" LF")
				if nel != 0 {
					b.WriteString(",")
				}
			}
			if nel != 0 {
				b.WriteString(" NEL")
			}
		}
		b.WriteString(" line terminators")
	}
	if esc {
		b.WriteString(", with escape sequences")
	}
	if bs {
		b.WriteString(", with overstriking")
	}
	return b.String()
}

// scriptKinds maps interpreters to file's descriptions and MIME types.
var scriptKinds = map[string][2]string{
	"sh":      {"POSIX shell script", "text/x-shellscript"},
	"dash":    {"POSIX shell script", "text/x-shellscript"},
	"bash":    {"Bourne-Again shell script", "text/x-shellscript"},
	"zsh":     {"Paul Falstad's zsh script", "text/x-shellscript"},
	"ksh":     {"Korn shell script", "text/x-shellscript"},
	"python":  {"Python script", "text/x-script.python"},
	"python2": {"Python script", "text/x-script.python"},
	"python3": {"Python script", "text/x-script.python"},
	"ruby":    {"Ruby script", "text/x-ruby"},
	"awk":     {"awk script", "text/x-awk"},
	"gawk":    {"GNU awk script", "text/x-awk"},
	"php":     {"PHP script", "text/x-php"},
	"tclsh":   {"Tcl script", "text/x-tcl"},
	"lua":     {"Lua script", "text/x-lua"},
}

// textKind recognises text and its kind. Trailing NULs are forgiven for
// ASCII and UTF-8 text (the MIME encoding then says binary).
func textKind(raw []byte) (result, bool) {
	enc, body, ok := detectEncoding(raw)
	if !ok {
		d := bytes.TrimRight(raw, "\x00")
		if len(d) == len(raw) {
			return result{}, false
		}
		enc, body, ok = detectEncoding(d)
		if !ok || enc.charset != "us-ascii" && enc.charset != "utf-8" {
			return result{}, false
		}
		enc.charset = "binary"
	}
	encText := enc.name + " text"
	suffix := lineInfo(body)
	plain := func(kind, mime string) (result, bool) {
		return result{desc: kind + ", " + encText + suffix, mimeType: mime, charset: enc.charset}, true
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	switch {
	case bytes.HasPrefix(body, []byte("#!")):
		line := string(body[2:])
		if i := strings.IndexAny(line, "\r\n"); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) > 0 {
			interp := fields[0]
			base := interp[strings.LastIndexByte(interp, '/')+1:]
			if base == "env" && len(fields) > 1 {
				base = fields[1]
				interp = fields[1]
				if base == "-S" && len(fields) > 2 {
					base, interp = fields[2], fields[2]
				}
			}
			base = strings.TrimRight(base, "0123456789.")
			if base == "python" || strings.HasPrefix(fields[len(fields)-1], "python") && base == "" {
				base = "python"
			}
			switch base {
			case "perl":
				return result{desc: "Perl script text executable", mimeType: "text/x-perl", charset: enc.charset}, true
			case "node", "nodejs":
				return result{desc: "Node.js script executable, " + encText + suffix, mimeType: "application/javascript", charset: enc.charset}, true
			}
			if k, ok := scriptKinds[base]; ok {
				return result{desc: k[0] + ", " + encText + " executable" + suffix, mimeType: k[1], charset: enc.charset}, true
			}
			return result{desc: "a " + interp + " script, " + encText + " executable" + suffix, mimeType: "text/plain", charset: enc.charset}, true
		}
	case (bytes.HasPrefix(trimmed, []byte("{")) || bytes.HasPrefix(trimmed, []byte("["))) && json.Valid(body):
		return result{desc: "JSON text data", mimeType: "application/json", charset: enc.charset}, true
	case hasPrefixFold(trimmed, "<?xml version=\"1.0\""), hasPrefixFold(trimmed, "<?xml version='1.0'"):
		if bytes.Contains(body, []byte("<svg")) {
			return result{desc: "SVG Scalable Vector Graphics image", mimeType: "image/svg+xml", charset: enc.charset}, true
		}
		return plain("XML 1.0 document", "text/xml")
	case hasPrefixFold(trimmed, "<svg"):
		return result{desc: "SVG Scalable Vector Graphics image", mimeType: "image/svg+xml", charset: enc.charset}, true
	case hasPrefixFold(trimmed, "<!doctype html"), hasPrefixFold(trimmed, "<html"), hasPrefixFold(trimmed, "<head"), hasPrefixFold(trimmed, "<body"), hasPrefixFold(trimmed, "<title"):
		return plain("HTML document", "text/html")
	case bytes.HasPrefix(body, []byte("%!PS-Adobe-")):
		v := string(body[len("%!PS-Adobe-"):])
		if i := strings.IndexAny(v, " \r\n"); i >= 0 {
			v = v[:i]
		}
		return result{desc: "PostScript document text conforming DSC level " + v, mimeType: "application/postscript", charset: enc.charset}, true
	case bytes.HasPrefix(body, []byte("diff ")) || bytes.HasPrefix(body, []byte("Index: ")):
		return plain("diff output", "text/x-diff")
	case bytes.HasPrefix(body, []byte("--- ")) && bytes.Contains(body, []byte("\n+++ ")):
		return plain("unified diff output", "text/x-diff")
	case bytes.HasPrefix(body, []byte("*** ")) && bytes.Contains(body, []byte("\n--- ")):
		return plain("context diff output", "text/x-diff")
	case bytes.HasPrefix(body, []byte("#include")) || bytes.Contains(body, []byte("\n#include")):
		return plain("C source", "text/x-c")
	case bytes.HasPrefix(body, []byte("def ")) && bytes.Contains(body, []byte("):")):
		return result{desc: "Python script, " + encText + " executable" + suffix, mimeType: "text/x-script.python", charset: enc.charset}, true
	}
	return result{desc: encText + suffix, mimeType: "text/plain", charset: enc.charset}, true
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && strings.EqualFold(string(b[:len(prefix)]), prefix)
}
