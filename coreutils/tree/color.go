package tree

import (
	"io/fs"
	"strings"
)

// tree's own default colors, used when LS_COLORS is not set.
const defaultColors = "no=00:fi=00:di=01;34:ln=01;36:pi=40;33:so=01;35:bd=40;33;01:cd=40;33;01:or=40;31;01:ex=01;32:" +
	"*.bat=01;32:*.BAT=01;32:*.btm=01;32:*.BTM=01;32:*.cmd=01;32:*.CMD=01;32:*.com=01;32:*.COM=01;32:*.dll=01;32:*.DLL=01;32:*.exe=01;32:*.EXE=01;32:" +
	"*.arj=01;31:*.bz2=01;31:*.deb=01;31:*.gz=01;31:*.lzh=01;31:*.rpm=01;31:*.tar=01;31:*.taz=01;31:*.tb2=01;31:*.tbz2=01;31:*.tbz=01;31:*.tgz=01;31:*.tz2=01;31:*.z=01;31:*.Z=01;31:*.zip=01;31:*.ZIP=01;31:*.zoo=01;31:" +
	"*.asf=01;35:*.ASF=01;35:*.avi=01;35:*.AVI=01;35:*.bmp=01;35:*.BMP=01;35:*.flac=01;35:*.FLAC=01;35:*.gif=01;35:*.GIF=01;35:*.jpg=01;35:*.JPG=01;35:*.jpeg=01;35:*.JPEG=01;35:" +
	"*.m2a=01;35:*.M2a=01;35:*.m2v=01;35:*.M2V=01;35:*.mov=01;35:*.MOV=01;35:*.mp3=01;35:*.MP3=01;35:*.mpeg=01;35:*.MPEG=01;35:*.mpg=01;35:*.MPG=01;35:*.ogg=01;35:*.OGG=01;35:" +
	"*.ppm=01;35:*.rm=01;35:*.RM=01;35:*.tga=01;35:*.TGA=01;35:*.tif=01;35:*.TIF=01;35:*.wav=01;35:*.WAV=01;35:*.wmv=01;35:*.WMV=01;35:*.xbm=01;35:*.xpm=01;35:"

type colors struct {
	codes   map[string]string
	exts    [][2]string
	missing string
}

func loadColors(spec string) *colors {
	if spec == "" {
		spec = defaultColors
	}
	c := &colors{codes: map[string]string{}}
	for _, item := range strings.Split(spec, ":") {
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			continue
		}
		if strings.HasPrefix(k, "*") {
			c.exts = append(c.exts, [2]string{k[1:], v})
		} else {
			c.codes[k] = v
		}
	}
	c.missing = c.codes["mi"]
	if c.missing == "" {
		c.missing = c.codes["fi"]
	}
	if c.missing == "" {
		c.missing = "00"
	}
	return c
}

func (c *colors) wrap(s, code string) string {
	if code == "" {
		return s
	}
	return "\033[" + code + "m" + s + "\033[0m"
}

// paint colors a name by its type; for symlinks, targetOK says whether
// the link leads somewhere.
func (c *colors) paint(s string, m fs.FileMode, targetOK bool, _ fs.FileMode) string {
	var code string
	switch {
	case m&fs.ModeSymlink != 0:
		code = c.codes["ln"]
		if !targetOK {
			if or := c.codes["or"]; or != "" {
				code = or
			}
		}
	case m.IsDir():
		code = c.codes["di"]
	case m&fs.ModeNamedPipe != 0:
		code = c.codes["pi"]
	case m&fs.ModeSocket != 0:
		code = c.codes["so"]
	case m&fs.ModeCharDevice != 0:
		code = c.codes["cd"]
	case m&fs.ModeDevice != 0:
		code = c.codes["bd"]
	case m&0o111 != 0:
		code = c.codes["ex"]
	default:
		code = c.codes["fi"]
		for _, e := range c.exts {
			if strings.HasSuffix(s, e[0]) {
				code = e[1]
			}
		}
	}
	return c.wrap(s, code)
}
