package patch

import (
	"bytes"
	"io/fs"
	"time"
)

// The loop over the patches in a patch file: find the file each one is
// for, apply its hunks, and write the results, rejects and backups.

// reinitialize prepares for the next patch in the patch file.
func (p *patcher) reinitialize() {
	p.first, p.newfirst, p.ptrnLines, p.replLines = 0, 0, 0, 0
	p.pend = -1
	p.pmax = 0
	p.indent = 0
	p.stripCR = false
	p.input = nil
	p.lastFrozen = 0
	if !p.explicitInname {
		p.inname = ""
	}
	p.inOffset, p.outOffset = 0, 0
	p.diffType = p.forcedType
	p.revision = ""
	p.reverse = p.reverseFlag
	p.skipRest = false
}

func (p *patcher) mainLoop() int {
	somefailed := false
	applyEmpty := p.inname != "" && p.outfile != ""
	haveGitDiff := false
	if applyEmpty {
		p.fileType = typeReg
		p.inerrUnknown = true
	}
	for first := true; ; first = false {
		if !first {
			p.reinitialize()
			applyEmpty = false
		}
		if err := p.ctx.Err(); err != nil {
			p.fatal("%s", "interrupted")
		}
		iterBase := p.pbase
		if !p.thereIsAnotherPatch(!(p.inname != "" || p.posix)) && !applyEmpty {
			break
		}
		hunk, failed := 0, 0
		mismatch := false
		outname := ""
		hasOutname := false
		skipReject := false
		if p.skipRest {
			somefailed = true
		}
		if haveGitDiff != p.gitDiff {
			if haveGitDiff {
				p.flushOutputs()
				p.inerrUnknown = true
			}
			haveGitDiff = !haveGitDiff
		}
		if !p.skipRest && p.fileType == 0 {
			p.say("File %s: can't change file type from 0%o to 0%o.\n", p.quote(p.inname),
				unixType(p.pmode[b2i(p.reverse)]), unixType(p.pmode[b2i(!p.reverse)]))
			p.skipRest = true
			somefailed = true
		}
		if !p.skipRest {
			switch {
			case p.outfile != "":
				outname = p.outfile
			case p.pchCopy() || p.pchRename():
				outname = p.pname[b2i(!p.reverse)]
			default:
				outname = p.inname
			}
			hasOutname = true
		}
		if p.gitDiff && !p.skipRest {
			// A file modified a second time by concatenated git diffs:
			// write out what is pending first.
			if p.hasQueued(outname) {
				p.flushOutputs()
				p.inerrUnknown = true
			}
		}
		if !p.skipRest {
			if !p.getInputFile(p.inname, outname) {
				p.skipRest = true
				somefailed = true
			}
		}
		p.obuf = &bytes.Buffer{}
		p.afterNewline, p.zeroOutput = true, true
		if p.diffType == edDiff {
			somefailed = p.doEdScript(outname, somefailed) || somefailed
		} else {
			if !p.skipRest && p.diffType == gitBinaryDiff {
				p.say("File %s: git binary diffs are not supported.\n", p.quote(outname))
				p.skipRest = true
				somefailed = true
			}
			p.obuf = &bytes.Buffer{}
			p.afterNewline, p.zeroOutput = true, true
			if !p.skipRest {
				p.scanInput(p.inname)
				if p.verbosity != silent {
					renamed := p.inname != outname
					skipRename := !renamed && p.pchRename()
					verb := "patching"
					if p.dryRun {
						verb = "checking"
					}
					kind := "file"
					if p.fileType&typeLink != 0 {
						kind = "symbolic link"
					}
					sep := "\n"
					if renamed || skipRename {
						sep = " "
					}
					p.say("%s %s %s%s", verb, kind, p.quote(outname), sep)
					if renamed || skipRename {
						already := ""
						if skipRename {
							already = "already "
						}
						how := "read"
						if p.pchCopy() {
							how = "copied"
						} else if p.pchRename() {
							how = "renamed"
						}
						from := p.inname
						if skipRename {
							from = p.pname[b2i(p.inname == p.pname[nameOld])]
						}
						p.say("(%s%s from %s)\n", already, how, from)
					}
					if p.verbosity == verbose {
						p.say("Using Plan A...\n")
					}
				}
			}
			applyAnyway := false
			for p.anotherHunk(p.diffType, p.reverse) {
				where := 0
				fuzz := 0
				prefixCtx, suffixCtx := p.prefixContext, p.suffixContext
				ctx := max(prefixCtx, suffixCtx)
				mymaxfuzz := min(p.maxFuzz, ctx)
				hunk++
				if !p.skipRest {
					for {
						where = p.locateHunk(fuzz)
						if where == 0 || fuzz != 0 || p.inOffset != 0 {
							mismatch = true
						}
						if hunk == 1 && where == 0 && !(p.force || applyAnyway) && p.reverse == p.reverseFlag {
							p.pchSwap()
							where = p.locateHunk(fuzz)
							word := "Reversed (or previously applied)"
							if p.reverse {
								word = "Unreversed"
							}
							if where != 0 && p.okToReverse("%s patch detected!", word) {
								p.reverse = !p.reverse
							} else {
								p.pchSwap()
								if where != 0 {
									applyAnyway = true
									fuzz--
									where = 0
								}
							}
						}
						if p.skipRest || where != 0 {
							break
						}
						fuzz++
						if fuzz > mymaxfuzz {
							break
						}
					}
				}
				newwhere := where
				if where == 0 {
					newwhere = p.first
				}
				newwhere += p.outOffset
				if p.skipRest ||
					(where == 1 && p.saysNonexistent[b2i(p.reverse)] == 2 && p.instat.size != 0) ||
					where == 0 || !p.applyHunk(where) {
					if !skipReject {
						p.abortHunk(outname, failed == 0, p.reverse)
					}
					failed++
					if p.verbosity == verbose || (!p.skipRest && p.verbosity != silent) {
						state := "FAILED"
						if p.skipRest {
							state = "ignored"
						}
						endings := ""
						if !p.skipRest && p.checkLineEndings(newwhere) {
							endings = " (different line endings)"
						}
						p.say("Hunk #%d %s at %d%s.\n", hunk, state, newwhere, endings)
					}
				} else if p.verbosity == verbose || (p.verbosity != silent && (fuzz != 0 || p.inOffset != 0)) {
					p.say("Hunk #%d succeeded at %d", hunk, newwhere)
					if fuzz != 0 {
						p.say(" with fuzz %d", fuzz)
					}
					if p.inOffset != 0 {
						s := "s"
						if p.inOffset == 1 {
							s = ""
						}
						p.say(" (offset %d line%s)", p.inOffset, s)
					}
					p.say(".\n")
				}
			}
			if !p.skipRest {
				p.spewOutput()
				if p.ofile != nil {
					p.ofile.Write(p.obuf.Bytes())
				}
			}
		}

		if !p.skipRest && p.outfile == "" {
			backup := p.makeBackups || (p.backupIfMismatch && (mismatch || failed != 0))
			if p.zeroOutput && (p.removeEmpty || (p.saysNonexistent[b2i(!p.reverse)] == 2 && !p.posix) || p.fileType&typeLink != 0) {
				if !p.dryRun {
					p.deleteFileLater(outname, backup)
				}
			} else {
				if !p.zeroOutput && p.saysNonexistent[b2i(!p.reverse)] == 2 && (p.removeEmpty || !p.posix) {
					mismatch = true
					somefailed = true
					if p.verbosity != silent {
						p.say("Not deleting file %s as content differs from patch\n", p.quote(outname))
					}
				}
				if !p.dryRun {
					oldMode := p.pmode[b2i(p.reverse)]
					newMode := p.pmode[b2i(!p.reverse)]
					setMode := newMode != 0 && oldMode != newMode
					if failed < hunk || p.diffType == edDiff || setMode || p.pchCopy() || p.pchRename() {
						var mode fs.FileMode
						explicitMode := false
						switch {
						case setMode:
							mode, explicitMode = newMode.Perm(), true
						case p.inerr == nil:
							mode, explicitMode = p.instat.mode.Perm(), true
						default:
							mode = 0o666
						}
						data := p.obuf.Bytes()
						if p.diffType == edDiff && p.edResult != nil {
							data = p.edResult
						}
						var setTimeTo *stamp
						if newTime := p.ptimestamp[b2i(!p.reverse)]; (p.setTime || p.setUTC) && newTime.sec != -1 {
							oldTime := p.ptimestamp[b2i(p.reverse)]
							switch {
							case !p.force && p.inerr == nil && p.saysNonexistent[b2i(p.reverse)] != 2 && oldTime.sec != -1 &&
								(oldTime.sec != p.instat.mtime.Unix() || oldTime.nsec != int64(p.instat.mtime.Nanosecond())):
								p.say("Not setting time of file %s (time mismatch)\n", p.quote(outname))
							case !p.force && (mismatch || failed != 0):
								p.say("Not setting time of file %s (contents mismatch)\n", p.quote(outname))
							default:
								setTimeTo = &newTime
							}
						}
						p.outputFile(data, outname, mode, explicitMode, backup)
						if setTimeTo != nil && !p.gitDiff {
							t := time.Unix(setTimeTo.sec, setTimeTo.nsec)
							p.c.FS.Chtimes(p.abs(outname), t, t)
						}
						if p.pchRename() {
							p.deleteFileLater(p.inname, backup)
						}
					} else if backup {
						// GNU checks the identity of its temporary output here,
						// so even a file already patched in this run is backed up.
						p.createBackup(outname, true, true)
					}
				}
			}
		}
		if p.diffType != edDiff && failed != 0 && !skipReject {
			somefailed = true
			s := "s"
			if hunk == 1 {
				s = ""
			}
			state := "FAILED"
			if p.skipRest {
				state = "ignored"
			}
			p.say("%d out of %d hunk%s %s", failed, hunk, s, state)
			if hasOutname && (!p.hasRejName || p.rejName != "-") {
				rej := p.rejName
				if !p.hasRejName {
					rej = outname + ".rej"
				}
				if !p.dryRun {
					p.say(" -- saving rejects to file %s\n", p.quote(rej))
					p.saveRejects(rej)
				} else {
					p.say("\n")
				}
			} else {
				p.say("\n")
			}
		}
		p.rej = nil
		if hunk == 0 && p.pbase == iterBase && p.diffType != edDiff {
			// Nothing was consumed: GNU patch would go round this
			// patch forever.
			break
		}
	}
	p.flushOutputs()
	p.runDeletions()
	if p.ofile != nil {
		if p.ofileName == "-" {
			p.out.Flush()
			p.c.Stdout.Write(p.ofile.Bytes())
		} else if err := p.writeFile(p.ofileName, p.ofile.Bytes(), 0o600, false); err != nil {
			p.pfatal(err, "Can't create file %s", p.quote(p.ofileName))
		}
	}
	if somefailed {
		return 1
	}
	return 0
}
