//go:build windows

package hostsandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	userenv                         = windows.NewLazySystemDLL("userenv.dll")
	procCreateAppContainerProfile   = userenv.NewProc("CreateAppContainerProfile")
	procDeleteAppContainerProfile   = userenv.NewProc("DeleteAppContainerProfile")
	procDeriveAppContainerSidByName = userenv.NewProc("DeriveAppContainerSidFromAppContainerName")
)

const (
	procThreadAttributeSecurityCapabilities = 0x00020009
	hresultAlreadyExists                    = 0x800700B7
)

// securityCapabilities is SECURITY_CAPABILITIES.
type securityCapabilities struct {
	AppContainerSid *windows.SID
	Capabilities    *windows.SIDAndAttributes
	CapabilityCount uint32
	Reserved        uint32
}

type appContainer struct{}

func (appContainer) Name() string { return "appcontainer" }

func (appContainer) DefaultTimeout() time.Duration { return 60 * time.Second }

// appContainerProbe caches a successful real spawn; failures are retried.
var appContainerProbe onceOK

// appContainerSeq makes profile names unique within this process.
var appContainerSeq atomic.Uint64

func newAppContainer() (Backend, error) {
	if err := procCreateAppContainerProfile.Find(); err != nil {
		return nil, fmt.Errorf("the AppContainer API is not available: %v", err)
	}
	err := appContainerProbe.check(func() error {
		sys, err := windows.GetSystemDirectory()
		if err != nil {
			return err
		}
		p, err := appContainer{}.Start(context.Background(), &Manifest{}, Request{Args: []string{filepath.Join(sys, "cmd.exe"), "/c", "exit 0"}})
		if err != nil {
			return fmt.Errorf("AppContainer probe: %w", err)
		}
		if code, err := p.Wait(); err != nil || code != 0 {
			return fmt.Errorf("AppContainer probe exited %d: %v", code, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return appContainer{}, nil
}

func (a appContainer) Start(ctx context.Context, m *Manifest, req Request) (Process, error) {
	if len(req.Args) > 0 {
		path, _ := m.envValue("PATH")
		bin, err := lookPathIn(req.Args[0], path)
		if err != nil {
			return nil, err
		}
		req.Args = append([]string{bin}, req.Args[1:]...)
	}
	plan, err := planAppContainer(m, req)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("bashbox.sandbox.%d.%d", os.Getpid(), appContainerSeq.Add(1))
	sid, err := createAppContainerProfile(name)
	if err != nil {
		return nil, err
	}
	p := &appContainerProcess{name: name, sid: sid, done: make(chan struct{})}
	started := false
	defer func() {
		if !started {
			p.release()
		}
	}()

	for _, g := range plan.Grants {
		if err := setPathAccess(g.Path, sid, g.Write, windows.GRANT_ACCESS); err != nil {
			return nil, fmt.Errorf("granting %s to the AppContainer: %w", g.Path, err)
		}
		p.granted = append(p.granted, g)
	}
	var caps []windows.SIDAndAttributes
	for _, s := range plan.Capabilities {
		csid, err := windows.StringToSid(s)
		if err != nil {
			return nil, err
		}
		caps = append(caps, windows.SIDAndAttributes{Sid: csid, Attributes: windows.SE_GROUP_ENABLED})
	}

	// Output pipes: their write ends are the only handles the child
	// inherits (PROC_THREAD_ATTRIBUTE_HANDLE_LIST).
	sa := windows.SecurityAttributes{Length: uint32(unsafe.Sizeof(windows.SecurityAttributes{})), InheritHandle: 1}
	var outR, outW, errR, errW windows.Handle
	if err := windows.CreatePipe(&outR, &outW, &sa, 0); err != nil {
		return nil, err
	}
	p.readers = append(p.readers, pipeReader{h: outR, w: req.Stdout})
	p.parentEnds = append(p.parentEnds, outW)
	errW = outW
	if !sameWriter(req.Stdout, req.Stderr) {
		if err := windows.CreatePipe(&errR, &errW, &sa, 0); err != nil {
			return nil, err
		}
		p.readers = append(p.readers, pipeReader{h: errR, w: req.Stderr})
		p.parentEnds = append(p.parentEnds, errW)
	}
	for _, r := range p.readers {
		_ = windows.SetHandleInformation(r.h, windows.HANDLE_FLAG_INHERIT, 0)
	}

	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, err
	}
	p.job = job
	var limits windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	limits.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | windows.JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION
	if plan.MemoryLimit > 0 {
		limits.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_PROCESS_MEMORY
		limits.ProcessMemoryLimit = uintptr(plan.MemoryLimit)
	}
	if plan.CPUTime > 0 {
		limits.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_PROCESS_TIME
		limits.BasicLimitInformation.PerProcessUserTimeLimit = int64(plan.CPUTime / 100) // 100 ns units
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&limits)), uint32(unsafe.Sizeof(limits))); err != nil {
		return nil, fmt.Errorf("job object limits: %w", err)
	}
	ui := windows.JOBOBJECT_BASIC_UI_RESTRICTIONS{UIRestrictionsClass: windows.JOB_OBJECT_UILIMIT_DESKTOP |
		windows.JOB_OBJECT_UILIMIT_DISPLAYSETTINGS | windows.JOB_OBJECT_UILIMIT_EXITWINDOWS |
		windows.JOB_OBJECT_UILIMIT_GLOBALATOMS | windows.JOB_OBJECT_UILIMIT_HANDLES |
		windows.JOB_OBJECT_UILIMIT_READCLIPBOARD | windows.JOB_OBJECT_UILIMIT_SYSTEMPARAMETERS |
		windows.JOB_OBJECT_UILIMIT_WRITECLIPBOARD}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectBasicUIRestrictions,
		uintptr(unsafe.Pointer(&ui)), uint32(unsafe.Sizeof(ui))); err != nil {
		return nil, fmt.Errorf("job object UI restrictions: %w", err)
	}

	attrs, err := windows.NewProcThreadAttributeList(2)
	if err != nil {
		return nil, err
	}
	defer attrs.Delete()
	sc := securityCapabilities{AppContainerSid: sid, CapabilityCount: uint32(len(caps))}
	if len(caps) > 0 {
		sc.Capabilities = &caps[0]
	}
	if err := attrs.Update(procThreadAttributeSecurityCapabilities, unsafe.Pointer(&sc), unsafe.Sizeof(sc)); err != nil {
		return nil, err
	}
	inherit := p.parentEnds
	if err := attrs.Update(windows.PROC_THREAD_ATTRIBUTE_HANDLE_LIST, unsafe.Pointer(&inherit[0]), uintptr(len(inherit))*unsafe.Sizeof(inherit[0])); err != nil {
		return nil, err
	}
	var si windows.StartupInfoEx
	si.Cb = uint32(unsafe.Sizeof(si))
	si.Flags = windows.STARTF_USESTDHANDLES
	si.StdOutput, si.StdErr = outW, errW // no stdin: reads fail at once
	si.ProcThreadAttributeList = attrs.List()

	cmdLine, err := windows.UTF16PtrFromString(plan.CommandLine)
	if err != nil {
		return nil, err
	}
	var dir *uint16
	if plan.Dir != "" {
		if dir, err = windows.UTF16PtrFromString(plan.Dir); err != nil {
			return nil, err
		}
	}
	env := windowsEnvBlock(plan.Env)
	var pi windows.ProcessInformation
	flags := uint32(windows.CREATE_SUSPENDED | windows.EXTENDED_STARTUPINFO_PRESENT | windows.CREATE_UNICODE_ENVIRONMENT | windows.CREATE_NO_WINDOW)
	if err := windows.CreateProcess(nil, cmdLine, nil, nil, true, flags, &env[0], dir, &si.StartupInfo, &pi); err != nil {
		return nil, fmt.Errorf("starting %s in an AppContainer: %w", req.Args[0], err)
	}
	p.process = pi.Process
	if err := windows.AssignProcessToJobObject(job, pi.Process); err != nil {
		_ = windows.TerminateProcess(pi.Process, 1)
		windows.CloseHandle(pi.Thread)
		return nil, fmt.Errorf("job object: %w", err)
	}
	if _, err := windows.ResumeThread(pi.Thread); err != nil {
		_ = windows.TerminateJobObject(job, 1)
		windows.CloseHandle(pi.Thread)
		return nil, err
	}
	windows.CloseHandle(pi.Thread)
	for _, h := range p.parentEnds {
		windows.CloseHandle(h)
	}
	p.parentEnds = nil
	started = true
	go p.wait()
	stop := killOnDone(ctx, p)
	go func() {
		_, _ = p.Wait()
		stop()
	}()
	return p, nil
}

func sameWriter(a, b io.Writer) (same bool) {
	defer func() {
		if recover() != nil { // uncomparable writer types
			same = false
		}
	}()
	return a == b
}

type pipeReader struct {
	h windows.Handle
	w io.Writer
}

type appContainerProcess struct {
	name       string
	sid        *windows.SID
	granted    []pathGrant
	job        windows.Handle
	process    windows.Handle
	readers    []pipeReader
	parentEnds []windows.Handle
	exited     atomic.Bool
	done       chan struct{}
	code       int
	err        error
	releaseMu  sync.Once
}

func (p *appContainerProcess) wait() {
	defer close(p.done)
	var drained sync.WaitGroup
	for _, r := range p.readers {
		drained.Add(1)
		go func(r pipeReader) {
			defer drained.Done()
			f := os.NewFile(uintptr(r.h), "sandbox-output")
			defer f.Close()
			w := r.w
			if w == nil {
				w = io.Discard
			}
			_, _ = io.Copy(w, f)
		}(r)
	}
	if _, err := windows.WaitForSingleObject(p.process, windows.INFINITE); err != nil {
		p.err = err
	}
	var code uint32
	if err := windows.GetExitCodeProcess(p.process, &code); err != nil && p.err == nil {
		p.err = err
	}
	p.code = int(code)
	p.exited.Store(true)
	// Whatever the command left running goes with the job; then its pipe
	// ends close and the readers see EOF.
	_ = windows.TerminateJobObject(p.job, 1)
	ok := make(chan struct{})
	go func() { drained.Wait(); close(ok) }()
	select {
	case <-ok:
	case <-time.After(OutputDrainDelay):
	}
	p.release()
}

// release revokes the ACL grants and removes the profile and handles.
func (p *appContainerProcess) release() {
	p.releaseMu.Do(func() {
		for _, h := range p.parentEnds {
			windows.CloseHandle(h)
		}
		if p.process != 0 {
			windows.CloseHandle(p.process)
		}
		if p.job != 0 {
			windows.CloseHandle(p.job) // KILL_ON_JOB_CLOSE
		}
		for _, g := range p.granted {
			_ = setPathAccess(g.Path, p.sid, g.Write, windows.REVOKE_ACCESS)
		}
		if name, err := windows.UTF16PtrFromString(p.name); err == nil {
			procDeleteAppContainerProfile.Call(uintptr(unsafe.Pointer(name)))
		}
		if p.sid != nil {
			windows.FreeSid(p.sid)
		}
	})
}

func (p *appContainerProcess) Wait() (int, error) {
	<-p.done
	return p.code, p.err
}

func (p *appContainerProcess) Kill() error {
	if p.exited.Load() {
		return nil
	}
	return windows.TerminateJobObject(p.job, 1)
}

// createAppContainerProfile creates the named profile (replacing a stale
// one left by a crashed run) and returns its SID.
func createAppContainerProfile(name string) (*windows.SID, error) {
	n, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, err
	}
	var sid *windows.SID
	hr, _, _ := procCreateAppContainerProfile.Call(uintptr(unsafe.Pointer(n)), uintptr(unsafe.Pointer(n)), uintptr(unsafe.Pointer(n)), 0, 0, uintptr(unsafe.Pointer(&sid)))
	if uint32(hr) == hresultAlreadyExists {
		hr, _, _ = procDeriveAppContainerSidByName.Call(uintptr(unsafe.Pointer(n)), uintptr(unsafe.Pointer(&sid)))
	}
	if hr != 0 || sid == nil {
		return nil, fmt.Errorf("CreateAppContainerProfile: HRESULT %#x", uint32(hr))
	}
	return sid, nil
}

// setPathAccess grants or revokes the container SID's access to path
// (read and execute, or everything for a writable path), inherited by
// everything below a directory.
func setPathAccess(path string, sid *windows.SID, write bool, mode windows.ACCESS_MODE) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return err
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return err
	}
	access := windows.ACCESS_MASK(windows.GENERIC_READ | windows.GENERIC_EXECUTE)
	if write {
		access = windows.GENERIC_ALL
	}
	inherit := uint32(windows.NO_INHERITANCE)
	if fi.IsDir() {
		inherit = windows.SUB_CONTAINERS_AND_OBJECTS_INHERIT
	}
	entry := []windows.EXPLICIT_ACCESS{{
		AccessPermissions: access, AccessMode: mode, Inheritance: inherit,
		Trustee: windows.TRUSTEE{TrusteeForm: windows.TRUSTEE_IS_SID, TrusteeType: windows.TRUSTEE_IS_WELL_KNOWN_GROUP, TrusteeValue: windows.TrusteeValueFromSID(sid)},
	}}
	acl, err := windows.ACLFromEntries(entry, dacl)
	if err != nil {
		return err
	}
	if err := windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION, nil, nil, acl, nil); err != nil {
		return errors.Join(fmt.Errorf("setting the ACL of %s", path), err)
	}
	return nil
}
