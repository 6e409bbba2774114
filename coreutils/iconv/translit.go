package iconv

import (
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// translitTable holds the replacements of glibc's C.UTF-8 locale that
// decomposition does not give (its translit_compat, translit_neutral and
// translit_combining tables), for the characters texts usually carry.
var translitTable = map[rune]string{
	'–': "-", '—': "--", '‐': "-", '‑': "-", '‒': "-", '―': "-", '−': "-",
	'‘': "'", '’': "'", '‚': ",", '‛': "'", '“': `"`, '”': `"`, '„': ",,", '‟': `"`,
	'…': "...", '•': "o", '·': ".", '€': "EUR", '£': "GBP", '¥': "JPY", '¢': "c",
	'©': "(C)", '®': "(R)", '™': "(TM)", '±': "+-", '×': "x", '÷': "/", 'µ': "u",
	'¼': " 1/4 ", '½': " 1/2 ", '¾': " 3/4 ", '⅓': " 1/3 ", '⅔': " 2/3 ",
	'«': "<<", '»': ">>", '‹': "<", '›': ">", '¡': "!", '¿': "?",
	'ø': "o", 'Ø': "O", 'ł': "l", 'Ł': "L", 'đ': "d", 'Đ': "D", 'þ': "th", 'Þ': "TH",
	'ð': "d", 'Ð': "D", 'ı': "i", 'ħ': "h", 'Ħ': "H", 'ŀ': "l", 'Ŀ': "L", 'ŋ': "n", 'Ŋ': "N",
	'æ': "ae", 'Æ': "AE", 'ß': "ss", 'œ': "oe", 'Œ': "OE", 'ŉ': "'n", 'ƒ': "f",
	'⁄': "/", '∕': "/", '¦': "|", '¬': "!", '←': "<-", '→': "->", '≤': "<=", '≥': ">=", '≠': "!=",
	'´': "'", '¸': ",", 'ˆ': "^", '˜': "~", '\u200b': "",
}

// translit is what //TRANSLIT writes for a character the target cannot
// represent: glibc's replacement, else the character without its accents
// or in its compatibility form, else "?".
func translit(cs *charset, r rune) ([]byte, bool) {
	try := func(s string) ([]byte, bool) {
		var out []byte
		for _, c := range s {
			var fits bool
			if out, fits = cs.encode(out, c); !fits {
				return nil, false
			}
		}
		return out, true
	}
	if s, found := translitTable[r]; found {
		if out, fits := try(s); fits {
			return out, true
		}
	}
	var stripped []rune
	for _, c := range norm.NFD.String(string(r)) {
		if !unicode.Is(unicode.Mn, c) {
			stripped = append(stripped, c)
		}
	}
	if len(stripped) > 0 && string(stripped) != string(r) {
		if out, fits := try(string(stripped)); fits {
			return out, true
		}
	}
	compat := norm.NFKD.String(string(r))
	hasMark := false
	for _, c := range compat {
		hasMark = hasMark || unicode.Is(unicode.Mn, c)
	}
	if !hasMark && compat != string(r) {
		if out, fits := try(compat); fits {
			return out, true
		}
	}
	return try("?")
}
