package modes

import "io/fs"

// Indicator is the character that ls -F, --file-type and -p (and tree -F)
// append to the name of a file of mode m: with slashOnly (-p) only
// directories get one, and only with classify (-F) executable files get
// '*'.
func Indicator(m fs.FileMode, classify, slashOnly bool) string {
	switch t := TypeChar(m); {
	case t == 'd':
		return "/"
	case t == '-':
		if classify && m&0o111 != 0 {
			return "*"
		}
	case slashOnly:
	case t == 'l':
		return "@"
	case t == 'p':
		return "|"
	case t == 's':
		return "="
	}
	return ""
}
