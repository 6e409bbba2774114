package git

import (
	"bytes"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

func nowUnix() int64 { return time.Now().Unix() }

func cmdShow(g *cmd, args []string) int {
	lr, r := g.parseLogArgs(args, true)
	if len(lr.names) == 0 && len(lr.includes) == 0 {
		lr.includes = append(lr.includes, r.defaultHead())
		lr.names = append(lr.names, "HEAD")
	}
	var w bytes.Buffer
	shown := 0
	r.streamTo, r.flush = &w, g.flushPart
	for i, h := range lr.includes {
		name := ""
		if i < len(lr.names) {
			name = lr.names[i]
		}
		t, data := r.mustObject(h)
		switch t {
		case plumbing.CommitObject:
			c := r.getCommit(h)
			lr.writeCommit(&w, c, shown, true)
			shown++
		case plumbing.TagObject:
			tag := parseTag(data)
			if shown > 0 {
				w.WriteString("\n")
			}
			fmt.Fprintf(&w, "tag %s\nTagger: %s <%s>\nDate:   %s\n\n", tag.tag, tag.tagger.name, tag.tagger.email, g.formatDate(tag.tagger, lr.lc.dateMode))
			w.WriteString(tag.message)
			if tag.message != "" && tag.message[len(tag.message)-1] != '\n' {
				w.WriteString("\n")
			}
			target := tag.object
			if ct, ok := r.commitOf(target); ok && r.objectType(target) == plumbing.CommitObject {
				w.WriteString("\n")
				lr.writeCommit(&w, r.getCommit(ct), 0, true)
			} else if r.objectType(target) == plumbing.BlobObject {
				w.Write(r.blob(target))
			}
			shown++
		case plumbing.TreeObject:
			if shown > 0 {
				w.WriteString("\n")
			}
			fmt.Fprintf(&w, "tree %s\n\n", name)
			for _, e := range r.readTree(h) {
				if e.isTree() {
					w.WriteString(e.name + "/\n")
				} else {
					w.WriteString(e.name + "\n")
				}
			}
			shown++
		case plumbing.BlobObject:
			w.Write(data)
		}
		if w.Len() > 64<<10 {
			g.flushPart(&w)
		}
	}
	g.out.Write(w.Bytes())
	return 0
}
