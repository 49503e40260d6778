package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
)

// bbolt trusts its file: it maps it into memory and follows page ids and
// offsets without bounds checks, so a damaged file makes it panic or fault
// (SIGSEGV, SIGBUS), which a plain recover() does not catch. inspect reads
// the file through ordinary, bounds-checked reads first and refuses
// anything bbolt could not walk safely. The layout is bbolt's (go.etcd.io/bbolt v1.5,
// internal/common), in the machine's byte order:
//
//	page header  id u64, flags u16, count u16, overflow u32
//	meta         magic u32, version u32, page size u32, flags u32,
//	             root bucket {root page u64, sequence u64},
//	             freelist page u64, high-water mark u64, txid u64,
//	             checksum u64 (FNV-64a of the fields before it)
//	branch elem  pos u32, key size u32, child page u64
//	leaf elem    flags u32, pos u32, key size u32, value size u32
//
// An element's pos counts from the element itself. A bucket is a leaf
// element whose value holds {root page u64, sequence u64}; root page 0 means
// the bucket is inline: its one leaf page follows in the value.
const (
	boltMagic   = 0xED0CDAED
	boltVersion = 2

	pageHeaderSize   = 16
	metaSize         = 64
	metaSummedSize   = 56
	elementSize      = 16
	bucketHeaderSize = 16

	branchPageFlag   = 0x01
	leafPageFlag     = 0x02
	freelistPageFlag = 0x10
	bucketLeafFlag   = 0x01

	noFreelist = ^uint64(0)
)

var ne = binary.NativeEndian

var errNoMagic = errors.New("no bbolt magic number")

// meta is what inspect needs of a meta page.
type meta struct {
	pageSize uint32
	root     uint64 // the root bucket's page
	freelist uint64
	hwm      uint64 // the number of pages in use; every page id is below it
	txid     uint64
}

// inspect checks the structure of the bbolt file r of size bytes: both
// meta pages, that the file holds every page below the high-water mark, the
// freelist, and every page reachable from the root bucket, each of which
// must carry its own id, be referenced once, and keep its elements inside
// itself; the root bucket must hold only buckets. It does not check key
// order or the freelist against the tree; bbolt's tx.Check does, once
// inspect has made that safe.
func inspect(r io.ReaderAt, size int64) error {
	m0, err := readMeta(r, 0)
	if errors.Is(err, errNoMagic) {
		return fmt.Errorf("not a store file, or its first page is overwritten: meta page 0: %w", err)
	}
	if err != nil {
		return fmt.Errorf("meta page 0: %w", err)
	}
	if m0.pageSize < pageHeaderSize+metaSize {
		return fmt.Errorf("meta page 0: impossible page size %d", m0.pageSize)
	}
	m1, err := readMeta(r, int64(m0.pageSize))
	if err != nil {
		return fmt.Errorf("meta page 1: %w", err)
	}
	if m1.pageSize != m0.pageSize {
		return fmt.Errorf("the meta pages disagree on the page size (%d and %d)", m0.pageSize, m1.pageSize)
	}
	// bbolt uses the meta page of the later transaction.
	m := m0
	if m1.txid > m0.txid {
		m = m1
	}
	pageSize := int64(m.pageSize)
	if m.hwm > uint64(size/pageSize) {
		return fmt.Errorf("truncated: the file is %d bytes, but its %d pages of %d bytes need %d", size, m.hwm, pageSize, m.hwm*uint64(pageSize))
	}
	v := &verifier{r: r, pageSize: pageSize, hwm: m.hwm, seen: make(map[uint64]bool)}
	if m.freelist != noFreelist {
		if err := v.freelist(m.freelist); err != nil {
			return err
		}
	}
	return v.walk(m.root)
}

// readMeta reads and validates the meta page at off.
func readMeta(r io.ReaderAt, off int64) (meta, error) {
	var b [pageHeaderSize + metaSize]byte
	if _, err := r.ReadAt(b[:], off); err != nil {
		if errors.Is(err, io.EOF) {
			return meta{}, errors.New("truncated: the file ends inside it")
		}
		return meta{}, err
	}
	m := b[pageHeaderSize:]
	if ne.Uint32(m[0:]) != boltMagic {
		return meta{}, errNoMagic
	}
	if v := ne.Uint32(m[4:]); v != boltVersion {
		return meta{}, fmt.Errorf("unsupported bbolt format version %d", v)
	}
	h := fnv.New64a()
	h.Write(m[:metaSummedSize])
	if h.Sum64() != ne.Uint64(m[metaSummedSize:]) {
		return meta{}, errors.New("checksum mismatch")
	}
	return meta{
		pageSize: ne.Uint32(m[8:]),
		root:     ne.Uint64(m[16:]),
		freelist: ne.Uint64(m[32:]),
		hwm:      ne.Uint64(m[40:]),
		txid:     ne.Uint64(m[48:]),
	}, nil
}

// verifier walks the pages of one meta page's tree.
type verifier struct {
	r        io.ReaderAt
	pageSize int64
	hwm      uint64
	seen     map[uint64]bool
}

// page reads page id with its overflow pages, once they are known to lie
// in the file and not to belong to a page read before.
func (v *verifier) page(id uint64) ([]byte, error) {
	if id < 2 || id >= v.hwm {
		return nil, fmt.Errorf("page %d: outside the %d pages in use", id, v.hwm)
	}
	p := make([]byte, v.pageSize)
	if _, err := v.r.ReadAt(p, int64(id)*v.pageSize); err != nil {
		return nil, fmt.Errorf("reading page %d: %w", id, err)
	}
	if got := ne.Uint64(p[0:]); got != id {
		return nil, fmt.Errorf("page %d: its header says it is page %d", id, got)
	}
	overflow := uint64(ne.Uint32(p[12:]))
	if overflow >= v.hwm-id {
		return nil, fmt.Errorf("page %d: its %d overflow pages run past the %d pages in use", id, overflow, v.hwm)
	}
	for i := id; i <= id+overflow; i++ {
		if v.seen[i] {
			return nil, fmt.Errorf("page %d: referenced twice", i)
		}
		v.seen[i] = true
	}
	if overflow > 0 {
		p = append(p, make([]byte, int64(overflow)*v.pageSize)...)
		if _, err := v.r.ReadAt(p[v.pageSize:], int64(id+1)*v.pageSize); err != nil {
			return nil, fmt.Errorf("reading page %d: %w", id, err)
		}
	}
	return p, nil
}

// freelist checks the freelist page: every id it lists is a page in use.
func (v *verifier) freelist(id uint64) error {
	p, err := v.page(id)
	if err != nil {
		return fmt.Errorf("freelist: %w", err)
	}
	if flags := ne.Uint16(p[8:]); flags != freelistPageFlag {
		return fmt.Errorf("freelist: page %d is not a freelist page (flags %#x)", id, flags)
	}
	// A count of 0xFFFF means the real count is the first element.
	ids, count := p[pageHeaderSize:], uint64(ne.Uint16(p[10:]))
	if count == 0xFFFF {
		count = ne.Uint64(ids)
		ids = ids[8:]
	}
	if count > uint64(len(ids)/8) {
		return fmt.Errorf("freelist: page %d: its %d ids do not fit in it", id, count)
	}
	for i := range count {
		if free := ne.Uint64(ids[i*8:]); free < 2 || free >= v.hwm {
			return fmt.Errorf("freelist: page %d: lists page %d, outside the %d pages in use", id, free, v.hwm)
		}
	}
	return nil
}

// holds is what the leaves under a page may hold.
type holds int

const (
	keysAndBuckets holds = iota // a bucket's tree
	bucketsOnly                 // the root bucket's tree
	keysOnly                    // an inline bucket's page
)

// walk checks every page reachable from root, the root bucket's page,
// through branch pages and nested buckets.
func (v *verifier) walk(root uint64) error {
	type item struct {
		id    uint64
		holds holds
	}
	todo := []item{{root, bucketsOnly}}
	for len(todo) > 0 {
		it := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		p, err := v.page(it.id)
		if err != nil {
			return err
		}
		children, buckets, err := elements(p, it.holds)
		if err != nil {
			return fmt.Errorf("page %d: %w", it.id, err)
		}
		for _, id := range children {
			todo = append(todo, item{id, it.holds})
		}
		for _, id := range buckets {
			todo = append(todo, item{id, keysAndBuckets})
		}
	}
	return nil
}

// elements checks that the branch or leaf page p keeps each element's key
// and value inside itself, and holds only what h allows. It returns the
// pages p refers to: a branch page's children, and the roots of the
// buckets a leaf page holds. An inline bucket's page, a leaf that holds no
// buckets, is checked in place.
func elements(p []byte, h holds) (children, buckets []uint64, err error) {
	flags, count := ne.Uint16(p[8:]), int(ne.Uint16(p[10:]))
	if flags != leafPageFlag && (h == keysOnly || flags != branchPageFlag) {
		return nil, nil, fmt.Errorf("not a branch or leaf page (flags %#x)", flags)
	}
	if pageHeaderSize+count*elementSize > len(p) {
		return nil, nil, fmt.Errorf("its %d elements do not fit in it", count)
	}
	for i := range count {
		at := pageHeaderSize + i*elementSize
		e := p[at:]
		if flags == branchPageFlag {
			end := uint64(at) + uint64(ne.Uint32(e[0:])) + uint64(ne.Uint32(e[4:]))
			if end > uint64(len(p)) {
				return nil, nil, fmt.Errorf("element %d: its key lies outside the page", i)
			}
			children = append(children, ne.Uint64(e[8:]))
			continue
		}
		start := uint64(at) + uint64(ne.Uint32(e[4:]))
		ksize, vsize := uint64(ne.Uint32(e[8:])), uint64(ne.Uint32(e[12:]))
		if start+ksize+vsize > uint64(len(p)) {
			return nil, nil, fmt.Errorf("element %d: its key and value lie outside the page", i)
		}
		isBucket := ne.Uint32(e[0:])&bucketLeafFlag != 0
		switch {
		case !isBucket && h == bucketsOnly:
			return nil, nil, fmt.Errorf("element %d: the root holds a key that is not a bucket", i)
		case !isBucket:
			continue
		case h == keysOnly:
			return nil, nil, fmt.Errorf("element %d: an inline bucket holds a bucket", i)
		}
		value := p[start+ksize : start+ksize+vsize]
		if len(value) < bucketHeaderSize {
			return nil, nil, fmt.Errorf("element %d: its bucket header is %d bytes", i, len(value))
		}
		if root := ne.Uint64(value); root != 0 {
			buckets = append(buckets, root)
			continue
		}
		if len(value) < bucketHeaderSize+pageHeaderSize {
			return nil, nil, fmt.Errorf("element %d: its inline bucket is %d bytes", i, len(value))
		}
		if _, _, err := elements(value[bucketHeaderSize:], keysOnly); err != nil {
			return nil, nil, fmt.Errorf("element %d: inline bucket: %w", i, err)
		}
	}
	return children, buckets, nil
}
