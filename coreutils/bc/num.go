package bc

import "github.com/bashbox/bashbox/coreutils/internal/bcnum"

// num is a bc number; its arithmetic is shared with dc.
type num = bcnum.Num
