package sqlite

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// walVFS is the name of the VFS every connection of a store opens with:
// SQLite's own unix VFS, with the WAL file's appends gathered into one
// write per commit.
//
// Why: SQLite writes each WAL frame as two pwrite calls (the 24-byte frame
// header, then the page), so a one-statement transaction touching 12 pages
// made ~24 system calls, over a third of a write's CPU on this kind of VM
// (BENCHMARKS.md, statements). The file's bytes, their order and the
// moment they reach the OS relative to the commit's publication are
// unchanged:
//
//   - a write is held only when it appends (at or past the end this
//     handle has written since it took the write lock, or right after
//     what is held); a rewrite of an earlier frame of the transaction, as
//     in SQLite's checksum rewrite, first writes out what is held and then
//     goes straight through;
//   - the page after a commit frame's header (its "database size" field
//     set) writes everything held before xWrite returns, so an I/O error
//     fails the COMMIT as it would have without the buffer;
//   - any other call on the WAL (read, sync, truncate, size, lock, close)
//     writes out what is held first, and so does any shared-memory call
//     on the main database file. SQLite publishes a commit to readers by
//     writing the wal-index header around an xShmBarrier on the database
//     file, so no reader, in this process or another, can see a frame
//     that is not yet in the file.
//
// A crash loses only what was held, which is always part of a transaction
// not yet committed: recovery ignores frames after the last valid commit
// frame, as it does after a crash mid-way through the two pwrites.
const walVFS = "cairn-wal"

// walBufferSize bounds what one handle holds: a large transaction (an
// import) writes out every 124 KiB. The unix VFS's write takes at most
// 128 KiB - 1 bytes per call (it masks the length with 0x1ffff) and calls
// a write that comes up short a full disk.
const walBufferSize = 124 << 10

// shimFile is laid over the sqlite3_file SQLite allocates for the main
// database and WAL files (the VFS's szOsFile makes room): our methods
// first, then the unix VFS's own file object at real. It lives in
// SQLite's memory, so it holds no Go pointers.
type shimFile struct {
	base sqlite3.Tsqlite3_file
	// real is the unix VFS's file object, at shimSize past this one.
	real uintptr
	// peer links a database file and its WAL handle, both ways.
	peer uintptr
	// wal is 1 for a WAL file.
	wal int32
	// commit is 1 once a commit frame's header is held, so the next
	// append (its page) writes everything out.
	commit int32
	// buf holds bufLen bytes that belong at file offset bufOff.
	buf    uintptr
	bufLen int64
	bufOff int64
	// end is the end of the furthest write through this handle: a write
	// at or past it is an append.
	end int64
}

// shimSize keeps the real file object 16-byte aligned after shimFile.
const shimSize = (int32(unsafe.Sizeof(shimFile{})) + 15) &^ 15

// walWrites and walFileWrites count, process-wide, the WAL writes SQLite
// asked for and the ones that reached the file.
var walWrites, walFileWrites atomic.Int64

// fileReads counts, process-wide, the reads SQLite made of the store's
// files (database and WAL): a page its cache did not hold.
var fileReads atomic.Int64

var (
	walOnce    sync.Once
	walErr     error
	walVFSData sqlite3.Tsqlite3_vfs
	walMethods sqlite3.Tsqlite3_io_methods
	// unixVFS is SQLite's default VFS, which walVFS wraps.
	unixVFS uintptr
)

// registerWALVFS registers walVFS once per process.
func registerWALVFS() error {
	walOnce.Do(func() {
		tls := libc.NewTLS()
		defer tls.Close()
		unixVFS = sqlite3.Xsqlite3_vfs_find(tls, 0)
		if unixVFS == 0 {
			walErr = fmt.Errorf("sqlite: no default VFS to wrap")
			return
		}
		inner := (*sqlite3.Tsqlite3_vfs)(cmem(unixVFS))
		walVFSData = *inner
		walVFSData.FszOsFile = inner.FszOsFile + shimSize
		walVFSData.FpNext = 0
		name, err := libc.CString(walVFS)
		if err != nil {
			walErr = err
			return
		}
		walVFSData.FzName = name
		*(*func(*libc.TLS, uintptr, uintptr, uintptr, int32, uintptr) int32)(unsafe.Pointer(&walVFSData.FxOpen)) = shimOpen
		setShimMethods(&walMethods)
		if rc := sqlite3.Xsqlite3_vfs_register(tls, uintptr(unsafe.Pointer(&walVFSData)), 0); rc != sqlite3.SQLITE_OK {
			walErr = fmt.Errorf("sqlite: register VFS %s: code %d", walVFS, rc)
		}
	})
	return walErr
}

// cmem turns an address in SQLite's memory (its heap, never Go's) into a
// pointer. Spelled through a variable's address so vet sees no uintptr
// arithmetic becoming a Go pointer; the garbage collector ignores
// pointers outside its heap.
func cmem(u uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&u)) }

func shimOf(f uintptr) *shimFile { return (*shimFile)(cmem(f)) }

// realMethods is the unix VFS's method table for the file under s.
func (s *shimFile) realMethods() *sqlite3.Tsqlite3_io_methods {
	return (*sqlite3.Tsqlite3_io_methods)(cmem((*sqlite3.Tsqlite3_file)(cmem(s.real)).FpMethods))
}

func shimOpen(tls *libc.TLS, _ uintptr, zName uintptr, pFile uintptr, flags int32, pOutFlags uintptr) int32 {
	innerOpen := (*sqlite3.Tsqlite3_vfs)(cmem(unixVFS)).FxOpen
	open := *(*func(*libc.TLS, uintptr, uintptr, uintptr, int32, uintptr) int32)(unsafe.Pointer(&innerOpen))
	if flags&(sqlite3.SQLITE_OPEN_MAIN_DB|sqlite3.SQLITE_OPEN_WAL) == 0 {
		// Journals, temp files: the unix VFS's own object, untouched.
		return open(tls, unixVFS, zName, pFile, flags, pOutFlags)
	}
	s := shimOf(pFile)
	*s = shimFile{real: pFile + uintptr(shimSize)}
	rc := open(tls, unixVFS, zName, s.real, flags, pOutFlags)
	if (*sqlite3.Tsqlite3_file)(cmem(s.real)).FpMethods == 0 {
		// SQLite calls xClose only when pMethods is set.
		s.base.FpMethods = 0
		return rc
	}
	s.base.FpMethods = uintptr(unsafe.Pointer(&walMethods))
	if rc != sqlite3.SQLITE_OK || flags&sqlite3.SQLITE_OPEN_WAL == 0 {
		return rc
	}
	s.wal = 1
	if db := sqlite3.Xsqlite3_database_file_object(tls, zName); db != 0 &&
		(*sqlite3.Tsqlite3_file)(cmem(db)).FpMethods == uintptr(unsafe.Pointer(&walMethods)) {
		s.peer = db
		shimOf(db).peer = pFile
	}
	if s.realMethods().FxFileSize != 0 {
		// The out-parameter lives in SQLite's memory, not Go's: the
		// transpiled code may only be handed addresses it owns.
		p := tls.Alloc(8)
		if callFileSize(tls, s, p) == sqlite3.SQLITE_OK {
			s.end = *(*int64)(cmem(p))
		}
		tls.Free(8)
	}
	return rc
}

// flush writes out what s holds. It is a no-op for a database file.
func (s *shimFile) flush(tls *libc.TLS) int32 {
	s.commit = 0
	if s.bufLen == 0 {
		return sqlite3.SQLITE_OK
	}
	n := s.bufLen
	s.bufLen = 0
	walFileWrites.Add(1)
	return callWrite(tls, s, s.buf, int32(n), s.bufOff)
}

// flushPeer writes out what the WAL of database file s holds.
func (s *shimFile) flushPeer(tls *libc.TLS) int32 {
	if s.wal == 0 && s.peer != 0 {
		return shimOf(s.peer).flush(tls)
	}
	return sqlite3.SQLITE_OK
}

func shimWrite(tls *libc.TLS, f uintptr, p uintptr, n int32, off int64) int32 {
	s := shimOf(f)
	if s.wal == 0 {
		return callWrite(tls, s, p, n, off)
	}
	walWrites.Add(1)
	if off == 0 {
		// The WAL header: SQLite is starting the log over from the top.
		s.end = 0
	}
	held := s.bufLen > 0 && off == s.bufOff+s.bufLen
	if !held && (s.bufLen > 0 || off < s.end || int64(n) > walBufferSize) {
		// Not an append to what is held: write that out, then this.
		if rc := s.flush(tls); rc != sqlite3.SQLITE_OK {
			return rc
		}
		if off < s.end || int64(n) > walBufferSize {
			return s.direct(tls, p, n, off)
		}
	}
	if s.bufLen+int64(n) > walBufferSize {
		if rc := s.flush(tls); rc != sqlite3.SQLITE_OK {
			return rc
		}
	}
	if s.buf == 0 {
		s.buf = libc.Xmalloc(tls, walBufferSize)
		if s.buf == 0 {
			return s.direct(tls, p, n, off)
		}
	}
	if s.bufLen == 0 {
		s.bufOff = off
	}
	copy(unsafe.Slice((*byte)(cmem(s.buf+uintptr(s.bufLen))), n), unsafe.Slice((*byte)(cmem(p)), n))
	s.bufLen += int64(n)
	if e := off + int64(n); e > s.end {
		s.end = e
	}
	if s.commit == 1 {
		// The commit frame's page: the transaction goes out now, so its
		// COMMIT reports any I/O error.
		return s.flush(tls)
	}
	if n == walFrameHeader && frameCommits(p) {
		s.commit = 1
	}
	return sqlite3.SQLITE_OK
}

// walFrameHeader is the size of a WAL frame header; bytes 4–7 are the
// database size after a commit, zero in a frame that does not commit.
const walFrameHeader = 24

func frameCommits(p uintptr) bool {
	h := unsafe.Slice((*byte)(cmem(p)), walFrameHeader)
	return h[4]|h[5]|h[6]|h[7] != 0
}

// direct writes straight through, keeping end.
func (s *shimFile) direct(tls *libc.TLS, p uintptr, n int32, off int64) int32 {
	if e := off + int64(n); e > s.end {
		s.end = e
	}
	walFileWrites.Add(1)
	return callWrite(tls, s, p, n, off)
}

func callWrite(tls *libc.TLS, s *shimFile, p uintptr, n int32, off int64) int32 {
	fp := s.realMethods().FxWrite
	return (*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&fp)))(tls, s.real, p, n, off)
}

func callFileSize(tls *libc.TLS, s *shimFile, size uintptr) int32 {
	fp := s.realMethods().FxFileSize
	return (*(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&fp)))(tls, s.real, size)
}

func shimClose(tls *libc.TLS, f uintptr) int32 {
	s := shimOf(f)
	rc := s.flush(tls)
	if s.peer != 0 {
		shimOf(s.peer).peer = 0
		s.peer = 0
	}
	if s.buf != 0 {
		libc.Xfree(tls, s.buf)
		s.buf = 0
	}
	fp := s.realMethods().FxClose
	if rc2 := (*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&fp)))(tls, s.real); rc == sqlite3.SQLITE_OK {
		rc = rc2
	}
	return rc
}

func shimRead(tls *libc.TLS, f uintptr, p uintptr, n int32, off int64) int32 {
	fileReads.Add(1)
	s := shimOf(f)
	if rc := s.flush(tls); rc != sqlite3.SQLITE_OK {
		return rc
	}
	fp := s.realMethods().FxRead
	return (*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&fp)))(tls, s.real, p, n, off)
}

func shimTruncate(tls *libc.TLS, f uintptr, size int64) int32 {
	s := shimOf(f)
	if rc := s.flush(tls); rc != sqlite3.SQLITE_OK {
		return rc
	}
	if size < s.end {
		s.end = size
	}
	fp := s.realMethods().FxTruncate
	return (*(*func(*libc.TLS, uintptr, int64) int32)(unsafe.Pointer(&fp)))(tls, s.real, size)
}

// intCall forwards a method taking (file, int) after writing out what is
// held (sync, lock, unlock, reserved-lock check, file size).
func intCall(tls *libc.TLS, s *shimFile, fp uintptr, a int32) int32 {
	if rc := s.flush(tls); rc != sqlite3.SQLITE_OK {
		return rc
	}
	return (*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&fp)))(tls, s.real, a)
}

func ptrCall(tls *libc.TLS, s *shimFile, fp uintptr, p uintptr) int32 {
	if rc := s.flush(tls); rc != sqlite3.SQLITE_OK {
		return rc
	}
	return (*(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&fp)))(tls, s.real, p)
}

func shimSync(tls *libc.TLS, f uintptr, flags int32) int32 {
	s := shimOf(f)
	return intCall(tls, s, s.realMethods().FxSync, flags)
}

func shimFileSize(tls *libc.TLS, f uintptr, p uintptr) int32 {
	s := shimOf(f)
	return ptrCall(tls, s, s.realMethods().FxFileSize, p)
}

func shimLock(tls *libc.TLS, f uintptr, lock int32) int32 {
	s := shimOf(f)
	return intCall(tls, s, s.realMethods().FxLock, lock)
}

func shimUnlock(tls *libc.TLS, f uintptr, lock int32) int32 {
	s := shimOf(f)
	return intCall(tls, s, s.realMethods().FxUnlock, lock)
}

func shimCheckReservedLock(tls *libc.TLS, f uintptr, p uintptr) int32 {
	s := shimOf(f)
	return ptrCall(tls, s, s.realMethods().FxCheckReservedLock, p)
}

func shimFileControl(tls *libc.TLS, f uintptr, op int32, p uintptr) int32 {
	s := shimOf(f)
	if rc := s.flush(tls); rc != sqlite3.SQLITE_OK {
		return rc
	}
	fp := s.realMethods().FxFileControl
	return (*(*func(*libc.TLS, uintptr, int32, uintptr) int32)(unsafe.Pointer(&fp)))(tls, s.real, op, p)
}

func shimSectorSize(tls *libc.TLS, f uintptr) int32 {
	s := shimOf(f)
	fp := s.realMethods().FxSectorSize
	return (*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&fp)))(tls, s.real)
}

func shimDeviceCharacteristics(tls *libc.TLS, f uintptr) int32 {
	s := shimOf(f)
	fp := s.realMethods().FxDeviceCharacteristics
	return (*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&fp)))(tls, s.real)
}

// The shared-memory calls arrive on the database file; each writes out
// its WAL's held frames first, since the wal-index is how readers learn
// of frames.

func shimShmMap(tls *libc.TLS, f uintptr, region int32, size int32, extend int32, pp uintptr) int32 {
	s := shimOf(f)
	if rc := s.flushPeer(tls); rc != sqlite3.SQLITE_OK {
		return rc
	}
	fp := s.realMethods().FxShmMap
	return (*(*func(*libc.TLS, uintptr, int32, int32, int32, uintptr) int32)(unsafe.Pointer(&fp)))(tls, s.real, region, size, extend, pp)
}

func shimShmLock(tls *libc.TLS, f uintptr, offset int32, n int32, flags int32) int32 {
	s := shimOf(f)
	if rc := s.flushPeer(tls); rc != sqlite3.SQLITE_OK {
		return rc
	}
	fp := s.realMethods().FxShmLock
	rc := (*(*func(*libc.TLS, uintptr, int32, int32, int32) int32)(unsafe.Pointer(&fp)))(tls, s.real, offset, n, flags)
	if rc == sqlite3.SQLITE_OK && offset == walWriteLock && n == 1 && flags == sqlite3.SQLITE_SHM_LOCK|sqlite3.SQLITE_SHM_EXCLUSIVE &&
		s.wal == 0 && s.peer != 0 {
		// The write lock: every frame this transaction writes lies past
		// the log's last commit, wherever this handle wrote before (the
		// log may have been started over, or rolled back, since). Only
		// this transaction's own frames can be rewritten now.
		shimOf(s.peer).end = 0
	}
	return rc
}

// walWriteLock is the wal-index lock a writer holds (WAL_WRITE_LOCK).
const walWriteLock = 0

func shimShmBarrier(tls *libc.TLS, f uintptr) {
	s := shimOf(f)
	// A barrier cannot report an error. The commit frame's page has
	// already written the transaction out (shimWrite), so nothing is
	// normally held here; this is the backstop.
	s.flushPeer(tls)
	fp := s.realMethods().FxShmBarrier
	(*(*func(*libc.TLS, uintptr))(unsafe.Pointer(&fp)))(tls, s.real)
}

func shimShmUnmap(tls *libc.TLS, f uintptr, del int32) int32 {
	s := shimOf(f)
	if rc := s.flushPeer(tls); rc != sqlite3.SQLITE_OK {
		return rc
	}
	fp := s.realMethods().FxShmUnmap
	return (*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&fp)))(tls, s.real, del)
}

func shimFetch(tls *libc.TLS, f uintptr, off int64, n int32, pp uintptr) int32 {
	s := shimOf(f)
	if rc := s.flush(tls); rc != sqlite3.SQLITE_OK {
		return rc
	}
	fp := s.realMethods().FxFetch
	return (*(*func(*libc.TLS, uintptr, int64, int32, uintptr) int32)(unsafe.Pointer(&fp)))(tls, s.real, off, n, pp)
}

func shimUnfetch(tls *libc.TLS, f uintptr, off int64, p uintptr) int32 {
	s := shimOf(f)
	fp := s.realMethods().FxUnfetch
	return (*(*func(*libc.TLS, uintptr, int64, uintptr) int32)(unsafe.Pointer(&fp)))(tls, s.real, off, p)
}

// setShimMethods fills m. Version 3 has every method the unix VFS has
// (shared memory, memory-mapped fetch); each forwards to it.
func setShimMethods(m *sqlite3.Tsqlite3_io_methods) {
	m.FiVersion = 3
	*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&m.FxClose)) = shimClose
	*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&m.FxRead)) = shimRead
	*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&m.FxWrite)) = shimWrite
	*(*func(*libc.TLS, uintptr, int64) int32)(unsafe.Pointer(&m.FxTruncate)) = shimTruncate
	*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxSync)) = shimSync
	*(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&m.FxFileSize)) = shimFileSize
	*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxLock)) = shimLock
	*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxUnlock)) = shimUnlock
	*(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&m.FxCheckReservedLock)) = shimCheckReservedLock
	*(*func(*libc.TLS, uintptr, int32, uintptr) int32)(unsafe.Pointer(&m.FxFileControl)) = shimFileControl
	*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&m.FxSectorSize)) = shimSectorSize
	*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&m.FxDeviceCharacteristics)) = shimDeviceCharacteristics
	*(*func(*libc.TLS, uintptr, int32, int32, int32, uintptr) int32)(unsafe.Pointer(&m.FxShmMap)) = shimShmMap
	*(*func(*libc.TLS, uintptr, int32, int32, int32) int32)(unsafe.Pointer(&m.FxShmLock)) = shimShmLock
	*(*func(*libc.TLS, uintptr))(unsafe.Pointer(&m.FxShmBarrier)) = shimShmBarrier
	*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxShmUnmap)) = shimShmUnmap
	*(*func(*libc.TLS, uintptr, int64, int32, uintptr) int32)(unsafe.Pointer(&m.FxFetch)) = shimFetch
	*(*func(*libc.TLS, uintptr, int64, uintptr) int32)(unsafe.Pointer(&m.FxUnfetch)) = shimUnfetch
}
